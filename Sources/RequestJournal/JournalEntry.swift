import IPP

/// One request to the process, as the journal records it: who sent it, over what, to which printer, what it asked
/// and what it was answered. An IPP request also keeps every attribute it sent, the document's format, size and
/// digest (never its bytes) and the job it created or touched; an HTTP request of the API or the web page keeps its
/// method, path and status (`kind` tells the two apart).
///
/// The JSON form (kebab-case keys, as the job record has) is what `GET /api/v1/requests` answers and what each
/// line of the journal file holds.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// IPP over HTTP, or another HTTP request (the JSON API, the web page, health checks).
    public enum Kind: String, Sendable, Hashable, Codable {
        case ipp, http
    }

    /// The entry's number in this process: 1 for the first request, one more for each after it.
    public var id: Int
    /// When the request's head arrived, ISO 8601 UTC with milliseconds.
    public var time: String
    /// From the request's head to the end of the answer, in milliseconds.
    public var durationMilliseconds: Double
    public var kind: Kind
    /// The connection's number in this process: requests on one keep-alive connection share it.
    public var connection: Int
    public var client: Client
    /// Whether the request came over TLS.
    public var tls: Bool
    /// The user the request authenticated as (`--user`), when it did.
    public var user: String?
    /// The printer the request was for, when it was for one.
    public var printer: String?
    public var http: HTTPPart
    /// The IPP part, for `kind` `ipp`: nil when the body was no IPP message at all.
    public var ipp: IPPPart?
    /// Why the request could not be read or answered as asked, when it could not (a body that is no IPP message).
    public var problem: String?
    /// What the client did wrong in this request (`RequestChecker`, and the journal for what only a series of
    /// requests shows); nil when nothing.
    public var findings: [ClientFinding]?

    public init(
        id: Int, time: String, durationMilliseconds: Double, kind: Kind, connection: Int, client: Client, tls: Bool,
        user: String?, printer: String?, http: HTTPPart, ipp: IPPPart?, problem: String? = nil,
        findings: [ClientFinding]? = nil
    ) {
        self.id = id
        self.time = time
        self.durationMilliseconds = durationMilliseconds
        self.kind = kind
        self.connection = connection
        self.client = client
        self.tls = tls
        self.user = user
        self.printer = printer
        self.http = http
        self.ipp = ipp
        self.problem = problem
        self.findings = findings
    }

    /// Adds findings, keeping `findings` nil while there are none.
    public mutating func add(_ more: [ClientFinding]) {
        guard !more.isEmpty else { return }
        findings = (findings ?? []) + more
    }

    /// The highest severity among the findings, nil when there are none.
    public var highestSeverity: ClientFinding.Severity? {
        findings?.map(\.severity).max()
    }

    /// Where a request came from.
    public struct Client: Sendable, Hashable, Codable {
        public var address: String
        public var port: Int?
        public var userAgent: String?

        public init(address: String, port: Int?, userAgent: String?) {
            self.address = address
            self.port = port
            self.userAgent = userAgent
        }

        enum CodingKeys: String, CodingKey {
            case address, port, userAgent = "user-agent"
        }
    }

    /// The HTTP request line and the status answered (0 when the printer gave no answer: switched off, or a fault
    /// that breaks the connection).
    public struct HTTPPart: Sendable, Hashable, Codable {
        public var method: String
        /// The request target as sent, query included.
        public var path: String
        public var status: Int

        public init(method: String, path: String, status: Int) {
            self.method = method
            self.path = path
            self.status = status
        }

        enum CodingKeys: String, CodingKey {
            case method, path, status
        }
    }

    /// What an IPP request asked and what it was answered.
    public struct IPPPart: Sendable, Hashable, Codable {
        /// The version-number of the request, `2.0`.
        public var version: String
        /// The operation's name (`Print-Job`), or its code in hex when unknown.
        public var operation: String
        public var operationID: Int
        public var requestID: Int
        /// Every attribute group of the request, in order (`groups` in the journal's form).
        public var requestGroups: RequestGroups
        /// The document data after the attributes, when there was any.
        public var document: Document?
        /// The status-code answered, by keyword (`successful-ok`), and as a number.
        public var status: String
        public var statusCode: Int
        /// The attributes the answer's unsupported-attributes group named.
        public var unsupported: [JournaledAttribute]
        /// The job the request created or touched.
        public var jobID: Int?

        public init(
            version: String, operation: String, operationID: Int, requestID: Int, groups: [JournaledGroup],
            document: Document?, status: String, statusCode: Int, unsupported: [JournaledAttribute], jobID: Int?
        ) {
            self.version = version
            self.operation = operation
            self.operationID = operationID
            self.requestID = requestID
            requestGroups = RequestGroups(journaled: groups)
            self.document = document
            self.status = status
            self.statusCode = statusCode
            self.unsupported = unsupported
            self.jobID = jobID
        }

        /// The journal's form of a decoded request and the answer it got.
        public init(request: IPPMessage, answer: IPPMessage, document: Document?, jobID: Int?) {
            self.init(
                request: request, document: document, status: answer.status, statusCode: Int(answer.code),
                unsupported: answer[group: .unsupportedAttributes]?.attributes ?? [], jobID: jobID)
        }

        /// The journal's form of a decoded request, keeping its groups as decoded (`RequestGroups`), and of what it
        /// was answered; secrets in either are redacted (`SecretAttributes`).
        public init(
            request: IPPMessage, document: Document?, status: IPPStatus, statusCode: Int, unsupported: [IPPAttribute],
            jobID: Int?
        ) {
            version = request.version.description
            operation = request.operation.description
            operationID = Int(request.code)
            requestID = Int(request.requestID)
            requestGroups = RequestGroups(request.groups)
            self.document = document
            self.status = status.description
            self.statusCode = statusCode
            self.unsupported = unsupported.map { JournaledAttribute(SecretAttributes.redacted($0)) }
            self.jobID = jobID
        }

        /// Every attribute group of the request, in order.
        public var groups: [JournaledGroup] {
            get { requestGroups.journaled }
            set { requestGroups = RequestGroups(journaled: newValue) }
        }

        /// The first attribute with this name in any group of the request.
        public func attribute(_ name: String) -> JournaledAttribute? {
            requestGroups.attribute(name)
        }

        enum CodingKeys: String, CodingKey {
            case version, operation, operationID = "operation-id", requestID = "request-id"
            case requestGroups = "groups", document
            case status, statusCode = "status-code", unsupported, jobID = "job-id"
        }
    }

    /// The document data of a request: never the bytes, only what identifies them.
    public struct Document: Sendable, Hashable, Codable {
        /// The document-format the request named (`application/octet-stream` when it named none).
        public var format: String
        /// The format the printer found in the bytes, when it recognised one.
        public var detectedFormat: String?
        /// Bytes received, as sent (before any decompression).
        public var size: Int
        /// SHA-256 of the bytes as sent, hex.
        public var sha256: String

        public init(format: String, detectedFormat: String?, size: Int, sha256: String) {
            self.format = format
            self.detectedFormat = detectedFormat
            self.size = size
            self.sha256 = sha256
        }

        enum CodingKeys: String, CodingKey {
            case format, detectedFormat = "detected-format", size, sha256
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, time, durationMilliseconds = "duration-ms", kind, connection, client, tls, user, printer, http, ipp
        case problem, findings
    }
}
