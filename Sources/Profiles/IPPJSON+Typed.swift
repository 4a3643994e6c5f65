import Foundation
import IPP

/// The typed JSON form of a raw attribute, for values whose syntax the name does not imply:
/// `{"@syntax": "nameWithoutLanguage", "@value": "none"}` (or a list of values). `vprinter clone` writes it when
/// the plain form would come back with another syntax, so that a clone answers with the original's exact tags.
/// `@` cannot start an IPP member name, so the form never collides with a collection.
extension IPPJSON {
    /// The key that marks the typed form.
    static let typedSyntaxKey = "@syntax"
    /// The key of the value (or list of values) in the typed form.
    static let typedValueKey = "@value"

    /// Syntaxes the typed form accepts, by their ipptool names.
    static let typedSyntaxes: Set<String> = [
        "integer", "boolean", "enum", "octetString", "dateTime", "resolution", "rangeOfInteger", "textWithoutLanguage",
        "nameWithoutLanguage", "keyword", "uri", "uriScheme", "charset", "naturalLanguage", "mimeMediaType",
    ]

    static func typedAttribute(name: String, object: [String: Any]) throws(IPPJSONError) -> IPPAttribute {
        guard let syntax = object[typedSyntaxKey] as? String, typedSyntaxes.contains(syntax),
            Set(object.keys) == [typedSyntaxKey, typedValueKey]
        else { throw .unsupportedValue(path: name) }
        let raw = object[typedValueKey]
        let list: [Any] = (raw as? [Any]) ?? [raw as Any]
        guard !list.isEmpty else { throw .emptyArray(path: name) }
        var values: [IPPValue] = []
        for element in list {
            values.append(try typedValue(element, syntax: syntax, path: name))
        }
        return IPPAttribute(name: name, values: values)
    }

    private static func typedValue(_ json: Any, syntax: String, path: String) throws(IPPJSONError) -> IPPValue {
        func text() throws(IPPJSONError) -> String {
            guard let string = json as? String else { throw .unsupportedValue(path: path) }
            return string
        }
        func number() throws(IPPJSONError) -> Int32 {
            guard case .integer(let value)? = JSONNumber(json), let small = Int32(exactly: value) else {
                throw .notAnInteger(path: path)
            }
            return small
        }
        switch syntax {
        case "integer": return .integer(try number())
        case "enum": return .enumValue(try number())
        case "boolean":
            guard case .boolean(let flag)? = JSONNumber(json) else { throw .unsupportedValue(path: path) }
            return .boolean(flag)
        case "octetString": return .octetString(Array(try text().utf8))
        case "dateTime":
            let string = try text()
            guard let date = IPPJSONSyntax.parseDateTime(string) else { throw .badDateTime(path: path, text: string) }
            return .dateTime(date)
        case "resolution", "rangeOfInteger":
            // The plain JSON objects of these syntaxes are unambiguous already.
            return try attribute(name: path, json: json).values.first ?? .outOfBand(.noValue)
        case "textWithoutLanguage": return .text(try text())
        case "nameWithoutLanguage": return .name(try text())
        case "keyword": return .keyword(try text())
        case "uri": return .uri(try text())
        case "uriScheme": return .uriScheme(try text())
        case "charset": return .charset(try text())
        case "naturalLanguage": return .naturalLanguage(try text())
        default: return .mimeMediaType(try text())
        }
    }

    /// The JSON of an attribute that reads back as exactly the same attribute: the plain form where the name's
    /// inferred syntax gives the same values, else the typed form; collections member by member.
    public static func exactJSON(of attribute: IPPAttribute) -> Any {
        if !attribute.values.isEmpty, attribute.values.allSatisfy({ $0.collectionValue != nil }) {
            let objects: [Any] = attribute.values.map { value in
                var object: [String: Any] = [:]
                for member in value.collectionValue ?? [] { object[member.name] = exactJSON(of: member) }
                return object
            }
            let single = objects.count == 1 && !IPPJSONSyntax.isSetOf(attribute.name, firstValue: attribute.values[0])
            let plain: Any = single ? objects[0] : objects
            if let back = try? Self.attribute(name: attribute.name, json: plain), back.canonical == attribute.canonical
            {
                return plain
            }
            return objects
        }
        let plain = jsonValue(of: attribute)
        if let back = try? Self.attribute(name: attribute.name, json: plain), back.canonical == attribute.canonical {
            return plain
        }
        if let first = attribute.values.first, case .outOfBand = first {
            return plain
        }
        let values: [Any] = attribute.values.map { value in
            switch value {
            case .integer(let n), .enumValue(let n): return Int(n)
            case .boolean(let flag): return flag
            case .octetString(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .dateTime(let date): return date.iso8601
            case .rangeOfInteger(let range): return ["lower": Int(range.lowerBound), "upper": Int(range.upperBound)]
            case .resolution(let r):
                return [
                    "x": Int(r.crossFeed), "y": Int(r.feed), "units": r.units == .dotsPerCentimeter ? "dpcm" : "dpi",
                ]
            default: return value.stringValue ?? ""
            }
        }
        let syntax = attribute.values.first.map { IPPText.syntaxName($0) } ?? "keyword"
        return [typedSyntaxKey: syntax, typedValueKey: values.count == 1 ? values[0] : values] as [String: Any]
    }
}

extension IPPAttribute {
    /// The attribute with the members of its collections in name order (collection members have no order,
    /// RFC 8010 section 3.1.6), for comparing attributes by meaning.
    public var canonical: IPPAttribute {
        IPPAttribute(name: name, values: values.map(\.canonical))
    }
}

extension IPPValue {
    /// The value with collection members in name order, recursively.
    public var canonical: IPPValue {
        switch self {
        case .collection(let members):
            return .collection(members.map(\.canonical).sorted { $0.name < $1.name })
        case .textWithLanguage(_, let text):
            return .text(text)
        case .nameWithLanguage(_, let name):
            return .name(name)
        default:
            return self
        }
    }
}
