import Foundation

/// One line the render worker writes on stdout (docs/render-protocol.md): a JSON object whose `type` says which.
/// Every run ends with one ``status`` line.
public enum WorkerMessage: Sendable, Equatable {
    /// A side was written (render).
    case impression(PrintedSide)
    /// A problem with a document that still prints (render).
    case warning(JobWarning)
    /// A side's text was read, or could not be (recognize-text).
    case text(SideText)
    /// A scanned image was written (scan-page).
    case scanned(ScannedImage)
    /// The run's end.
    case status(WorkerStatus)

    /// The outcome of reading one side's text.
    public struct SideText: Sendable, Equatable, Codable {
        public var number: Int
        /// The text file written (`page-0001.txt`), or nil when the side could not be read.
        public var file: String?
        /// Characters recognized.
        public var characters: Int?
        /// Why the side could not be read.
        public var error: String?

        public init(number: Int, file: String?, characters: Int?, error: String?) {
            self.number = number
            self.file = file
            self.characters = characters
            self.error = error
        }
    }
}

/// The last line of a worker run.
public struct WorkerStatus: Sendable, Equatable, Codable {
    /// How the run ended.
    public enum Outcome: String, Sendable, Codable {
        case ok
        case error
    }

    /// The pages and detected format of one rendered document.
    public struct Document: Sendable, Equatable, Codable {
        public var pages: Int
        public var format: DocumentFormat

        public init(pages: Int, format: DocumentFormat) {
            self.pages = pages
            self.format = format
        }
    }

    public var protocolVersion = RenderRequest.protocolVersion
    public var status: Outcome
    /// A job-state-reasons keyword (`document-format-error`), for an error.
    public var reason: String?
    /// What went wrong, for a person, for an error.
    public var message: String?
    /// Counts of a render (RFC 8011 job-impressions, job-media-sheets, job-pages).
    public var impressions: Int?
    public var sheets: Int?
    public var pages: Int?
    public var copies: Int?
    public var jobImpressions: Int?
    public var jobMediaSheets: Int?
    public var jobPages: Int?
    /// Each rendered document.
    public var documents: [Document]?
    /// Sides read (recognize-text).
    public var sides: Int?

    public init(
        status: Outcome, reason: String? = nil, message: String? = nil, impressions: Int? = nil, sheets: Int? = nil,
        pages: Int? = nil, copies: Int? = nil, jobImpressions: Int? = nil, jobMediaSheets: Int? = nil,
        jobPages: Int? = nil, documents: [Document]? = nil, sides: Int? = nil
    ) {
        self.status = status
        self.reason = reason
        self.message = message
        self.impressions = impressions
        self.sheets = sheets
        self.pages = pages
        self.copies = copies
        self.jobImpressions = jobImpressions
        self.jobMediaSheets = jobMediaSheets
        self.jobPages = jobPages
        self.documents = documents
        self.sides = sides
    }

    /// A failed run.
    public static func error(reason: String, message: String) -> WorkerStatus {
        WorkerStatus(status: .error, reason: reason, message: message)
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case status, reason, message, impressions, sheets, pages, copies
        case jobImpressions = "job-impressions", jobMediaSheets = "job-media-sheets", jobPages = "job-pages"
        case documents, sides
    }
}

extension WorkerMessage: Codable {
    enum Kind: String, Codable {
        case impression, warning, text, scanned, status
    }

    enum TypeKey: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: TypeKey.self).decode(Kind.self, forKey: .type)
        switch kind {
        case .impression: self = .impression(try PrintedSide(from: decoder))
        case .warning: self = .warning(try JobWarning(from: decoder))
        case .text: self = .text(try SideText(from: decoder))
        case .scanned: self = .scanned(try ScannedImage(from: decoder))
        case .status: self = .status(try WorkerStatus(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: TypeKey.self)
        switch self {
        case .impression(let side):
            try c.encode(Kind.impression, forKey: .type)
            try side.encode(to: encoder)
        case .warning(let warning):
            try c.encode(Kind.warning, forKey: .type)
            try warning.encode(to: encoder)
        case .text(let text):
            try c.encode(Kind.text, forKey: .type)
            try text.encode(to: encoder)
        case .scanned(let image):
            try c.encode(Kind.scanned, forKey: .type)
            try image.encode(to: encoder)
        case .status(let status):
            try c.encode(Kind.status, forKey: .type)
            try status.encode(to: encoder)
        }
    }

    /// The message as one line of JSON text, without the newline.
    public func line() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    /// Reads one line of the worker's output.
    public static func parse(_ line: some Collection<UInt8>) throws -> WorkerMessage {
        try JSONDecoder().decode(WorkerMessage.self, from: Data(line))
    }
}
