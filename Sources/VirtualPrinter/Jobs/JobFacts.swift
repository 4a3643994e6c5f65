/// What a printed side shows, measured by the render worker while it had the pixels (docs/job-record.md).
public struct ImpressionFacts: Sendable, Hashable, Codable {
    /// No pixel carries visible ink.
    public var blank: Bool
    /// Ink laid per channel in percent: `cyan`, `magenta`, `yellow`, `black` (black only for gray sides).
    public var inkCoverage: [String: Double]
    /// At least one colored pixel was printed.
    public var hasColor: Bool
    /// A page drew into the margins, where the printer cut it.
    public var outsidePrintableArea: Bool

    public init(blank: Bool, inkCoverage: [String: Double], hasColor: Bool, outsidePrintableArea: Bool) {
        self.blank = blank
        self.inkCoverage = inkCoverage
        self.hasColor = hasColor
        self.outsidePrintableArea = outsidePrintableArea
    }

    enum CodingKeys: String, CodingKey {
        case blank, inkCoverage = "ink-coverage", hasColor = "has-color"
        case outsidePrintableArea = "outside-printable-area"
    }
}

/// Something wrong with a job that still printed (docs/job-record.md `warnings`).
public struct JobWarning: Sendable, Hashable, Codable {
    /// `pdf`, `raster-page-size`, `raster-duplex`, `document-format`.
    public var kind: String
    /// The document it concerns, when one.
    public var document: Int?
    /// The page of that document, when one.
    public var page: Int?
    /// What is wrong, for a person.
    public var message: String

    public init(kind: String, document: Int? = nil, page: Int? = nil, message: String) {
        self.kind = kind
        self.document = document
        self.page = page
        self.message = message
    }
}

/// An attribute of the job request that the printer ignored or replaced, as the client was told in the response's
/// unsupported-attributes group (RFC 8011 section 4.1.7; docs/job-record.md `ignored-attributes`).
public struct IgnoredAttribute: Sendable, Hashable, Codable {
    /// The attribute's name.
    public var name: String
    /// `operation` or `job`: the group it was sent in.
    public var group: String
    /// The value the client sent, in the job record's JSON mapping.
    public var sent: JSONValue
    /// The printer's default (`<name>-default`) printed instead, when it has one.
    public var used: JSONValue?
    /// `unsupported-attribute` (the printer has no such attribute), `unsupported-value` (not among
    /// `<name>-supported`) or `repeated` (only the first occurrence counts).
    public var reason: String
    /// The reason in words.
    public var message: String

    public init(name: String, group: String, sent: JSONValue, used: JSONValue?, reason: String, message: String) {
        self.name = name
        self.group = group
        self.sent = sent
        self.used = used
        self.reason = reason
        self.message = message
    }
}

/// The values a job printed with, the client's or the printer's defaults (PWG 5100.8 `-actual` attributes).
public struct ActualSettings: Sendable, Equatable {
    /// The media the sheets have: a PWG self-describing name (`iso_a4_210x297mm`).
    public var media: String
    /// The sides keyword.
    public var sides: String
    /// The print-color-mode keyword.
    public var printColorMode: String

    public init(media: String, sides: String, printColorMode: String) {
        self.media = media
        self.sides = sides
        self.printColorMode = printColorMode
    }
}
