import IPP

/// Hand-built IPP wire bytes, written field by field as RFC 8010 section 3 lays them out, so that tests
/// state the exact bytes they feed the decoder without going through `IPPEncoder`.
struct WireBytes {
    private(set) var bytes: [UInt8] = []

    /// Starts a message: version 2.0, the operation or status code, the request-id (RFC 8010 section 3.1.1).
    init(code: UInt16 = 0x000B, requestID: UInt32 = 1) {
        bytes = [2, 0]
        append16(code)
        append32(requestID)
    }

    /// Starts from raw bytes, for sequences that are not a message header.
    init(raw: [UInt8]) {
        bytes = raw
    }

    /// A delimiter tag (a group, end-of-attributes, or an invalid one).
    func tag(_ tag: IPPTag) -> Self {
        var copy = self
        copy.bytes.append(tag.rawValue)
        return copy
    }

    /// One value: `value-tag name-length name value-length value` (RFC 8010 section 3.1.4).
    func value(_ tag: IPPTag, _ name: String, _ value: [UInt8]) -> Self {
        self.value(tag, name: Array(name.utf8), value: value, declaredLength: value.count)
    }

    /// One value whose string holds UTF-8 text.
    func value(_ tag: IPPTag, _ name: String, _ text: String) -> Self {
        value(tag, name, Array(text.utf8))
    }

    /// One value with a declared value-length that may differ from the bytes that follow.
    func value(_ tag: IPPTag, name: [UInt8], value: [UInt8], declaredLength: Int) -> Self {
        var copy = self
        copy.bytes.append(tag.rawValue)
        copy.append16(UInt16(name.count))
        copy.bytes += name
        copy.append16(UInt16(declaredLength))
        copy.bytes += value
        return copy
    }

    /// A collection member's name: `4A 0000 <length> <name>` (RFC 8010 section 3.1.7).
    func member(_ name: String) -> Self {
        value(.memberAttributeName, "", name)
    }

    /// The start of a collection value; the first one carries the attribute's name.
    func beginCollection(_ name: String = "") -> Self {
        value(.beginCollection, name, [])
    }

    /// The end of a collection value: `37 0000 0000`.
    func endCollection() -> Self {
        value(.endCollection, "", [])
    }

    /// The bytes followed by end-of-attributes.
    var ended: [UInt8] { bytes + [IPPTag.endOfAttributes.rawValue] }

    private mutating func append16(_ v: UInt16) {
        bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
    }

    private mutating func append32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}

/// A 32-bit big-endian number as four bytes.
func be32(_ v: Int32) -> [UInt8] {
    let u = UInt32(bitPattern: v)
    return [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
}

/// The error decoding `bytes` throws, or nil when they decode.
func decodingError(_ bytes: [UInt8], limits: IPPLimits = .default) -> IPPDecodingError? {
    do {
        _ = try IPPDecoder(limits: limits).decode(bytes)
        return nil
    } catch {
        return error
    }
}

/// The message `bytes` decode to, or nil when decoding throws.
func decoded(_ bytes: [UInt8], limits: IPPLimits = .default) -> IPPMessage? {
    try? IPPDecoder(limits: limits).decode(bytes).message
}

/// A message whose operation group holds the two attributes every request starts with, then `groups`.
func request(_ operation: IPPOperation = .getPrinterAttributes, groups: [IPPAttributeGroup]) -> IPPMessage {
    var operationGroup = IPPAttributeGroup(tag: .operationAttributes)
    operationGroup.append("attributes-charset", .charset("utf-8"))
    operationGroup.append("attributes-natural-language", .naturalLanguage("en"))
    return IPPMessage(operation: operation, requestID: 42, groups: [operationGroup] + groups)
}
