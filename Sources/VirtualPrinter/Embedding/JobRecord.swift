import Foundation

/// A job's record, typed: the same fields as `job.json` and `GET /api/v1/jobs/<id>` (docs/job-record.md).
///
/// Decode it from either with `JSONDecoder`; `EmbeddedPrinter` hands these out directly.
public struct JobRecord: Sendable, Hashable, Codable {
    /// The record format's version; 1 for records described by docs/job-record.md.
    public var schema: Int
    public var printerName: String
    public var jobID: Int
    public var jobUUID: String
    public var jobName: String
    public var jobOriginatingUserName: String
    public var jobPrinterURI: String
    /// A job-state keyword (RFC 8011 section 5.3.7): pending, pending-held, processing, processing-stopped,
    /// canceled, aborted or completed.
    public var jobState: String
    public var jobStateReasons: [String]
    public var jobStateMessage: String
    /// The job template attributes the client sent, after validation, in IPP's own names.
    public var attributes: [String: JSONValue]
    public var documents: [Document]
    public var impressions: [Impression]
    /// Sheets of one copy.
    public var sheets: Int
    public var copies: Int
    public var jobImpressions: Int
    public var jobMediaSheets: Int
    public var jobPages: Int
    public var times: Times
    public var history: [HistoryEntry]
    public var client: Client
    /// What the printer ignored or replaced of the request, and why (empty in records of older versions).
    public var ignoredAttributes: [IgnoredAttribute]?
    /// Problems with the documents that still printed.
    public var warnings: [JobWarning]?
    /// The media the job printed on, a PWG self-describing name.
    public var mediaActual: String?
    /// The sides the job printed with.
    public var sidesActual: String?
    /// The print-color-mode the job printed with.
    public var printColorModeActual: String?

    /// True once the job has ended: completed, canceled or aborted.
    public var hasEnded: Bool { ["completed", "canceled", "aborted"].contains(jobState) }

    /// One document as received.
    public struct Document: Sendable, Hashable, Codable {
        public var documentNumber: Int
        public var documentName: String?
        /// The document-format the client declared.
        public var documentFormat: String
        /// The format found in the data; nil when it was not recognised.
        public var documentFormatDetected: String?
        public var compression: String
        /// Bytes stored (after decompression).
        public var size: Int
        public var sha256: String
        /// The file name inside the job's folder.
        public var file: String
        public var pages: Int?
        /// "canceled" for a document canceled with Cancel-Document; absent otherwise.
        public var documentState: String?

        enum CodingKeys: String, CodingKey {
            case documentNumber = "document-number", documentName = "document-name"
            case documentFormat = "document-format", documentFormatDetected = "document-format-detected"
            case compression, size, sha256, file, pages, documentState = "document-state"
        }
    }

    /// One printed side of a sheet, rendered to a PNG in the job's folder.
    public struct Impression: Sendable, Hashable, Codable {
        public var number: Int
        public var file: String
        public var sheet: Int
        /// "front" or "back".
        public var side: String
        public var width: Int
        public var height: Int
        public var dpi: Int
        public var color: Bool
        /// The document pages placed on this side.
        public var pages: [PlacedPage]?
        /// No pixel carries visible ink.
        public var blank: Bool?
        /// Ink per channel in percent (`cyan`, `magenta`, `yellow`, `black`; black only for gray sides).
        public var inkCoverage: [String: Double]?
        /// At least one colored pixel was printed.
        public var hasColor: Bool?
        /// A page drew into the margins, where the printer cut it.
        public var outsidePrintableArea: Bool?
        /// `pdf` or `ocr`: how the side's text is obtained.
        public var textSource: String?

        enum CodingKeys: String, CodingKey {
            case number, file, sheet, side, width, height, dpi, color, pages, blank
            case inkCoverage = "ink-coverage", hasColor = "has-color"
            case outsidePrintableArea = "outside-printable-area", textSource = "text-source"
        }
    }

    /// A document page placed on an impression.
    public struct PlacedPage: Sendable, Hashable, Codable {
        public var document: Int
        public var page: Int
    }

    /// When the job was created, started processing and ended (ISO 8601, UTC).
    public struct Times: Sendable, Hashable, Codable {
        public var created: String
        public var processing: String?
        public var completed: String?
    }

    /// One state the job passed through.
    public struct HistoryEntry: Sendable, Hashable, Codable {
        public var time: String
        public var jobState: String
        public var jobStateReasons: [String]

        enum CodingKeys: String, CodingKey {
            case time, jobState = "job-state", jobStateReasons = "job-state-reasons"
        }
    }

    /// The client that submitted the job.
    public struct Client: Sendable, Hashable, Codable {
        public var address: String
        public var userAgent: String?

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
        case ignoredAttributes = "ignored-attributes", warnings, mediaActual = "media-actual"
        case sidesActual = "sides-actual", printColorModeActual = "print-color-mode-actual"
    }
}

extension JobRecord {
    /// The record of a job as the printer holds it now.
    init(_ job: Job) throws(EmbeddedPrinterError) {
        do {
            let data = try JSONSerialization.data(withJSONObject: JobRecorder.record(of: job))
            self = try JSONDecoder().decode(JobRecord.self, from: data)
        } catch {
            throw .unreadableRecord(jobID: job.id, reason: "\(error)")
        }
    }
}
