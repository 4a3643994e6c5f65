/// What one client (an address and a user-agent) sent and did wrong, counted as its requests arrived: the answer
/// of `GET /api/v1/clients` and what `vprinter report` prints.
public struct ClientSummary: Sendable, Hashable, Codable {
    public var address: String
    public var userAgent: String?
    public var requests: Int
    public var firstSeen: String
    public var lastSeen: String
    /// Requests by operation name.
    public var operations: [String: Int]
    /// Findings by severity (`error`, `warning`, `info`; every key present).
    public var findings: [String: Int]
    /// One line per rule broken, the most severe first.
    public var rules: [RuleCount]

    /// How often one rule was broken, with the first finding's message and the first requests that broke it.
    public struct RuleCount: Sendable, Hashable, Codable {
        public var rule: ClientRule
        public var severity: ClientFinding.Severity
        public var reference: String
        public var count: Int
        public var message: String
        /// The numbers of the first entries with this finding (at most `ClientSummary.listedRequests`).
        public var requests: [Int]

        enum CodingKeys: String, CodingKey {
            case rule, severity, reference, count, message, requests
        }
    }

    /// The entries a rule's line names at the most.
    public static let listedRequests = 10
    /// The operation names a summary counts apart at the most; past them, requests count under `otherOperations`
    /// (a client sending every unknown operation code would otherwise hold 65,536 counts).
    public static let countedOperations = 64
    /// Where the requests of operations past `countedOperations` count.
    public static let otherOperations = "(other)"

    init(address: String, userAgent: String?, time: String) {
        self.address = address
        self.userAgent = userAgent
        requests = 0
        firstSeen = time
        lastSeen = time
        operations = [:]
        findings = Self.noFindings
        rules = []
    }

    static var noFindings: [String: Int] {
        Dictionary(uniqueKeysWithValues: ClientFinding.Severity.allCases.map { ($0.rawValue, 0) })
    }

    /// Counts a request and its findings.
    mutating func count(_ entry: JournalEntry) {
        requests += 1
        firstSeen = min(firstSeen, entry.time)
        lastSeen = max(lastSeen, entry.time)
        let operation = entry.ipp?.operation ?? "(malformed)"
        let counted = operations[operation] != nil || operations.count < Self.countedOperations
        operations[counted ? operation : Self.otherOperations, default: 0] += 1
        count(entry.findings ?? [], of: entry.id)
    }

    /// Counts findings of the entry numbered `id` (also those found after it was recorded).
    mutating func count(_ found: [ClientFinding], of id: Int) {
        for finding in found {
            findings[finding.severity.rawValue, default: 0] += 1
            if let index = rules.firstIndex(where: { $0.rule == finding.rule }) {
                rules[index].count += 1
                if rules[index].requests.count < Self.listedRequests, rules[index].requests.last != id {
                    rules[index].requests.append(id)
                }
            } else {
                rules.append(
                    RuleCount(
                        rule: finding.rule, severity: finding.severity, reference: finding.reference, count: 1,
                        message: finding.message, requests: [id]))
                sortRules()
            }
        }
    }

    /// This client's summary and another's of the same client (on another printer) as one.
    mutating func merge(_ other: ClientSummary) {
        requests += other.requests
        firstSeen = min(firstSeen, other.firstSeen)
        lastSeen = max(lastSeen, other.lastSeen)
        operations.merge(other.operations, uniquingKeysWith: +)
        findings.merge(other.findings, uniquingKeysWith: +)
        for line in other.rules {
            if let index = rules.firstIndex(where: { $0.rule == line.rule }) {
                rules[index].count += line.count
                rules[index].requests = Array(
                    (rules[index].requests + line.requests).sorted().prefix(Self.listedRequests))
            } else {
                rules.append(line)
            }
        }
        sortRules()
    }

    /// The most severe rule first, then by name.
    private mutating func sortRules() {
        rules.sort { ($0.severity, $1.rule.rawValue) > ($1.severity, $0.rule.rawValue) }
    }

    /// The highest severity of this client's findings, nil when it has none.
    public var highestSeverity: ClientFinding.Severity? {
        rules.map(\.severity).max()
    }

    enum CodingKeys: String, CodingKey {
        case address, userAgent = "user-agent", requests, firstSeen = "first-seen", lastSeen = "last-seen"
        case operations, findings, rules
    }
}

/// Every client's summary, and the findings of all of them by severity: `GET /api/v1/clients`.
public struct ClientReport: Sendable, Hashable, Codable {
    public var clients: [ClientSummary]
    public var findings: [String: Int]
    /// IPP requests of clients whose summaries were let go, the least recently active past the most the journal
    /// tells apart (`ClientActivity.maximumClients`).
    public var untrackedRequests: Int

    public init(clients: [ClientSummary], untrackedRequests: Int = 0) {
        self.clients = clients
        var totals = ClientSummary.noFindings
        for client in clients { totals.merge(client.findings, uniquingKeysWith: +) }
        findings = totals
        self.untrackedRequests = untrackedRequests
    }

    /// Whether any client has a finding at or above `severity`.
    public func hasFinding(atLeast severity: ClientFinding.Severity) -> Bool {
        clients.contains { ($0.highestSeverity.map { $0 >= severity }) ?? false }
    }

    enum CodingKeys: String, CodingKey {
        case clients, findings, untrackedRequests = "untracked-requests"
    }
}
