/// A group of attributes introduced by a delimiter tag (RFC 8010 section 3.1.2).
public struct IPPAttributeGroup: Hashable, Sendable {
    public var tag: IPPTag
    public var attributes: [IPPAttribute]

    public init(tag: IPPTag, attributes: [IPPAttribute] = []) {
        self.tag = tag
        self.attributes = attributes
    }

    /// The first attribute with this name.
    public subscript(name: String) -> IPPAttribute? {
        attributes.first { $0.name == name }
    }

    /// Appends an attribute.
    public mutating func append(_ attribute: IPPAttribute) {
        attributes.append(attribute)
    }

    /// Appends an attribute built from a name and values.
    public mutating func append(_ name: String, _ values: IPPValue...) {
        attributes.append(IPPAttribute(name: name, values: values))
    }
}
