/// Which journal entries a query asks for: every condition given must hold. The query parameters of
/// `GET /api/v1/requests` and `vprinter requests`.
public struct RequestFilter: Sendable, Hashable {
    /// The printer's name.
    public var printer: String?
    /// The IPP operation's name (`Print-Job`), compared without letter case.
    public var operation: String?
    /// The IPP status keyword answered (`successful-ok`), or an HTTP status code for HTTP requests.
    public var status: String?
    /// The client's address, or a part of its user-agent (without letter case).
    public var client: String?
    /// The authenticated user.
    public var user: String?
    /// The job the request created or touched.
    public var jobID: Int?
    /// IPP requests or other HTTP requests only.
    public var kind: JournalEntry.Kind?
    /// Only entries after this one (a number) or after this time.
    public var since: Since?
    /// Only entries with a finding of this severity or a higher one.
    public var finding: ClientFinding.Severity?
    /// Only entries with a finding of this rule.
    public var rule: ClientRule?

    public init() {}

    /// A point in the journal after which entries count.
    public enum Since: Sendable, Hashable {
        /// Entries with a higher number.
        case entry(Int)
        /// Entries recorded after this instant: an ISO 8601 UTC time, kept with milliseconds (as entries are) so
        /// that the two compare as text.
        case time(String)
    }

    /// The names of the query parameters, in the order the API documents them.
    public static let parameterNames = [
        "printer", "operation", "status", "client", "user", "job", "kind", "since", "finding", "rule",
    ]

    /// The filter of a query's parameters; a parameter it does not know, or a value that is not of its kind, is an
    /// error that names it.
    public init(parameters: [(name: String, value: String)]) throws(JournalError) {
        for (name, value) in parameters {
            switch name {
            case "printer": printer = value
            case "operation": operation = value
            case "status": status = value
            case "client": client = value
            case "user": user = value
            case "job":
                guard let number = Int(value), number > 0 else {
                    throw .badParameter(name: name, value: value, expected: "a job number")
                }
                jobID = number
            case "kind":
                guard let parsed = JournalEntry.Kind(rawValue: value) else {
                    throw .badParameter(name: name, value: value, expected: "ipp or http")
                }
                kind = parsed
            case "since":
                guard let parsed = Since(value) else {
                    throw .badParameter(
                        name: name, value: value,
                        expected: "a request number or an ISO 8601 UTC time such as 2026-12-01T09:30:00Z")
                }
                since = parsed
            case "finding":
                guard let parsed = ClientFinding.Severity(rawValue: value) else {
                    throw .badParameter(name: name, value: value, expected: "error, warning or info")
                }
                finding = parsed
            case "rule":
                guard let parsed = ClientRule(rawValue: value) else {
                    throw .badParameter(
                        name: name, value: value,
                        expected: "a rule: " + ClientRule.allCases.map(\.rawValue).joined(separator: ", "))
                }
                rule = parsed
            default:
                throw .unknownParameter(name: name, known: Self.parameterNames)
            }
        }
    }

    /// Whether an entry meets every condition.
    public func matches(_ entry: JournalEntry) -> Bool {
        if let printer, entry.printer != printer { return false }
        if let operation, entry.ipp?.operation.lowercased() != operation.lowercased() { return false }
        if let status, entry.statusText != status { return false }
        if let client, !entry.client.matches(client) { return false }
        if let user, entry.user != user { return false }
        if let jobID, entry.ipp?.jobID != jobID { return false }
        if let kind, entry.kind != kind { return false }
        if let finding, (entry.highestSeverity.map { $0 < finding } ?? true) { return false }
        if let rule, entry.findings?.contains(where: { $0.rule == rule }) != true { return false }
        switch since {
        case .entry(let number): if entry.id <= number { return false }
        case .time(let time): if entry.time <= time { return false }
        case nil: break
        }
        return true
    }
}

extension RequestFilter.Since {
    /// A request number, or an ISO 8601 UTC time (`2026-12-01T09:30:00Z`, fractions of a second allowed).
    init?(_ text: String) {
        if let number = Int(text), number >= 0 {
            self = .entry(number)
            return
        }
        guard let time = JournalClock.normalized(text) else { return nil }
        self = .time(time)
    }
}

extension JournalEntry {
    /// The status a filter compares: the IPP status keyword of an IPP request, else the HTTP status code.
    var statusText: String {
        ipp?.status ?? String(http.status)
    }
}

extension JournalEntry.Client {
    /// Whether `text` is this client's address or a part of its user-agent.
    func matches(_ text: String) -> Bool {
        address == text || (userAgent?.lowercased().contains(text.lowercased()) ?? false)
    }
}
