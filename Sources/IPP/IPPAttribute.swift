/// A named attribute with one or more values (1setOf when more than one).
///
/// RFC 8010 section 3.1.3-3.1.5. Values of one attribute may have different tags (e.g. integer and
/// rangeOfInteger), so the tag belongs to each value.
public struct IPPAttribute: Hashable, Sendable {
    public var name: String
    public var values: [IPPValue]

    public init(name: String, values: [IPPValue]) {
        self.name = name
        self.values = values
    }

    public init(_ name: String, _ values: IPPValue...) {
        self.init(name: name, values: values)
    }

    /// The first value, which most single-valued attributes have alone.
    public var value: IPPValue? { values.first }

    /// The member of a collection-valued attribute's first value with the given name.
    public func member(_ memberName: String) -> IPPAttribute? {
        value?.collectionValue?.first { $0.name == memberName }
    }
}
