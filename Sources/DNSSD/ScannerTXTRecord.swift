/// The TXT record of an eSCL scanner's `_uscan._tcp` / `_uscans._tcp` service (Mopria eSCL section 7, Apple
/// AirScan): what scanning clients read before they ask the scanner itself.
public struct ScannerTXTRecord: Sendable, Equatable {
    /// The eSCL root path without its leading slash (`rs`), e.g. `ipp/print/eSCL`.
    public var rootPath: String
    public var makeAndModel: String
    /// The eSCL version (`vers`).
    public var version: String
    /// The scanner's UUID, without `urn:uuid:`.
    public var uuid: String
    /// The web page (`adminurl`) and the icon (`representation`).
    public var adminURL: String
    public var iconURL: String
    /// MIME types of the images (`pdl`).
    public var formats: [String]
    /// `color`, `grayscale`, `binary` (`cs`).
    public var colorSpaces: [String]
    /// `platen`, `adf` (`is`).
    public var inputSources: [String]
    public var duplex: Bool
    public var location: String

    public init(
        rootPath: String, makeAndModel: String, version: String, uuid: String, adminURL: String, iconURL: String,
        formats: [String], colorSpaces: [String], inputSources: [String], duplex: Bool, location: String
    ) {
        self.rootPath = rootPath
        self.makeAndModel = makeAndModel
        self.version = version
        self.uuid = uuid
        self.adminURL = adminURL
        self.iconURL = iconURL
        self.formats = formats
        self.colorSpaces = colorSpaces
        self.inputSources = inputSources
        self.duplex = duplex
        self.location = location
    }

    /// The keys in the order they are published.
    public var entries: [(key: String, value: String)] {
        [
            ("txtvers", "1"), ("vers", version), ("rs", rootPath), ("ty", makeAndModel), ("uuid", uuid),
            ("adminurl", adminURL), ("representation", iconURL), ("pdl", formats.joined(separator: ",")),
            ("cs", colorSpaces.joined(separator: ",")), ("is", inputSources.joined(separator: ",")),
            ("duplex", duplex ? "T" : "F"), ("note", location),
        ]
    }
}
