import Foundation

/// A job's record: `job.json` in the job's folder and the answer of `GET /api/v1/jobs/<id>` (docs/job-record.md,
/// schema docs/job-record.schema.json). The one type that reads and writes it: the printer writes it with
/// ``encoded()`` on every change of the job and reads it back with ``decode(_:)`` after a restart; `vprinter jobs`,
/// the web page and the Swift library read the same type.
public struct JobRecord: Sendable, Hashable, Codable {
    /// The record format's version this type writes.
    public static let currentSchema = 1

    /// The record format's version; 1 for records described by docs/job-record.md.
    public var schema: Int
    public var printerName: String
    public var jobID: Int
    public var jobUUID: String
    public var jobName: String
    public var jobOriginatingUserName: String
    public var jobPrinterURI: String
    /// The job's state (RFC 8011 section 5.3.7), written as its keyword.
    public var jobState: JobState
    public var jobStateReasons: [String]
    public var jobStateMessage: String
    /// The job template attributes the client sent, after validation, in IPP's own names.
    public var attributes: [String: JSONValue]
    public var documents: [Document]
    public var impressions: [PrintedSide]
    /// Sheets of one copy.
    public var sheets: Int
    public var copies: Int
    public var jobImpressions: Int
    public var jobMediaSheets: Int
    public var jobPages: Int
    public var times: Times
    public var history: [HistoryEntry]
    public var client: Client
    /// The IPP operation that created the job (`Print-Job`, `Create-Job`, ...); nil in older records.
    public var creationOperation: String?
    /// What the printer ignored or replaced of the request, and why (empty in records of older versions).
    public var ignoredAttributes: [IgnoredAttribute]
    /// Problems with the documents that still printed.
    public var warnings: [JobWarning]
    /// The media the job printed on, a PWG self-describing name.
    public var mediaActual: String?
    /// The sides the job printed with.
    public var sidesActual: String?
    /// The print-color-mode the job printed with.
    public var printColorModeActual: String?

    /// True once the job has ended: completed, canceled or aborted.
    public var hasEnded: Bool { jobState.isTerminal }

    public init(
        printerName: String, jobID: Int, jobUUID: String, jobName: String, jobOriginatingUserName: String,
        jobPrinterURI: String, jobState: JobState, jobStateReasons: [String], jobStateMessage: String,
        attributes: [String: JSONValue], documents: [Document], impressions: [PrintedSide], sheets: Int, copies: Int,
        jobImpressions: Int, jobMediaSheets: Int, jobPages: Int, times: Times, history: [HistoryEntry],
        client: Client, creationOperation: String? = nil, ignoredAttributes: [IgnoredAttribute] = [],
        warnings: [JobWarning] = [], mediaActual: String? = nil, sidesActual: String? = nil,
        printColorModeActual: String? = nil
    ) {
        schema = Self.currentSchema
        self.printerName = printerName
        self.jobID = jobID
        self.jobUUID = jobUUID
        self.jobName = jobName
        self.jobOriginatingUserName = jobOriginatingUserName
        self.jobPrinterURI = jobPrinterURI
        self.jobState = jobState
        self.jobStateReasons = jobStateReasons
        self.jobStateMessage = jobStateMessage
        self.attributes = attributes
        self.documents = documents
        self.impressions = impressions
        self.sheets = sheets
        self.copies = copies
        self.jobImpressions = jobImpressions
        self.jobMediaSheets = jobMediaSheets
        self.jobPages = jobPages
        self.times = times
        self.history = history
        self.client = client
        self.creationOperation = creationOperation
        self.ignoredAttributes = ignoredAttributes
        self.warnings = warnings
        self.mediaActual = mediaActual
        self.sidesActual = sidesActual
        self.printColorModeActual = printColorModeActual
    }

    /// When the job was created, started processing and ended (ISO 8601, UTC).
    public struct Times: Sendable, Hashable, Codable {
        public var created: String
        public var processing: String?
        public var completed: String?

        public init(created: String, processing: String? = nil, completed: String? = nil) {
            self.created = created
            self.processing = processing
            self.completed = completed
        }
    }

    /// One state the job passed through.
    public struct HistoryEntry: Sendable, Hashable, Codable {
        /// When, ISO 8601 UTC.
        public var time: String
        public var jobState: JobState
        public var jobStateReasons: [String]
        /// The job-state-message the job took with this state; nil in records of older versions.
        public var jobStateMessage: String?

        public init(time: String, jobState: JobState, jobStateReasons: [String], jobStateMessage: String? = nil) {
            self.time = time
            self.jobState = jobState
            self.jobStateReasons = jobStateReasons
            self.jobStateMessage = jobStateMessage
        }

        enum CodingKeys: String, CodingKey {
            case time, jobState = "job-state", jobStateReasons = "job-state-reasons"
            case jobStateMessage = "job-state-message"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            time = try c.decode(String.self, forKey: .time)
            jobState = try c.decode(JobState.self, forKey: .jobState)
            jobStateReasons = try c.decodeIfPresent([String].self, forKey: .jobStateReasons) ?? []
            jobStateMessage = try c.decodeIfPresent(String.self, forKey: .jobStateMessage)
        }
    }

    /// The client that submitted the job.
    public struct Client: Sendable, Hashable, Codable {
        public var address: String
        public var userAgent: String?

        public init(address: String, userAgent: String? = nil) {
            self.address = address
            self.userAgent = userAgent
        }

        enum CodingKeys: String, CodingKey {
            case address, userAgent = "user-agent"
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema, printerName = "printer-name", jobID = "job-id", jobUUID = "job-uuid", jobName = "job-name"
        case jobOriginatingUserName = "job-originating-user-name", jobPrinterURI = "job-printer-uri"
        case jobState = "job-state", jobStateReasons = "job-state-reasons", jobStateMessage = "job-state-message"
        case attributes, documents, impressions, sheets, copies, jobImpressions = "job-impressions"
        case jobMediaSheets = "job-media-sheets", jobPages = "job-pages", times, history, client
        case creationOperation = "creation-operation"
        case ignoredAttributes = "ignored-attributes", warnings, mediaActual = "media-actual"
        case sidesActual = "sides-actual", printColorModeActual = "print-color-mode-actual"
    }

    /// Reads a record. Identity keys are required; the keys that later versions added, and counts, read as empty
    /// or zero when an older record lacks them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decode(Int.self, forKey: .schema)
        printerName = try c.decode(String.self, forKey: .printerName)
        jobID = try c.decode(Int.self, forKey: .jobID)
        jobUUID = try c.decode(String.self, forKey: .jobUUID)
        jobName = try c.decodeIfPresent(String.self, forKey: .jobName) ?? ""
        jobOriginatingUserName =
            try c.decodeIfPresent(String.self, forKey: .jobOriginatingUserName) ?? "anonymous"
        jobPrinterURI = try c.decodeIfPresent(String.self, forKey: .jobPrinterURI) ?? ""
        jobState = try c.decode(JobState.self, forKey: .jobState)
        jobStateReasons = try c.decodeIfPresent([String].self, forKey: .jobStateReasons) ?? []
        jobStateMessage = try c.decodeIfPresent(String.self, forKey: .jobStateMessage) ?? ""
        attributes = try c.decodeIfPresent([String: JSONValue].self, forKey: .attributes) ?? [:]
        documents = try c.decodeIfPresent([Document].self, forKey: .documents) ?? []
        impressions = try c.decodeIfPresent([PrintedSide].self, forKey: .impressions) ?? []
        sheets = try c.decodeIfPresent(Int.self, forKey: .sheets) ?? 0
        copies = try c.decodeIfPresent(Int.self, forKey: .copies) ?? 1
        jobImpressions = try c.decodeIfPresent(Int.self, forKey: .jobImpressions) ?? 0
        jobMediaSheets = try c.decodeIfPresent(Int.self, forKey: .jobMediaSheets) ?? 0
        jobPages = try c.decodeIfPresent(Int.self, forKey: .jobPages) ?? 0
        times = try c.decodeIfPresent(Times.self, forKey: .times) ?? Times(created: "")
        history = try c.decodeIfPresent([HistoryEntry].self, forKey: .history) ?? []
        client = try c.decodeIfPresent(Client.self, forKey: .client) ?? Client(address: "")
        creationOperation = try c.decodeIfPresent(String.self, forKey: .creationOperation)
        ignoredAttributes = try c.decodeIfPresent([IgnoredAttribute].self, forKey: .ignoredAttributes) ?? []
        warnings = try c.decodeIfPresent([JobWarning].self, forKey: .warnings) ?? []
        mediaActual = try c.decodeIfPresent(String.self, forKey: .mediaActual)
        sidesActual = try c.decodeIfPresent(String.self, forKey: .sidesActual)
        printColorModeActual = try c.decodeIfPresent(String.self, forKey: .printColorModeActual)
    }
}

extension JobRecord {
    /// Why bytes are not a job record.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The record's JSON text, as `job.json` holds it and the API answers with it.
    public func encoded() throws -> [UInt8] {
        try RecordJSONWriter.encode(JSONValueEncoder.encode(self))
    }

    /// One decoder for every record (it is Sendable and keeps no state between calls): start-up reads thousands of
    /// records on several threads at once.
    private static let decoder = JSONDecoder()

    /// Reads a record from its JSON text; throws when the text is no record of a schema this version reads.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ReadError) -> JobRecord {
        try decode(bytes as? Data ?? Data(bytes))
    }

    /// Reads a record from its JSON text as read from `job.json`.
    public static func decode(_ data: Data) throws(ReadError) -> JobRecord {
        let record: JobRecord
        do {
            record = try decoder.decode(JobRecord.self, from: data)
        } catch {
            throw ReadError(description: "not a job record: \(error)")
        }
        guard record.schema == currentSchema else {
            throw ReadError(description: "schema \(record.schema) is not \(currentSchema)")
        }
        return record
    }
}
