/// What a test can check about a printed side without looking at its pixels.
public struct SideFacts: Sendable, Hashable, Codable {
    /// True when no pixel carries visible ink (ImageCheck's `InkTally.markThreshold`).
    public var blank: Bool
    /// Ink laid per channel, in percent of the side fully covered by that channel.
    public var inkCoverage: InkCoverage
    /// True when at least one pixel has a hue (ImageCheck's `InkTally.chromaThreshold`); always false for gray sides.
    public var hasColor: Bool
    /// True when the pages drew ink into the margins (outside the printable area), where the printer cut it.
    public var outsidePrintableArea: Bool

    public init(blank: Bool, inkCoverage: InkCoverage, hasColor: Bool, outsidePrintableArea: Bool) {
        self.blank = blank
        self.inkCoverage = inkCoverage
        self.hasColor = hasColor
        self.outsidePrintableArea = outsidePrintableArea
    }

    enum CodingKeys: String, CodingKey {
        case blank, inkCoverage = "ink-coverage", hasColor = "has-color"
        case outsidePrintableArea = "outside-printable-area"
    }

    /// Records of older versions may lack `has-color` and `outside-printable-area`: both read as false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        blank = try c.decode(Bool.self, forKey: .blank)
        inkCoverage = try c.decode(InkCoverage.self, forKey: .inkCoverage)
        hasColor = try c.decodeIfPresent(Bool.self, forKey: .hasColor) ?? false
        outsidePrintableArea = try c.decodeIfPresent(Bool.self, forKey: .outsidePrintableArea) ?? false
    }
}

/// Ink coverage of a side in percent, per channel. Gray sides have black only.
///
/// Colors are separated as a printer without a color profile does: full gray component replacement, so that
/// black (and gray) is laid with black ink only: K = 255 - max(R, G, B), C = max - R, M = max - G, Y = max - B.
public struct InkCoverage: Sendable, Hashable, Codable {
    public var cyan: Double?
    public var magenta: Double?
    public var yellow: Double?
    public var black: Double

    public init(cyan: Double? = nil, magenta: Double? = nil, yellow: Double? = nil, black: Double) {
        self.cyan = cyan
        self.magenta = magenta
        self.yellow = yellow
        self.black = black
    }

    /// The channels present, by name (`cyan`, `magenta`, `yellow`, `black`).
    public var channels: [(name: String, percent: Double)] {
        var result: [(String, Double)] = []
        if let cyan { result.append(("cyan", cyan)) }
        if let magenta { result.append(("magenta", magenta)) }
        if let yellow { result.append(("yellow", yellow)) }
        result.append(("black", black))
        return result
    }
}
