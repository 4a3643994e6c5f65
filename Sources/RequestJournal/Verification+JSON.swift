import PrintModel

/// Reading a verification and its matchers from the JSON a test sends. Every key is checked: a misspelt key is an
/// error that names it, never a matcher that quietly matches everything.
extension Verification {
    /// The keys of a verification.
    static let keys: Set<String> = ["request", "count", "atLeast", "atMost", "sequence", "since"]

    public init(json: JSONValue) throws(JournalError) {
        let object = try JSONFields(json, what: "the verification", keys: Self.keys)
        let since = try object.integer("since")
        if let steps = object["sequence"] {
            guard object["request"] == nil, object["count"] == nil, object["atLeast"] == nil, object["atMost"] == nil
            else { throw .badVerification("a verification has either sequence or request with its counts") }
            guard case .array(let list) = steps, !list.isEmpty else {
                throw .badVerification("sequence: a non-empty list of matchers")
            }
            var matchers: [RequestMatcher] = []
            for (index, step) in list.enumerated() {
                matchers.append(try RequestMatcher(json: step, what: "sequence step \(index + 1)"))
            }
            self.init(question: .sequence(matchers), since: since)
            return
        }
        let matcher = try RequestMatcher(json: object["request"] ?? .object([:]), what: "request")
        let count = try object.integer("count")
        let atLeast = try object.integer("atLeast")
        let atMost = try object.integer("atMost")
        if count != nil, atLeast != nil || atMost != nil {
            throw .badVerification("count cannot go with atLeast or atMost")
        }
        if let atLeast, let atMost, atLeast > atMost {
            throw .badVerification("atLeast \(atLeast) is more than atMost \(atMost)")
        }
        let least = count ?? atLeast ?? (atMost == nil ? 1 : 0)
        self.init(question: .count(matcher, atLeast: least, atMost: count ?? atMost), since: since)
    }
}

extension RequestMatcher {
    static let keys: Set<String> = ["operation", "status", "printer", "user", "client", "kind", "attributes"]
    static let conditionKeys: Set<String> = ["name", "equals", "contains", "present", "absent", "tag"]

    /// A matcher from its JSON form (see the type's documentation); `what` names it in errors.
    public init(json: JSONValue, what: String = "request") throws(JournalError) {
        let object = try JSONFields(json, what: what, keys: Self.keys)
        var kind: JournalEntry.Kind?
        if let text = try object.string("kind") {
            guard let parsed = JournalEntry.Kind(rawValue: text) else {
                throw .badVerification("\(what): kind is ipp or http, not \(text)")
            }
            kind = parsed
        }
        var conditions: [AttributeCondition] = []
        if let list = object["attributes"] {
            guard case .array(let items) = list else { throw .badVerification("\(what): attributes is a list") }
            for (index, item) in items.enumerated() {
                conditions.append(try AttributeCondition(json: item, what: "\(what), attribute \(index + 1)"))
            }
        }
        self.init(
            operation: try object.string("operation"), status: try object.string("status"),
            printer: try object.string("printer"), user: try object.string("user"), client: try object.string("client"),
            kind: kind, attributes: conditions)
    }
}

extension RequestMatcher.AttributeCondition {
    init(json: JSONValue, what: String) throws(JournalError) {
        let object = try JSONFields(json, what: what, keys: RequestMatcher.conditionKeys)
        guard let name = try object.string("name"), !name.isEmpty else {
            throw .badVerification("\(what): name is required")
        }
        var tests: [Test] = []
        if let text = try object.text("equals") { tests.append(.equals(text)) }
        if let text = try object.string("contains") { tests.append(.contains(text)) }
        if let text = try object.string("tag") { tests.append(.tag(text)) }
        if try object.flag("present") == true { tests.append(.present) }
        if try object.flag("absent") == true { tests.append(.absent) }
        guard tests.count == 1, let test = tests.first else {
            throw .badVerification("\(what) (\(name)): exactly one of equals, contains, present, absent, tag")
        }
        self.init(name: name, test: test)
    }
}

/// A JSON object whose keys were checked against the ones allowed, with typed reads that name the key on error.
struct JSONFields {
    let members: [String: JSONValue]
    let what: String

    init(_ json: JSONValue, what: String, keys: Set<String>) throws(JournalError) {
        guard case .object(let members) = json else { throw .badVerification("\(what): a JSON object") }
        if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .badVerification("\(what): unknown key \(unknown); known: \(keys.sorted().joined(separator: ", "))")
        }
        self.members = members
        self.what = what
    }

    subscript(key: String) -> JSONValue? {
        members[key].flatMap { $0 == .null ? nil : $0 }
    }

    func string(_ key: String) throws(JournalError) -> String? {
        guard let value = self[key] else { return nil }
        guard let text = value.stringValue else { throw .badVerification("\(what): \(key) is a string") }
        return text
    }

    /// A string, or a number or boolean given as one (`"equals": 2` means the text `2`).
    func text(_ key: String) throws(JournalError) -> String? {
        switch self[key] {
        case nil: return nil
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number)?:
            guard let whole = JSONValue.number(number).intValue else {
                throw .badVerification("\(what): \(key) is a string or a whole number")
            }
            return String(whole)
        default: throw .badVerification("\(what): \(key) is a string, a whole number or a boolean")
        }
    }

    func integer(_ key: String) throws(JournalError) -> Int? {
        guard let value = self[key] else { return nil }
        guard let number = value.intValue, number >= 0 else {
            throw .badVerification("\(what): \(key) is a whole number, 0 or more")
        }
        return number
    }

    func flag(_ key: String) throws(JournalError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else { throw .badVerification("\(what): \(key) is true or false") }
        return flag
    }
}
