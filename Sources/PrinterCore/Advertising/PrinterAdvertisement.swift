import IPP

/// What a printer advertises over DNS-SD, taken from its IPP attributes (never written by hand), in plain
/// values an advertiser turns into TXT keys (PWG 5100.14 section 4.2.2, Bonjour Printing 1.2.1 section 9).
public struct PrinterAdvertisement: Sendable, Equatable {
    public var name: String
    /// The resource path without its leading slash (`rp`).
    public var resourcePath: String
    public var makeAndModel: String
    public var location: String
    /// The model, for `product`.
    public var product: String
    public var documentFormats: [String]
    /// printer-uuid.
    public var uuid: String
    public var color: Bool
    public var duplex: Bool
    public var copies: Bool
    public var kinds: [String]
    /// The widest media width in hundredths of a millimetre.
    public var maximumMediaWidth: Int
    public var urfSupported: [String]
    /// The Mopria version the printer claims (its `mopria-certified` attribute), or nil.
    public var mopriaCertified: String?
    /// TLS and authentication (`TLS`, `air`, `_ipps._tcp`, and whether `_ipp._tcp` is advertised).
    public var security = PrinterSecurity()

    /// The subtypes of `_ipp._tcp`: `_print` when the printer takes PWG raster (an IPP Everywhere printer, PWG
    /// 5100.14 section 4.2.1; ChromeOS sets such a printer up by itself), `_universal` when it takes Apple Raster
    /// (AirPrint: iOS and macOS list only printers browsed with it). A printer with neither is still found as
    /// `_ipp._tcp`, as a real one would be.
    public var subtypes: [String] {
        let formats = Set(documentFormats.map { $0.lowercased() })
        return (formats.contains("image/pwg-raster") ? ["_print"] : [])
            + (formats.contains("image/urf") ? ["_universal"] : [])
    }
}

extension Printer {
    /// The advertisement derived from the printer's attributes.
    public var advertisement: PrinterAdvertisement {
        func strings(_ name: String) -> [String] { cache[name]?.values.compactMap(\.stringValue) ?? [] }
        let widths: [Int] = (cache["media-size-supported"]?.values ?? []).compactMap { size in
            guard case .collection(let members) = size else { return nil }
            switch members.first(where: { $0.name == "x-dimension" })?.value {
            case .integer(let width)?: return Int(width)
            case .rangeOfInteger(let range)?: return Int(range.upperBound)
            default: return nil
            }
        }
        let copiesMaximum: Int32 =
            if case .rangeOfInteger(let range)? = cache["copies-supported"]?.value { range.upperBound } else { 1 }
        let makeAndModel = cache["printer-make-and-model"]?.value?.stringValue ?? configuration.name
        let product = Self.model(fromDeviceID: cache["printer-device-id"]?.value?.stringValue) ?? makeAndModel
        return PrinterAdvertisement(
            name: dnsSDName, resourcePath: String(configuration.resourcePath.dropFirst()), makeAndModel: makeAndModel,
            location: cache["printer-location"]?.value?.stringValue ?? "", product: product,
            documentFormats: strings("document-format-supported"), uuid: configuration.uuid,
            color: cache["color-supported"]?.value?.booleanValue ?? false,
            duplex: strings("sides-supported").contains { $0.hasPrefix("two-sided") }, copies: copiesMaximum > 1,
            kinds: strings("printer-kind").isEmpty ? ["document"] : strings("printer-kind"),
            maximumMediaWidth: widths.max() ?? 21590, urfSupported: strings("urf-supported"),
            mopriaCertified: cache["mopria-certified"]?.value?.stringValue, security: configuration.security)
    }

    /// Records the name the advertiser ended up with after a collision (printer-dns-sd-name).
    public func setDNSSDName(_ name: String) {
        status.withLock { $0.dnsSDName = name == configuration.name ? nil : name }
    }

    /// The MDL field of a printer-device-id (IEEE 1284).
    static func model(fromDeviceID deviceID: String?) -> String? {
        guard let deviceID else { return nil }
        for field in deviceID.split(separator: ";") {
            let parts = field.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0] == "MDL" || parts[0] == "MODEL" { return String(parts[1]) }
        }
        return nil
    }
}
