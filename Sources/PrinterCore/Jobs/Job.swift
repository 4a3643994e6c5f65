import IPP
import PrintModel

/// One print job: what the client sent, where it stands, and what was recorded.
///
/// Jobs are values kept by their printer under its lock; state changes go through `apply(_:at:)`.
public struct Job: Sendable {
    public let id: Int
    public let uuid: String
    public let printerName: String
    /// The printer-uri the client used, returned as job-printer-uri.
    public let printerURI: String
    public var name: String
    public let user: String
    /// The job template attributes the client sent, after validation.
    public var templateAttributes: [IPPAttribute]
    public var documents: [DocumentRecord] = []
    public var impressions: [PrintedSide] = []
    /// Impressions and sheets the simulated device has printed (job-impressions-completed, -media-sheets-completed).
    public var impressionsCompleted = 0
    public var sheetsCompleted = 0
    public var state: JobState = .pending
    public var reasons: [String] = ["job-incoming"]
    public var message: String = "Waiting for documents."
    /// True while the job accepts Send-Document (Create-Job until last-document or Close-Job).
    public var isReceiving = true
    public let timeCreated: Double
    public var timeProcessing: Double?
    public var timeCompleted: Double?
    /// When the job last received a document operation, for multiple-operation-time-out.
    public var lastActivity: Double
    /// The highest document number handed out (`Printer.nextDocumentNumber`), so that two Send-Document or Send-URI
    /// requests arriving at once never write the same document file; not recorded.
    public var documentNumbersTaken = 0
    public var history: [JobHistoryEntry] = []
    public let client: ClientInfo
    /// job-hold-until when it holds the job (anything but no-hold).
    public var holdUntil: String?
    /// The job-state-reasons keyword a held job shows (default job-hold-until-specified).
    public var holdReason: String?
    /// True when the job is held because the printer holds new jobs (Hold-New-Jobs).
    public var heldForNewJobs = false
    /// The end of processing, kept while the job is suspended and applied by Resume-Job.
    public var outcomeWhileSuspended: JobEvent?
    /// The IPP operation that created the job (`Print-Job`, `Create-Job`, ...); nil in a record written before
    /// it was recorded.
    public var creationOperation: String?
    /// True for a suspended job taken over from an earlier run: no render goes on behind it, so Resume-Job
    /// queues it to be printed from the start. Not part of the record.
    public var renderInterrupted = false

    /// True when the job is to wait in pending-held once its documents are in.
    public var isHeld: Bool { holdUntil != nil || heldForNewJobs }

    /// The record as last written to job.json (the API answers with it); not part of the record.
    public var recordJSON: [UInt8]?

    /// document-password, kept for the renderer only: never recorded or returned.
    public var documentPassword: String?
    /// job-password (PWG 5100.11) as the client sent it (the PIN, or its digest), and how it was encrypted: the job
    /// waits in job-password-wait until the same PIN is entered at the printer. Never recorded or returned.
    public var jobPassword: [UInt8]?
    public var jobPasswordEncryption: String?
    /// The printer's up-time origin, for time-at-* values.
    public let printerStartTime: Double

    /// Attributes of the request the printer ignored or replaced (job-record `ignored-attributes`).
    public var ignoredAttributes: [IgnoredAttribute] = []
    /// Problems with the documents that still printed (job-record `warnings`).
    public var warnings: [JobWarning] = []
    /// The media, sides and color mode the job prints with (job-record `*-actual`).
    public var actual: ActualSettings?

    public init(
        id: Int, uuid: String, printerName: String, printerURI: String, name: String, user: String,
        templateAttributes: [IPPAttribute], client: ClientInfo, now: Double, printerStartTime: Double
    ) {
        self.id = id
        self.uuid = uuid
        self.printerName = printerName
        self.printerURI = printerURI
        self.name = name
        self.user = user
        self.templateAttributes = templateAttributes
        self.client = client
        self.timeCreated = now
        self.lastActivity = now
        self.printerStartTime = printerStartTime
        history = [JobHistoryEntry(time: now, state: .pending, reasons: ["job-incoming"], message: message)]
    }

    /// The value of a job template attribute the client sent.
    public func template(_ name: String) -> IPPAttribute? {
        templateAttributes.first { $0.name == name }
    }

    /// The number of copies asked for (1 when not given).
    public var copies: Int {
        Int(template("copies")?.value?.integerValue ?? 1)
    }
}

/// Who submitted a job, from the connection.
public struct ClientInfo: Sendable, Equatable {
    public var address: String
    public var userAgent: String?

    public init(address: String, userAgent: String?) {
        self.address = address
        self.userAgent = userAgent
    }
}

/// One state the job went through, for the record's history.
public struct JobHistoryEntry: Sendable, Equatable {
    public var time: Double
    public var state: JobState
    public var reasons: [String]
    /// The job-state-message the job took with this state; nil in records written before it was recorded.
    public var message: String?

    public init(time: Double, state: JobState, reasons: [String], message: String? = nil) {
        self.time = time
        self.state = state
        self.reasons = reasons
        self.message = message
    }
}

/// A document as received and stored (the job record's `documents`).
public struct DocumentRecord: Sendable, Equatable {
    public var number: Int
    public var name: String?
    /// The document-format the client declared.
    public var format: DocumentFormat
    /// The format detected from the bytes, or nil when unknown.
    public var detectedFormat: DocumentFormat?
    public var compression: String
    public var size: Int
    public var sha256: String
    /// The file name within the job folder.
    public var file: String
    public var pages: Int?
    /// Cancel-Document: the document is skipped when the job prints.
    public var isCanceled = false

    /// The format the document prints as: the detected one, else the declared one.
    public var effectiveFormat: DocumentFormat { detectedFormat ?? format }
}
