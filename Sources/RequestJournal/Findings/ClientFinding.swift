/// One thing a request did that a client should not: the rule it broke, how much that matters, the section of
/// the standard it rests on, and what exactly was wrong, in a sentence that names the attribute and the values.
public struct ClientFinding: Sendable, Hashable, Codable {
    /// How much a finding matters; ordered, so that "at or above warning" is a comparison.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
        case info, warning, error

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    public var rule: ClientRule
    public var severity: Severity
    /// The standard and section, `RFC 8011 §4.1.5`.
    public var reference: String
    public var message: String
    /// The attribute the finding is about, when it is about one.
    public var attribute: String?

    public init(
        rule: ClientRule, severity: Severity, reference: String, message: String, attribute: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.reference = reference
        self.message = message
        self.attribute = attribute
    }

    /// A finding of `rule` with its severity and reference (or a narrower `reference`).
    public init(_ rule: ClientRule, _ message: String, attribute: String? = nil, reference: String? = nil) {
        self.init(
            rule: rule, severity: rule.severity, reference: reference ?? rule.reference, message: message,
            attribute: attribute)
    }

    enum CodingKeys: String, CodingKey {
        case rule, severity, reference, message, attribute
    }
}
