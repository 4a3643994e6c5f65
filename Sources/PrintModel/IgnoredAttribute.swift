/// An attribute of the job request that the printer ignored or replaced, as the client was told in the response's
/// unsupported-attributes group (RFC 8011 section 4.1.7; docs/job-record.md `ignored-attributes`).
public struct IgnoredAttribute: Sendable, Hashable, Codable {
    /// The attribute's name.
    public var name: String
    /// `operation` or `job`: the group it was sent in.
    public var group: String
    /// The value the client sent, in the job record's JSON mapping.
    public var sent: JSONValue
    /// The printer's default (`<name>-default`) printed instead, when it has one.
    public var used: JSONValue?
    /// `unsupported-attribute` (the printer has no such attribute), `unsupported-value` (not among
    /// `<name>-supported`) or `repeated` (only the first occurrence counts).
    public var reason: String
    /// The reason in words.
    public var message: String

    public init(name: String, group: String, sent: JSONValue, used: JSONValue?, reason: String, message: String) {
        self.name = name
        self.group = group
        self.sent = sent
        self.used = used
        self.reason = reason
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case name, group, sent, used, reason, message
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        group = try c.decodeIfPresent(String.self, forKey: .group) ?? "job"
        sent = try c.decodeIfPresent(JSONValue.self, forKey: .sent) ?? .null
        used = try c.decodeIfPresent(JSONValue.self, forKey: .used)
        reason = try c.decode(String.self, forKey: .reason)
        message = try c.decodeIfPresent(String.self, forKey: .message) ?? ""
    }
}
