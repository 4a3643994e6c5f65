import PrintModel

/// What a verification looks for in a request: each condition given must hold. Its JSON form:
///
///     {"operation": "Print-Job", "status": "successful-ok", "printer": "...", "user": "...", "client": "...",
///      "attributes": [{"name": "media", "equals": "iso_a4_210x297mm"}, {"name": "job-name", "contains": "invoice"},
///                     {"name": "copies", "present": true}, {"name": "job-hold-until", "absent": true},
///                     {"name": "sides", "tag": "keyword"}]}
///
/// `client`, `operation` and `status` compare as in `RequestFilter`. An attribute condition looks at the first
/// attribute of that name in any group of the request.
public struct RequestMatcher: Sendable, Hashable {
    public var operation: String?
    public var status: String?
    public var printer: String?
    public var user: String?
    public var client: String?
    public var kind: JournalEntry.Kind?
    public var attributes: [AttributeCondition]

    public init(
        operation: String? = nil, status: String? = nil, printer: String? = nil, user: String? = nil,
        client: String? = nil, kind: JournalEntry.Kind? = nil, attributes: [AttributeCondition] = []
    ) {
        self.operation = operation
        self.status = status
        self.printer = printer
        self.user = user
        self.client = client
        self.kind = kind
        self.attributes = attributes
    }

    /// One condition on an attribute of the request.
    public struct AttributeCondition: Sendable, Hashable {
        public var name: String
        public var test: Test

        public init(name: String, test: Test) {
            self.name = name
            self.test = test
        }

        /// What must hold of the attribute.
        public enum Test: Sendable, Hashable {
            /// One of its values is this (its text, number, keyword or `true`/`false`).
            case equals(String)
            /// One of its values has this text in it.
            case contains(String)
            /// It was sent.
            case present
            /// It was not sent.
            case absent
            /// Every value of it has this value tag (`keyword`, `nameWithoutLanguage`, ...).
            case tag(String)
        }
    }

    /// The parts of the matcher the entry misses, in words ("operation: Create-Job, not Print-Job"); empty when it
    /// matches.
    public func misses(_ entry: JournalEntry) -> [String] {
        var missed: [String] = []
        func check(_ label: String, _ wanted: String?, _ actual: String?, same: (String, String) -> Bool = (==)) {
            guard let wanted else { return }
            guard let actual else {
                missed.append("\(label): none, not \(wanted)")
                return
            }
            if !same(actual, wanted) { missed.append("\(label): \(actual), not \(wanted)") }
        }
        if let kind, entry.kind != kind { missed.append("kind: \(entry.kind.rawValue), not \(kind.rawValue)") }
        check("operation", operation, entry.ipp?.operation) { $0.lowercased() == $1.lowercased() }
        check("status", status, entry.statusText)
        check("printer", printer, entry.printer)
        check("user", user, entry.user)
        if let client, !entry.client.matches(client) {
            let agent = entry.client.userAgent.map { " (\($0))" } ?? ""
            missed.append("client: \(entry.client.address)\(agent), not \(client)")
        }
        for condition in attributes {
            if let miss = condition.miss(in: entry.ipp) { missed.append(miss) }
        }
        return missed
    }

    /// Whether the entry meets every condition.
    public func matches(_ entry: JournalEntry) -> Bool {
        misses(entry).isEmpty
    }
}

extension RequestMatcher.AttributeCondition {
    /// How the condition misses on the request, or nil when it holds.
    func miss(in request: JournalEntry.IPPPart?) -> String? {
        let attribute = request?.attribute(name)
        let label = "attribute \(name)"
        switch test {
        case .absent:
            return attribute == nil ? nil : "\(label): sent, not absent"
        case .present:
            return attribute == nil ? "\(label): absent" : nil
        case .equals(let wanted):
            guard let attribute else { return "\(label): absent, not \(wanted)" }
            if attribute.values.contains(where: { $0.matchTexts.contains(wanted) }) { return nil }
            return "\(label): \(attribute.shownValues), not \(wanted)"
        case .contains(let part):
            guard let attribute else { return "\(label): absent, not containing \(part)" }
            if attribute.values.contains(where: { $0.matchTexts.contains { $0.contains(part) } }) { return nil }
            return "\(label): \(attribute.shownValues), not containing \(part)"
        case .tag(let wanted):
            guard let attribute else { return "\(label): absent, not \(wanted)" }
            let tags = attribute.values.map(\.tag)
            if !tags.isEmpty, tags.allSatisfy({ $0 == wanted }) { return nil }
            return "\(label): tag \(Set(tags).sorted().joined(separator: ",")), not \(wanted)"
        }
    }
}

extension JournaledAttribute {
    /// Its values as a miss shows them: `a,b` (a collection as `{...}`), the first `RequestChecker.listedValues`
    /// and how many there are of more.
    var shownValues: String {
        let shown = values.prefix(RequestChecker.listedValues).map {
            $0.matchText ?? ($0.members != nil ? "{...}" : $0.tag)
        }
        let listed = shown.joined(separator: ",")
        return values.count > shown.count ? listed + ",... (\(values.count) in all)" : listed
    }
}
