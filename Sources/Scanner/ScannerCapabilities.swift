import PrintModel

/// What a scanner offers (eSCL ScannerCapabilities): its input sources and their largest areas, resolutions,
/// color modes and formats. Lengths are in three-hundredths of an inch, as eSCL counts them.
public struct ScannerCapabilities: Sendable, Equatable {
    /// The eSCL version the scanner speaks (pwg:Version).
    public static let version = "2.63"
    /// The smallest area any source scans, in three-hundredths of an inch (eSCL MinWidth, MinHeight).
    public static let minimumSide = 16

    /// The largest area one source scans.
    public struct Area: Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public var makeAndModel: String
    public var serialNumber: String
    /// The scanner's UUID (`urn:uuid:` left out), the same in its DNS-SD TXT record.
    public var uuid: String
    /// The glass; nil when the scanner has none (a sheet-fed scanner).
    public var platen: Area?
    /// The automatic document feeder; nil when the scanner has none.
    public var feeder: Area?
    /// Whether the feeder scans both sides of a sheet in one pass.
    public var duplex: Bool
    /// The sheets the feeder holds.
    public var feederCapacity: Int
    /// Dots per inch offered, the same across and down, ascending.
    public var resolutions: [Int]
    public var colorModes: [ScanPage.ColorMode]
    public var formats: [ScanPage.Format]

    public init(
        makeAndModel: String, serialNumber: String, uuid: String, platen: Area?, feeder: Area?, duplex: Bool,
        feederCapacity: Int, resolutions: [Int], colorModes: [ScanPage.ColorMode], formats: [ScanPage.Format]
    ) {
        self.makeAndModel = makeAndModel
        self.serialNumber = serialNumber
        self.uuid = uuid
        self.platen = platen
        self.feeder = feeder
        self.duplex = duplex
        self.feederCapacity = feederCapacity
        self.resolutions = resolutions.sorted()
        self.colorModes = colorModes
        self.formats = formats
    }

    /// The largest area of `source`; nil when the scanner lacks it.
    public func area(of source: ScanSettings.Source) -> Area? {
        switch source {
        case .platen: platen
        case .feeder: feeder
        }
    }
}
