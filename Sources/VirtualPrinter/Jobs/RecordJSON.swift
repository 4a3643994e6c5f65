import Foundation

/// Encodes a job record (a `JSONSerialization`-style tree of dictionaries, arrays, strings, numbers, booleans and
/// NSNull) as pretty-printed JSON with sorted keys, in the layout `JSONSerialization` writes with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`.
///
/// Records are rewritten on every change of a job, once per printed side while it renders; Foundation's writer
/// sorts keys with locale-aware string comparison, which made those rewrites most of the printer's CPU time.
/// Keys here are sorted by their Unicode scalars, which for the record's ASCII keywords is the same order.
enum RecordJSON {
    /// The JSON bytes of `value`. Values that JSON cannot hold (NaN, infinities, other types) are written as null.
    static func encode(_ value: Any) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(value, indent: 0, to: &output)
        return output
    }

    private static func write(_ value: Any, indent: Int, to output: inout [UInt8]) {
        switch value {
        case let text as String:
            writeString(text, to: &output)
        case let flag as Bool:
            output += Array((flag ? "true" : "false").utf8)
        case let number as Int:
            output += Array(String(number).utf8)
        case let number as Double:
            writeNumber(number, to: &output)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" {
                output += Array((number.boolValue ? "true" : "false").utf8)
            } else if let exact = Int(exactly: number.doubleValue), String(cString: number.objCType) != "d" {
                output += Array(String(exact).utf8)
            } else {
                writeNumber(number.doubleValue, to: &output)
            }
        case let object as [String: Any]:
            writeObject(object, indent: indent, to: &output)
        case let list as [Any]:
            writeArray(list, indent: indent, to: &output)
        default:
            output += Array("null".utf8)
        }
    }

    private static func writeNumber(_ number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            output += Array("null".utf8)
            return
        }
        if number.rounded() == number, abs(number) < 1e15 {
            output += Array(String(Int(number)).utf8)
        } else {
            output += Array("\(number)".utf8)
        }
    }

    private static func newline(_ indent: Int, to output: inout [UInt8]) {
        output.append(0x0A)
        output += repeatElement(0x20, count: indent * 2)
    }

    private static func writeObject(_ object: [String: Any], indent: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if object.isEmpty { newline(0, to: &output) }
        for (index, key) in object.keys.sorted().enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent + 1, to: &output)
            writeString(key, to: &output)
            output += Array(" : ".utf8)
            write(object[key]!, indent: indent + 1, to: &output)
        }
        newline(indent, to: &output)
        output.append(UInt8(ascii: "}"))
    }

    private static func writeArray(_ list: [Any], indent: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        if list.isEmpty { newline(0, to: &output) }
        for (index, element) in list.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent + 1, to: &output)
            write(element, indent: indent + 1, to: &output)
        }
        newline(indent, to: &output)
        output.append(UInt8(ascii: "]"))
    }

    /// RFC 8259 section 7: quotation mark, reverse solidus and control characters escaped; the rest as UTF-8.
    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
