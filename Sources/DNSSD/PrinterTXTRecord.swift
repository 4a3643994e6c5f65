/// The TXT record of a printer's `_ipp._tcp` and `_ipps._tcp` services, built from plain values that the
/// printer takes from its IPP attributes.
///
/// Keys and their order follow the Bonjour Printing Specification 1.2.1 section 9, the IPP Everywhere
/// specification (PWG 5100.14 section 4.2.2) and AirPrint: `txtvers` first, then `qtotal`, `rp`, `ty`,
/// `adminurl`, `note`, `priority`, `product`, `pdl`, `UUID`, `TLS` (only with TLS), `Color`, `Duplex`,
/// `Copies`, `kind`, `PaperMax`, `URF`, `air`, `mopria-certified` (when given), `print_wfds`.
/// ``overrides`` then replace or remove any key but `txtvers`, or add new ones at the end.
public struct PrinterTXTRecord: Sendable, Equatable {
    /// IPP resource path without the leading slash (`rp`), for example `ipp/print`.
    public var resourcePath: String
    /// printer-make-and-model (`ty`).
    public var makeAndModel: String
    /// printer-more-info, an http or https URL (`adminurl`).
    public var adminURL: String
    /// printer-location (`note`).
    public var location: String
    /// Queue priority 0 (highest) to 99 (`priority`); Bonjour's default is 50.
    public var priority: Int
    /// The model name; advertised in parentheses as `product`, for example `(Color Inkjet)`.
    public var product: String
    /// document-format-supported; `application/octet-stream` is left out of `pdl`.
    public var documentFormats: [String]
    /// printer-uuid, with or without its `urn:uuid:` prefix (`UUID` carries it without).
    public var uuid: String
    /// The TLS version offered (`TLS`, for example `1.2`), or nil when the printer has no TLS.
    public var tlsVersion: String?
    /// color-supported (`Color`).
    public var color: Bool
    /// sides-supported has a two-sided value (`Duplex`).
    public var duplex: Bool
    /// copies-supported allows more than one copy (`Copies`).
    public var copies: Bool
    /// printer-kind values, for example `document,envelope,photo` (`kind`).
    public var kinds: [String]
    /// The widest media-size-supported x-dimension in hundredths of a millimetre (`PaperMax`).
    public var maximumMediaWidth: Int
    /// urf-supported keywords (`URF`); an empty list is advertised as `none`.
    public var urfSupported: [String]
    /// The authentication AirPrint clients must offer (`air`): nil for `none`, or for example
    /// `["username", "password"]`.
    public var authentication: [String]?
    /// mopria-certified, for example `1.3`, or nil to leave the key out.
    public var mopriaCertified: String?
    /// Wi-Fi Direct Print Services (`print_wfds`): `T` as real printers say; `F` is an opt-out that makes
    /// Android's built-in print service ignore the printer (AOSP BuiltInPrintService `MdnsDiscovery.java`).
    public var printWFDS: Bool
    /// Keys a profile sets by hand, applied last: a value replaces the key's value in place (or adds the key
    /// at the end), nil removes the key. `txtvers` cannot be overridden.
    public var overrides: [(key: String, value: String?)]

    /// Creates a record; the defaults are those of a minimal IPP Everywhere printer.
    public init(
        resourcePath: String = "ipp/print", makeAndModel: String, adminURL: String, location: String = "",
        priority: Int = 50, product: String, documentFormats: [String], uuid: String, tlsVersion: String? = nil,
        color: Bool, duplex: Bool, copies: Bool = true, kinds: [String] = ["document"],
        maximumMediaWidth: Int, urfSupported: [String], authentication: [String]? = nil,
        mopriaCertified: String? = nil, printWFDS: Bool = true, overrides: [(key: String, value: String?)] = []
    ) {
        self.resourcePath = resourcePath
        self.makeAndModel = makeAndModel
        self.adminURL = adminURL
        self.location = location
        self.priority = priority
        self.product = product
        self.documentFormats = documentFormats
        self.uuid = uuid
        self.tlsVersion = tlsVersion
        self.color = color
        self.duplex = duplex
        self.copies = copies
        self.kinds = kinds
        self.maximumMediaWidth = maximumMediaWidth
        self.urfSupported = urfSupported
        self.authentication = authentication
        self.mopriaCertified = mopriaCertified
        self.printWFDS = printWFDS
        self.overrides = overrides
    }

    /// The key/value pairs in wire order, `txtvers` first, ready for ``DNSSDService/ipp(port:txt:)``.
    public var entries: [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = [
            ("txtvers", "1"),
            ("qtotal", "1"),
            ("rp", resourcePath.hasPrefix("/") ? String(resourcePath.dropFirst()) : resourcePath),
            ("ty", makeAndModel),
            ("adminurl", adminURL),
            ("note", location),
            ("priority", String(min(max(priority, 0), 99))),
            ("product", "(\(product))"),
            ("pdl", documentFormats.filter { $0 != "application/octet-stream" }.joined(separator: ",")),
            ("UUID", Self.bareUUID(uuid)),
        ]
        if let tlsVersion {
            entries.append(("TLS", tlsVersion))
        }
        entries += [
            ("Color", Self.flag(color)),
            ("Duplex", Self.flag(duplex)),
            ("Copies", Self.flag(copies)),
            ("kind", kinds.joined(separator: ",")),
            ("PaperMax", Self.paperMax(forWidth: maximumMediaWidth)),
            ("URF", urfSupported.isEmpty ? "none" : urfSupported.joined(separator: ",")),
            ("air", authentication.map { $0.joined(separator: ",") } ?? "none"),
        ]
        if let mopriaCertified {
            entries.append(("mopria-certified", mopriaCertified))
        }
        entries.append(("print_wfds", Self.flag(printWFDS)))
        return Self.applying(overrides, to: entries)
    }

    /// The `PaperMax` class of a printer whose widest medium is `width` hundredths of a millimetre wide.
    ///
    /// Bonjour Printing Specification 1.2.1 section 9.2.17: below A4 width `<legal-A4`, below A3 width
    /// (29700) `legal-A4`, below A2 width (42000) `tabloid-A3`, below A1 width (59400) `isoC-A2`, else
    /// `>isoC-A2`.
    public static func paperMax(forWidth width: Int) -> String {
        switch width {
        case ..<21000: "<legal-A4"
        case ..<29700: "legal-A4"
        case ..<42000: "tabloid-A3"
        case ..<59400: "isoC-A2"
        default: ">isoC-A2"
        }
    }

    /// `T` or `F`, the Bonjour printing booleans.
    static func flag(_ value: Bool) -> String {
        value ? "T" : "F"
    }

    /// The UUID without a `urn:uuid:` prefix (any letter case of the prefix).
    static func bareUUID(_ uuid: String) -> String {
        let prefix = "urn:uuid:"
        return uuid.lowercased().hasPrefix(prefix) ? String(uuid.dropFirst(prefix.count)) : uuid
    }

    /// Applies profile overrides: replace in place, remove for nil, append new keys; keys compare without
    /// letter case (RFC 6763 section 6.4) and `txtvers` stays as it is.
    static func applying(
        _ overrides: [(key: String, value: String?)], to entries: [(key: String, value: String)]
    ) -> [(key: String, value: String)] {
        var result = entries
        for (key, value) in overrides where key.lowercased() != "txtvers" {
            let index = result.firstIndex { $0.key.lowercased() == key.lowercased() }
            switch (index, value) {
            case (let index?, let value?): result[index].value = value
            case (let index?, nil): result.remove(at: index)
            case (nil, let value?): result.append((key, value))
            case (nil, nil): break
            }
        }
        return result
    }

    public static func == (lhs: PrinterTXTRecord, rhs: PrinterTXTRecord) -> Bool {
        let lhsEntries = lhs.entries
        let rhsEntries = rhs.entries
        return lhsEntries.count == rhsEntries.count
            && zip(lhsEntries, rhsEntries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
