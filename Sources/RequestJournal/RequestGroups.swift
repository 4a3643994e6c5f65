import IPP

/// The attribute groups of a journaled request: as they were decoded until someone reads them, or in the journal's
/// form (`JournaledGroup`). Most entries go to the file and out of memory unread, and a polling client sends the
/// same groups over and over: keeping the decoded groups (shared with the request, not copied) spares each request
/// the building of the journal's form, and lets the file's writer see cheaply that the groups are the ones it
/// wrote last.
public struct RequestGroups: Sendable, Hashable, Codable {
    enum Form: Sendable {
        case decoded([IPPAttributeGroup])
        case journaled([JournaledGroup])
    }

    private(set) var form: Form

    /// The groups of a decoded request, their secrets redacted (`SecretAttributes`; shared, not copied, when they
    /// hold none).
    public init(_ decoded: [IPPAttributeGroup]) {
        form = .decoded(SecretAttributes.redacted(decoded))
    }

    /// Groups already in the journal's form (read back from JSON, or made by hand).
    public init(journaled: [JournaledGroup]) {
        form = .journaled(journaled)
    }

    /// The groups in the journal's form.
    public var journaled: [JournaledGroup] {
        switch form {
        case .decoded(let groups): groups.map(JournaledGroup.init)
        case .journaled(let groups): groups
        }
    }

    /// The first attribute with this name in any group.
    public func attribute(_ name: String) -> JournaledAttribute? {
        switch form {
        case .decoded(let groups):
            for group in groups {
                if let attribute = group.attributes.first(where: { $0.name == name }) {
                    return JournaledAttribute(attribute)
                }
            }
        case .journaled(let groups):
            for group in groups {
                if let attribute = group.attributes.first(where: { $0.name == name }) { return attribute }
            }
        }
        return nil
    }

    /// The first group's attributes (a request's operation attributes) hashed, leaving out those named in
    /// `excluded`: what a request asks. The same groups give the same hash in one form; the two forms are not
    /// compared this way (one process journals decoded groups only).
    func hashOfFirstGroup(excluding excluded: Set<String>) -> Int {
        var hasher = Hasher()
        switch form {
        case .decoded(let groups):
            for attribute in groups.first?.attributes ?? [] where !excluded.contains(attribute.name) {
                hasher.combine(attribute)
            }
        case .journaled(let groups):
            for attribute in groups.first?.attributes ?? [] where !excluded.contains(attribute.name) {
                hasher.combine(attribute)
            }
        }
        return hasher.finalize()
    }

    /// Whether both hold the same groups: compared as decoded when both are (no journal form is built), else in
    /// the journal's form.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if case .decoded(let left) = lhs.form, case .decoded(let right) = rhs.form { return left == right }
        return lhs.journaled == rhs.journaled
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(journaled)
    }

    public init(from decoder: any Decoder) throws {
        form = .journaled(try decoder.singleValueContainer().decode([JournaledGroup].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(journaled)
    }
}
