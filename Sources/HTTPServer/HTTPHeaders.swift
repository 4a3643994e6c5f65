/// An ordered list of header fields with case-insensitive lookup by name (RFC 9110 section 5.1).
///
/// Fields keep the order and spelling they arrived or were added with; lookups ignore ASCII case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field: its name as written and its value without surrounding whitespace.
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    /// Creates an empty list.
    public init() {
        fields = []
    }

    /// Creates a list from fields in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Creates a list from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the first field with this name, or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// The values of every field with this name, in order.
    public func values(_ name: String) -> [String] {
        var values: [String] = []
        for field in fields where Self.namesMatch(field.name, name) {
            values.append(field.value)
        }
        return values
    }

    /// Whether at least one field has this name.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field with this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Whether a comma-separated field (like `Connection`) lists `token`, ignoring ASCII case
    /// (RFC 9110 section 5.6.1).
    func listContains(_ name: String, token: String) -> Bool {
        values(name).contains { value in
            value.split(separator: ",").contains { element in
                Self.namesMatch(String(element.trimmingSpacesAndTabs), token)
            }
        }
    }

    /// Compares two field names byte by byte, ignoring ASCII case.
    static func namesMatch(_ left: String, _ right: String) -> Bool {
        if left.utf8.count != right.utf8.count { return false }
        var leftBytes = left.utf8.makeIterator()
        var rightBytes = right.utf8.makeIterator()
        while true {
            switch (leftBytes.next(), rightBytes.next()) {
            case (nil, nil): return true
            case (let a?, let b?) where a.asciiLowercased == b.asciiLowercased: continue
            default: return false
            }
        }
    }
}

extension UInt8 {
    /// This byte with ASCII upper-case letters turned to lower case; other bytes unchanged.
    var asciiLowercased: UInt8 {
        self >= 0x41 && self <= 0x5A ? self | 0x20 : self
    }
}

extension Substring {
    /// This text without leading and trailing spaces and horizontal tabs (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: Substring {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }),
            let last = utf8.lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
