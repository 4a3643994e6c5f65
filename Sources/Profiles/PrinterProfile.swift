import IPP

/// A printer described at a high level: what it is, what it prints on, what it accepts.
///
/// Profiles are JSON files (docs/profiles.md states the format field by field); `load(nameOrPath:searchDirectories:)`
/// reads one, and `printerAttributes(context:)` derives every static IPP printer attribute from it. Decoding checks
/// everything a printer could trip over later: unknown keys, PWG media names, defaults that are not supported,
/// empty lists. Optional keys get the defaults documented on each property.
public struct PrinterProfile: Sendable {
    /// The profile id, e.g. `duplex-laser`; shipped profiles are named after their file.
    public var name: String
    /// Manufacturer, as in `printer-device-id` `MFG:` (no `;`).
    public var make: String
    /// Model, as in `printer-device-id` `MDL:` (no `;`).
    public var model: String
    /// `printer-make-and-model`; default `make + " " + model`. At most 127 characters.
    public var makeAndModel: String
    /// `printer-info`; nil means the printer's name. At most 127 characters.
    public var info: String?
    /// `printer-location`; default empty. At most 127 characters.
    public var location: String
    /// `printer-organization`; default empty.
    public var organization: String
    /// `printer-organizational-unit`; default empty.
    public var organizationalUnit: String
    /// `printer-geo-location` as a `geo:` URI (RFC 5870); nil reports the out-of-band value unknown.
    public var geoLocation: String?
    /// Whether the printer prints in color (`color-supported`, `print-color-mode`, raster types).
    public var color: Bool
    /// Whether the printer prints both sides (`sides-supported`, `urf-supported` DM).
    public var duplex: Bool
    /// `pwg-raster-document-sheet-back`: normal, flipped, rotated or manual-tumble; default normal.
    public var sheetBack: String
    /// `sides-default`; default one-sided.
    public var sidesDefault: String
    /// Media sizes the printer supports, with optional margins and borderless flag. Never empty.
    public var media: [ProfileMedia]
    /// `media-default`: one of `media`.
    public var mediaDefault: MediaSize
    /// `media-source-supported` keywords; default `["main"]`.
    public var mediaSources: [String]
    /// The source of `media-col-default`; default the first source.
    public var mediaSourceDefault: String
    /// `media-type-supported` keywords; default `["stationery"]`.
    public var mediaTypes: [String]
    /// The type of `media-col-default`; default the first type.
    public var mediaTypeDefault: String
    /// What is loaded in each source (`media-ready`, `media-col-ready`, `printer-input-tray`); default: each
    /// source but `auto` holds the default size and type.
    public var mediaReady: [ProfileReadyMedia]
    /// Margins of sizes that state none, in hundredths of millimetres; default 423 (1/6 inch) on every edge.
    public var margins: ProfileMargins
    /// Resolutions in dots per inch, same in both directions; never empty.
    public var resolutions: [Int32]
    /// `printer-resolution-default`; default the first resolution.
    public var resolutionDefault: Int32
    /// `document-format-supported` MIME types; application/octet-stream is always added.
    public var documentFormats: [String]
    /// `document-format-default`; default application/octet-stream.
    public var documentFormatDefault: String
    /// Upper bound of `copies-supported`; default 99.
    public var copiesMax: Int32
    /// `finishings-supported` keywords (IPPEnumNames names); `none` is always included.
    public var finishings: [String]
    /// `output-bin-supported` keywords; default `["face-down"]`.
    public var outputBins: [String]
    /// `output-bin-default`; default the first bin.
    public var outputBinDefault: String
    /// `pages-per-minute` (monochrome speed).
    public var pagesPerMinute: Int32
    /// `pages-per-minute-color`; required exactly when `color` is true.
    public var pagesPerMinuteColor: Int32?
    /// Marker supplies (toner, ink) for `printer-supply` and `marker-*`; required, never empty (ipp-everywhere.test).
    public var supplies: [ProfileSupply]
    /// `printer-kind` keywords (PWG 5100.13); default `["document"]`.
    public var kind: [String]
    /// `print-quality-supported` keywords: draft, normal, high; default all three.
    public var printQualities: [String]
    /// `print-quality-default`; default normal.
    public var printQualityDefault: String
    /// `identify-actions-supported`: display, flash, sound, speak; default `["sound"]`.
    public var identifyActions: [String]
    /// `identify-actions-default`; default the first action.
    public var identifyActionDefault: String
    /// `multiple-document-jobs-supported`; default true.
    public var multipleDocumentJobs: Bool
    /// `number-up-supported`; default 1, 2, 4, 6, 9, 16.
    public var numberUp: [Int32]
    /// `printer-firmware-name`; default vprinter.
    public var firmwareName: String
    /// `printer-firmware-string-version`; default 1.0.
    public var firmwareVersion: String
    /// The serial number, `SN:` of `printer-device-id` (no `;`); nil (the default) leaves SN out.
    public var serialNumber: String?
    /// Raw IPP attributes that replace derived ones of the same name or add new ones; one with the single
    /// out-of-band value delete-attribute removes the derived attribute.
    public var attributes: [IPPAttribute]
    /// DNS-SD TXT keys set by hand, applied after the keys derived from the attributes (docs/dnssd.md): a value
    /// replaces the derived key's value (or adds the key), nil removes it. Sorted by key; empty by default.
    public var txt: [(key: String, value: String?)]
    /// Options present or absent and the PWG 5100.11 job features (ProfileFeatures).
    public var features: ProfileFeatures
}

/// Media margins in hundredths of millimetres (PWG 5100.7 `media-*-margin`).
public struct ProfileMargins: Hashable, Sendable {
    public var top: Int32
    public var bottom: Int32
    public var left: Int32
    public var right: Int32

    public init(top: Int32, bottom: Int32, left: Int32, right: Int32) {
        self.top = top
        self.bottom = bottom
        self.left = left
        self.right = right
    }

    /// No margins at all: the borderless variant of a size.
    public static let zero = Self(top: 0, bottom: 0, left: 0, right: 0)
}

/// One supported media size of a profile.
public struct ProfileMedia: Hashable, Sendable {
    /// The size, from its PWG self-describing name.
    public var size: MediaSize
    /// Its margins, or nil for the profile's default margins.
    public var margins: ProfileMargins?
    /// Whether it can also be printed without margins (adds a zero-margin `media-col-database` entry).
    public var borderless: Bool
}

/// The media loaded in one source.
public struct ProfileReadyMedia: Hashable, Sendable {
    /// A `media-source` keyword of the profile.
    public var source: String
    /// A size of the profile's media.
    public var size: MediaSize
    /// A `media-type` keyword of the profile.
    public var type: String
}

/// A marker supply: a toner or ink (PWG 5100.13 `printer-supply`, RFC 3805 prtMarkerSuppliesTable).
public struct ProfileSupply: Hashable, Sendable {
    /// RFC 3805 PrtMarkerSuppliesTypeTC name, e.g. toner, inkCartridge, ink, wasteToner.
    public var type: String
    /// PWG colorant name, e.g. black, cyan, magenta, yellow; `none` for a waste receptacle.
    public var color: String
    /// Level in percent of capacity, 0-100.
    public var level: Int32
    /// `printer-supply-description`; default e.g. "Black Toner".
    public var description: String
    /// RFC 3805 class: supplyThatIsConsumed (default) or receptacleThatIsFilled.
    public var supplyClass: String
    /// `marker-low-levels` value in percent; default 10.
    public var lowLevel: Int32
    /// `marker-high-levels` value in percent; default 100.
    public var highLevel: Int32
}
