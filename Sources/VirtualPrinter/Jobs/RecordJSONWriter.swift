import Foundation

/// Writes a job record (the `[String: Any]` of `JobRecorder.record(of:)`) as JSON text: keys sorted, two spaces
/// of indentation, `"key" : value`, slashes left alone, as JSONSerialization does with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes`, only several times faster (its key sort compares NSStrings, and a
/// record is written again on every change of its job: each rendered page, each state).
///
/// Values: String, Bool, integers, finite floating-point numbers, NSNull, NSNumber, arrays and `[String: Any]`
/// objects of those. Anything else is a programmer's mistake, reported as `RecordJSONWriter.Unsupported`.
struct RecordJSONWriter {
    /// A value JSON has no form for (a type the record never holds, NaN or an infinity).
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    private var bytes: [UInt8] = []

    /// The JSON text of `value`.
    static func encode(_ value: Any) throws(Unsupported) -> [UInt8] {
        var writer = RecordJSONWriter()
        writer.bytes.reserveCapacity(4096)
        try writer.write(value, depth: 0)
        return writer.bytes
    }

    private mutating func write(_ value: Any, depth: Int) throws(Unsupported) {
        switch value {
        case let text as String:
            writeString(text)
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            // An NSNumber (from JSONSerialization) casts to Bool and Int alike: its type code says which it is
            // ("c" for a boolean, as JSONSerialization makes them).
            if String(cString: number.objCType) == "c" {
                append(number.boolValue ? "true" : "false")
            } else if let integer = value as? Int64 {
                append(String(integer))
            } else {
                try writeNumber(number.doubleValue)
            }
        case let flag as Bool:
            append(flag ? "true" : "false")
        case let number as Int:
            append(String(number))
        case let number as any BinaryInteger:
            append(String(describing: number))
        case let number as Double:
            try writeNumber(number)
        case let number as any BinaryFloatingPoint:
            try writeNumber(Double(number))
        case is NSNull:
            append("null")
        case let object as [String: Any]:
            try writeObject(object, depth: depth)
        case let array as [Any]:
            try writeArray(array, depth: depth)
        default:
            throw Unsupported(description: "a \(type(of: value)) has no JSON form")
        }
    }

    private mutating func writeObject(_ object: [String: Any], depth: Int) throws(Unsupported) {
        guard !object.isEmpty else { return append("{}") }
        append("{\n")
        for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { append(",\n") }
            indent(depth + 1)
            writeString(member.key)
            append(" : ")
            try write(member.value, depth: depth + 1)
        }
        append("\n")
        indent(depth)
        append("}")
    }

    private mutating func writeArray(_ array: [Any], depth: Int) throws(Unsupported) {
        guard !array.isEmpty else { return append("[]") }
        append("[\n")
        for (index, element) in array.enumerated() {
            if index > 0 { append(",\n") }
            indent(depth + 1)
            try write(element, depth: depth + 1)
        }
        append("\n")
        indent(depth)
        append("]")
    }

    private mutating func writeNumber(_ number: Double) throws(Unsupported) {
        guard number.isFinite else { throw Unsupported(description: "\(number) has no JSON form") }
        if number == number.rounded(), abs(number) < 1e15 {
            append(String(Int64(number)))
        } else {
            append(String(number))
        }
    }

    /// A JSON string (RFC 8259 section 7): quote, backslash and control characters escaped, the rest as UTF-8.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
