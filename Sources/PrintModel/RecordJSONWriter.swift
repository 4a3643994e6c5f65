/// Writes a ``JSONValue`` as JSON text the way job records have always been written: keys sorted, two spaces of
/// indentation, `"key" : value`, slashes left alone, whole numbers as integers (as Foundation's JSONSerialization
/// writes with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes`, only several times faster: a record
/// is written again on every change of its job, each rendered page and each state).
public struct RecordJSONWriter {
    /// A value JSON has no form for (NaN or an infinity).
    public struct Unsupported: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private var bytes: [UInt8] = []
    /// One line, without spaces (a JSON lines file), instead of indented.
    private var isOneLine = false

    /// The JSON text of `value`, indented.
    public static func encode(_ value: JSONValue) throws(Unsupported) -> [UInt8] {
        var writer = RecordJSONWriter()
        writer.bytes.reserveCapacity(4096)
        try writer.write(value, depth: 0)
        return writer.bytes
    }

    /// The JSON text of `value` on one line with no spaces, keys sorted, and a newline after it: a line of a JSON
    /// lines file.
    public static func line(_ value: JSONValue) throws(Unsupported) -> [UInt8] {
        var writer = RecordJSONWriter()
        writer.isOneLine = true
        writer.bytes.reserveCapacity(2048)
        try writer.write(value, depth: 0)
        writer.bytes.append(0x0A)
        return writer.bytes
    }

    private mutating func write(_ value: JSONValue, depth: Int) throws(Unsupported) {
        switch value {
        case .string(let text): writeString(text)
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): try writeNumber(number)
        case .null: append("null")
        case .object(let object): try writeObject(object, depth: depth)
        case .array(let array): try writeArray(array, depth: depth)
        }
    }

    private mutating func writeObject(_ object: [String: JSONValue], depth: Int) throws(Unsupported) {
        guard !object.isEmpty else { return append("{}") }
        open("{")
        for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { separate() }
            indent(depth + 1)
            writeString(member.key)
            append(isOneLine ? ":" : " : ")
            try write(member.value, depth: depth + 1)
        }
        close("}", depth: depth)
    }

    private mutating func writeArray(_ array: [JSONValue], depth: Int) throws(Unsupported) {
        guard !array.isEmpty else { return append("[]") }
        open("[")
        for (index, element) in array.enumerated() {
            if index > 0 { separate() }
            indent(depth + 1)
            try write(element, depth: depth + 1)
        }
        close("]", depth: depth)
    }

    private mutating func writeNumber(_ number: Double) throws(Unsupported) {
        guard let text = Self.numberText(number) else { throw Unsupported(description: "\(number) has no JSON form") }
        append(text)
    }

    /// A number as the record writes it: whole numbers as integers (`2`, not `2.0`); nil for NaN or an infinity,
    /// which JSON has no form for.
    public static func numberText(_ number: Double) -> String? {
        guard number.isFinite else { return nil }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private mutating func writeString(_ text: String) {
        Self.appendString(text, to: &bytes)
    }

    /// Appends `text` as a JSON string (RFC 8259 section 7): quote, backslash and control characters escaped, the
    /// rest as UTF-8.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: it goes in with one copy.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true { return bytes.append(UInt8(ascii: "\"")) }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0x08: bytes.append(contentsOf: "\\b".utf8)
            case 0x0C: bytes.append(contentsOf: "\\f".utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of UTF-8 text is written escaped in a JSON string.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func open(_ bracket: String) {
        append(isOneLine ? bracket : bracket + "\n")
    }

    private mutating func separate() {
        append(isOneLine ? "," : ",\n")
    }

    private mutating func close(_ bracket: String, depth: Int) {
        if !isOneLine { append("\n") }
        indent(depth)
        append(bracket)
    }

    private mutating func indent(_ depth: Int) {
        guard !isOneLine else { return }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
