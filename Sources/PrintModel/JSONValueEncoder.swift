/// Encodes an `Encodable` value into a ``JSONValue`` tree, which ``RecordJSONWriter`` writes as text: the record
/// types say their keys once, in their `CodingKeys`, and are written without Foundation's JSON machinery, which
/// is several times slower for a record rewritten on every change of its job.
public enum JSONValueEncoder {
    /// Why a value has no JSON form.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The tree of `value`.
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value being built: a scalar, or an object or array whose members are built after it is made.
private final class Node {
    private var scalar: JSONValue?
    private var object: [String: Node]?
    private var array: [Node]?

    var value: JSONValue {
        if let array { return .array(array.map(\.value)) }
        if let object { return .object(object.mapValues(\.value)) }
        return scalar ?? .object([:])
    }

    func set(_ value: JSONValue) {
        scalar = value
        object = nil
        array = nil
    }

    func member(_ key: String) -> Node {
        makeObject()
        if let node = object?[key] { return node }
        let node = Node()
        object?[key] = node
        return node
    }

    func makeObject() {
        if object == nil { object = [:] }
    }

    func makeArray() {
        if array == nil { array = [] }
    }

    func append() -> Node {
        makeArray()
        let node = Node()
        array?.append(node)
        return node
    }

    var count: Int { array?.count ?? 0 }
}

private struct TreeEncoder: Encoder {
    let node: Node
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

/// Scalars of every kind `Encodable` hands over, as JSON values.
private func scalar(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONValue? {
    switch value {
    case let text as String: return .string(text)
    case let flag as Bool: return .bool(flag)
    case let number as Int: return .number(Double(number))
    case let number as Int32: return .number(Double(number))
    case let number as Int64: return .number(Double(number))
    case let number as UInt16: return .number(Double(number))
    case let number as UInt32: return .number(Double(number))
    case let number as Double:
        guard number.isFinite else {
            throw JSONValueEncoder.Failure(
                description: "\(number) has no JSON form (at \(codingPath.map(\.stringValue)))")
        }
        return .number(number)
    case let number as Float: return .number(Double(number))
    case let json as JSONValue: return json
    default: return nil
    }
}

private func encodeValue(_ value: some Encodable, into node: Node, codingPath: [any CodingKey]) throws {
    if let json = try scalar(value, codingPath: codingPath) {
        node.set(json)
    } else {
        try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        node.member(key.stringValue).set(.null)
    }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try encodeValue(value, into: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws {
        node.append().set(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        try encodeValue(value, into: node.append(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.append()
        child.makeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.append()
        child.makeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.append(), codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.set(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        try encodeValue(value, into: node, codingPath: codingPath)
    }
}
