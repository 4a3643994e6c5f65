import Foundation
import IPP

/// IPP values to JSON and back, for job records (DESIGN.md "Job record") and profile `attributes` overrides.
///
/// IPP to JSON: integer -> number; enum -> its keyword where IPPEnumNames has one, else number; boolean -> bool;
/// text, name, keyword, uri, charset, naturalLanguage, mimeMediaType, uriScheme -> string (a WithLanguage form
/// loses its language); octetString -> string (UTF-8); dateTime -> ISO 8601 string; rangeOfInteger ->
/// `{"lower", "upper"}`; resolution -> `{"x", "y", "units": "dpi"|"dpcm"}`; collection -> object;
/// no-value -> null; other out-of-band values -> `{"out-of-band": "unknown"}`. Several values, or one value of an
/// attribute that `IPPJSONSyntax.isSetOf` calls 1setOf, -> array.
///
/// JSON to IPP infers each value's syntax from the attribute name (`IPPJSONSyntax`), the same rules backwards.
/// The result contains Foundation JSON objects only (Bool, Int, String, NSNull, arrays, string-keyed dictionaries),
/// ready for `JSONSerialization`.
public enum IPPJSON {
    /// The JSON form of an attribute's value(s).
    public static func jsonValue(of attribute: IPPAttribute) -> Any {
        let values = attribute.values.map { json(of: $0, attribute: attribute.name) }
        if values.count == 1, let first = attribute.values.first,
            !IPPJSONSyntax.isSetOf(attribute.name, firstValue: first)
        {
            return values[0]
        }
        return values
    }

    /// A JSON object holding each attribute by name (later attributes of the same name win).
    public static func jsonObject(of attributes: [IPPAttribute]) -> [String: Any] {
        var object: [String: Any] = [:]
        for attribute in attributes { object[attribute.name] = jsonValue(of: attribute) }
        return object
    }

    /// The attribute a JSON value stands for, with syntaxes inferred from the name (see `IPPJSONSyntax`).
    ///
    /// Accepts both Swift values (Bool, Int, Double, String, arrays, dictionaries, nil) and what
    /// `JSONSerialization` returns (NSNumber, NSString, NSArray, NSDictionary, NSNull).
    public static func attribute(name: String, json: Any?) throws(IPPJSONError) -> IPPAttribute {
        if let object = json as? [String: Any], object[typedSyntaxKey] != nil {
            return try typedAttribute(name: name, object: object)
        }
        if let list = json as? [Any] {
            guard !list.isEmpty else { throw .emptyArray(path: name) }
            var values: [IPPValue] = []
            for element in list {
                if element is [Any] { throw .nestedArray(path: name) }
                values.append(try value(of: element, attribute: name, path: name))
            }
            return IPPAttribute(name: name, values: values)
        }
        return IPPAttribute(name: name, values: [try value(of: json, attribute: name, path: name)])
    }

    // MARK: IPP to JSON

    private static func json(of value: IPPValue, attribute: String) -> Any {
        switch value {
        case .integer(let number):
            return Int(number)
        case .enumValue(let number):
            return IPPJSONSyntax.enumKeyword(attribute: attribute, value: number) ?? Int(number)
        case .boolean(let flag):
            return flag
        case .octetString(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .dateTime(let date):
            return date.iso8601
        case .resolution(let resolution):
            let units: Any =
                switch resolution.units {
                case .dotsPerInch: "dpi"
                case .dotsPerCentimeter: "dpcm"
                default: Int(resolution.units.rawValue)
                }
            return ["x": Int(resolution.crossFeed), "y": Int(resolution.feed), "units": units] as [String: Any]
        case .rangeOfInteger(let range):
            return ["lower": Int(range.lowerBound), "upper": Int(range.upperBound)]
        case .collection(let members):
            return jsonObject(of: members)
        case .outOfBand(let tag) where tag == .noValue:
            return NSNull()
        case .outOfBand(let tag):
            return ["out-of-band": tag.description]
        case .other(let tag, let bytes):
            return ["tag": Int(tag.rawValue), "octets": bytes.map { String($0, radix: 16) }.joined(separator: " ")]
        default:
            return value.stringValue ?? NSNull()
        }
    }

    // MARK: JSON to IPP

    private static func value(of json: Any?, attribute: String, path: String) throws(IPPJSONError) -> IPPValue {
        guard let json, !(json is NSNull) else { return .outOfBand(.noValue) }
        if let number = JSONNumber(json) {
            switch number {
            case .boolean(let flag):
                return .boolean(flag)
            case .integer(let integer):
                guard let small = Int32(exactly: integer) else { throw .notAnInteger(path: path) }
                return IPPJSONSyntax.isEnum(attribute) ? .enumValue(small) : .integer(small)
            case .fraction:
                throw .notAnInteger(path: path)
            }
        }
        if let text = json as? String {
            return try IPPJSONSyntax.stringValue(text, attribute: attribute, path: path)
        }
        if let object = json as? [String: Any] {
            return try objectValue(object, attribute: attribute, path: path)
        }
        if json is [Any] { throw .nestedArray(path: path) }
        throw .unsupportedValue(path: path)
    }

    private static func objectValue(
        _ object: [String: Any], attribute: String, path: String
    ) throws(IPPJSONError) -> IPPValue {
        let keys = Set(object.keys)
        if keys == ["lower", "upper"] {
            guard let lower = int32(object["lower"]), let upper = int32(object["upper"]), lower <= upper else {
                throw .notAnInteger(path: path + ".lower")
            }
            return .rangeOfInteger(lower...upper)
        }
        if keys == ["x", "y"] || keys == ["x", "y", "units"] {
            guard let x = int32(object["x"]), let y = int32(object["y"]) else { throw .notAnInteger(path: path + ".x") }
            let units: IPPResolution.Units
            switch object["units"].map({ $0 as? String }) {
            case nil, "dpi": units = .dotsPerInch
            case "dpcm": units = .dotsPerCentimeter
            default: throw .badResolutionUnits(path: path)
            }
            return .resolution(IPPResolution(crossFeed: x, feed: y, units: units))
        }
        if keys == ["out-of-band"] {
            let name = object["out-of-band"] as? String ?? ""
            guard let tag = IPPJSONSyntax.outOfBandTags[name] else { throw .unknownOutOfBand(path: path, name: name) }
            return .outOfBand(tag)
        }
        var members: [IPPAttribute] = []
        for (memberName, memberJSON) in object.sorted(by: { $0.key < $1.key }) {
            do throws(IPPJSONError) {
                members.append(try Self.attribute(name: memberName, json: memberJSON))
            } catch {
                throw error.prefixed(by: path)
            }
        }
        return .collection(members)
    }

    private static func int32(_ json: Any?) -> Int32? {
        guard let json, case .integer(let value)? = JSONNumber(json) else { return nil }
        return Int32(exactly: value)
    }
}

/// A JSON number or Boolean, whether a Swift value or a Foundation `NSNumber` from `JSONSerialization`.
package enum JSONNumber {
    case boolean(Bool)
    case integer(Int)
    case fraction(Double)

    package init?(_ json: Any) {
        if type(of: json) is NSNumber.Type, let number = json as? NSNumber {
            // JSONSerialization gives Booleans as NSNumber of Objective-C type "c".
            if String(cString: number.objCType) == "c" {
                self = .boolean(number.boolValue)
            } else if let integer = Int(exactly: number.doubleValue) {
                self = .integer(integer)
            } else {
                self = .fraction(number.doubleValue)
            }
            return
        }
        switch json {
        case let flag as Bool: self = .boolean(flag)
        case let integer as Int: self = .integer(integer)
        case let integer as Int32: self = .integer(Int(integer))
        case let number as Double: self = Int(exactly: number).map { .integer($0) } ?? .fraction(number)
        default: return nil
        }
    }
}

extension IPPJSONError {
    /// The same error with its path put under a collection attribute: `media-size` -> `media-col.media-size`.
    func prefixed(by parent: String) -> IPPJSONError {
        switch self {
        case .notAnInteger(let path): .notAnInteger(path: parent + "." + path)
        case .unknownEnumKeyword(let path, let keyword):
            .unknownEnumKeyword(path: parent + "." + path, keyword: keyword)
        case .badDateTime(let path, let text): .badDateTime(path: parent + "." + path, text: text)
        case .nestedArray(let path): .nestedArray(path: parent + "." + path)
        case .emptyArray(let path): .emptyArray(path: parent + "." + path)
        case .unknownOutOfBand(let path, let name): .unknownOutOfBand(path: parent + "." + path, name: name)
        case .badResolutionUnits(let path): .badResolutionUnits(path: parent + "." + path)
        case .unsupportedValue(let path): .unsupportedValue(path: parent + "." + path)
        }
    }
}
