import Foundation

/// A JSON value whose objects keep their key order, for writing profiles a person reads (`vprinter clone`): keys in
/// the order docs/profiles.md lists them, short lists on one line.
public indirect enum ProfileJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)
    case array([ProfileJSON])
    case object([(String, ProfileJSON)])

    public static func == (a: ProfileJSON, b: ProfileJSON) -> Bool { a.prettyText == b.prettyText }

    /// A value from what JSONSerialization reads or from Swift values (objects get their keys sorted).
    public init(_ value: Any?) {
        guard let value, !(value is NSNull) else {
            self = .null
            return
        }
        if let number = JSONNumber(value) {
            switch number {
            case .boolean(let flag): self = .bool(flag)
            case .integer(let integer): self = .integer(integer)
            case .fraction(let fraction): self = .string(String(fraction))
            }
        } else if let text = value as? String {
            self = .string(text)
        } else if let list = value as? [Any] {
            self = .array(list.map { ProfileJSON($0) })
        } else if let object = value as? [String: Any] {
            self = .object(object.sorted { $0.key < $1.key }.map { ($0.key, ProfileJSON($0.value)) })
        } else if let json = value as? ProfileJSON {
            self = json
        } else {
            self = .string("\(value)")
        }
    }

    /// Lists whose one-line form is at most this long stay on one line.
    static let inlineWidth = 100

    /// The value as indented JSON text.
    public var prettyText: String { render(indent: "") }

    private func render(indent: String) -> String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .string(let text): return Self.quote(text)
        case .array(let items):
            if items.isEmpty { return "[]" }
            let inline = "[" + items.map { $0.render(indent: indent) }.joined(separator: ", ") + "]"
            if !inline.contains("\n"), inline.count + indent.count <= Self.inlineWidth { return inline }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.render(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = indent + "  "
            let inline =
                "{ "
                + members.map { "\(Self.quote($0.0)): \($0.1.render(indent: inner))" }.joined(
                    separator: ", ") + " }"
            if !inline.contains("\n"), inline.count + indent.count <= Self.inlineWidth, !indent.isEmpty {
                return inline
            }
            return "{\n"
                + members.map { "\(inner)\(Self.quote($0.0)): \($0.1.render(indent: inner))" }.joined(separator: ",\n")
                + "\n\(indent)}"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
