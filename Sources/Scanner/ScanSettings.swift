import PrintModel

/// What a client asks a scan job for (eSCL ScanSettings, the body of `POST ScanJobs`), checked against the
/// scanner's capabilities: every setting the client leaves out takes the scanner's default.
public struct ScanSettings: Sendable, Equatable, Codable {
    /// Where the originals lie.
    public enum Source: String, Sendable, Codable, CaseIterable {
        case platen = "Platen"
        case feeder = "Feeder"
    }

    public var source: Source
    /// Both sides of each sheet (feeder only).
    public var duplex: Bool
    public var colorMode: ScanPage.ColorMode
    /// Dots per inch, the same across and down.
    public var resolution: Int
    public var format: ScanPage.Format
    /// The part of the source's area scanned, in three-hundredths of an inch.
    public var region: ScanPage.Region
    /// The client's scan:Intent (Document, Photo, Preview, TextAndGraphic...), as it said it; nil when it did not.
    public var intent: String?

    public init(
        source: Source, duplex: Bool, colorMode: ScanPage.ColorMode, resolution: Int, format: ScanPage.Format,
        region: ScanPage.Region, intent: String?
    ) {
        self.source = source
        self.duplex = duplex
        self.colorMode = colorMode
        self.resolution = resolution
        self.format = format
        self.region = region
        self.intent = intent
    }

    enum CodingKeys: String, CodingKey {
        case source, duplex, colorMode = "color-mode", resolution, format, region, intent
    }
}

/// Why a ScanSettings body was refused: the message a client (and a tester) reads.
public struct ScanSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}

extension ScanSettings {
    /// The settings of a `POST ScanJobs` body, with the scanner's defaults where it says nothing. A value the
    /// scanner does not offer is refused (a real scanner answers 409 Conflict); a region larger than the source
    /// is cut to it.
    public static func read(_ body: [UInt8], for scanner: ScannerCapabilities) throws(ScanSettingsError)
        -> ScanSettings
    {
        let root: XMLElement
        do {
            root = try XMLReader.read(body)
        } catch {
            throw ScanSettingsError("The scan settings are not XML: \(error).")
        }
        guard root.name == "ScanSettings" else {
            throw ScanSettingsError("The body is <\(root.name)>, not <ScanSettings>.")
        }
        let source = try Self.source(root, scanner)
        guard let area = scanner.area(of: source) else {
            throw ScanSettingsError("The scanner has no \(source.rawValue).")
        }
        let duplex = try Self.duplex(root, source: source, scanner: scanner)
        let colorMode = try Self.choice(
            root.value("ColorMode"), of: scanner.colorModes, named: "ColorMode",
            default: scanner.colorModes.contains(.rgb24) ? .rgb24 : scanner.colorModes.first ?? .rgb24)
        let format = try Self.choice(
            root.value("DocumentFormatExt") ?? root.value("DocumentFormat"), of: scanner.formats,
            named: "DocumentFormat",
            default: scanner.formats.contains(.jpeg) ? .jpeg : scanner.formats.first ?? .jpeg)
        return ScanSettings(
            source: source, duplex: duplex, colorMode: colorMode, resolution: try resolution(root, scanner),
            format: format, region: try region(root, area: area), intent: root.value("Intent"))
    }

    private static func source(_ root: XMLElement, _ scanner: ScannerCapabilities) throws(ScanSettingsError) -> Source {
        guard let text = root.value("InputSource") else {
            return scanner.platen != nil ? .platen : .feeder
        }
        // eSCL spells the feeder "Feeder"; some clients write "Adf".
        switch text.lowercased() {
        case "platen": return .platen
        case "feeder", "adf": return .feeder
        default: throw ScanSettingsError("InputSource \(text) is not offered (Platen or Feeder).")
        }
    }

    private static func duplex(_ root: XMLElement, source: Source, scanner: ScannerCapabilities)
        throws(ScanSettingsError) -> Bool
    {
        guard let text = root.value("Duplex")?.lowercased(), text == "true" || text == "1" else { return false }
        guard source == .feeder, scanner.duplex else {
            throw ScanSettingsError("Duplex is offered only from a duplex feeder.")
        }
        return true
    }

    private static func choice<Value: RawRepresentable>(
        _ text: String?, of offered: [Value], named name: String, default fallback: Value
    ) throws(ScanSettingsError) -> Value where Value.RawValue == String {
        guard let text else { return fallback }
        guard let value = offered.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw ScanSettingsError(
                "\(name) \(text) is not offered (\(offered.map(\.rawValue).joined(separator: ", "))).")
        }
        return value
    }

    private static func resolution(_ root: XMLElement, _ scanner: ScannerCapabilities) throws(ScanSettingsError)
        -> Int
    {
        let x = root.value("XResolution").flatMap { Int($0) }
        let y = root.value("YResolution").flatMap { Int($0) }
        guard let asked = x ?? y else {
            return scanner.resolutions.contains(300) ? 300 : scanner.resolutions.first ?? 300
        }
        guard x == nil || y == nil || x == y else {
            throw ScanSettingsError(
                "XResolution \(x ?? 0) and YResolution \(y ?? 0) differ; only square ones are offered.")
        }
        guard scanner.resolutions.contains(asked) else {
            throw ScanSettingsError(
                "Resolution \(asked) is not offered (\(scanner.resolutions.map(String.init).joined(separator: ", "))).")
        }
        return asked
    }

    private static func region(_ root: XMLElement, area: ScannerCapabilities.Area) throws(ScanSettingsError)
        -> ScanPage.Region
    {
        guard let region = root.descendant("ScanRegion") else {
            return ScanPage.Region(x: 0, y: 0, width: area.width, height: area.height)
        }
        if let units = region.value("ContentRegionUnits"), !units.hasSuffix("ThreeHundredthsOfInches") {
            throw ScanSettingsError("ContentRegionUnits \(units) is not offered (escl:ThreeHundredthsOfInches).")
        }
        func number(_ name: String, default fallback: Int) throws(ScanSettingsError) -> Int {
            guard let text = region.value(name) else { return fallback }
            guard let value = Int(text), value >= 0 else {
                throw ScanSettingsError("ScanRegion \(name) \(text) is not a length.")
            }
            return value
        }
        let x = min(try number("XOffset", default: 0), area.width - ScannerCapabilities.minimumSide)
        let y = min(try number("YOffset", default: 0), area.height - ScannerCapabilities.minimumSide)
        let width = min(try number("Width", default: area.width), area.width - x)
        let height = min(try number("Height", default: area.height), area.height - y)
        guard width >= ScannerCapabilities.minimumSide, height >= ScannerCapabilities.minimumSide else {
            throw ScanSettingsError(
                "ScanRegion \(width) x \(height) is smaller than \(ScannerCapabilities.minimumSide) three-hundredths "
                    + "of an inch.")
        }
        return ScanPage.Region(x: x, y: y, width: width, height: height)
    }
}
