import IPP
import PrintModel

/// An IPP attribute as the journal keeps it: its name and each value with the tag it came with, in the order the
/// client sent them (RFC 8010 section 3.1.3), so that a test can see a wrong value tag as well as a wrong value.
public struct JournaledAttribute: Sendable, Hashable, Codable {
    public var name: String
    public var values: [JournaledValue]

    public init(name: String, values: [JournaledValue]) {
        self.name = name
        self.values = values
    }

    /// The journal's form of a decoded attribute.
    public init(_ attribute: IPPAttribute) {
        self.init(name: attribute.name, values: attribute.values.map { JournaledValue($0, attribute: attribute.name) })
    }

    enum CodingKeys: String, CodingKey {
        case name, values
    }
}

/// One value of a journaled attribute.
///
/// `tag` is the value tag's name as RFC 8010 section 3.5.2 spells it (`keyword`, `nameWithoutLanguage`,
/// `collection`, `no-value`, ...). `value` holds it as JSON: a string for the character-string syntaxes, a
/// number for integer and enum, a boolean, `{"lower", "upper"}` for rangeOfInteger, `{"x", "y", "units"}` for
/// resolution, an ISO 8601 string for dateTime, the text for an octetString that is UTF-8 (else `hex`). An enum
/// also has `keyword` where the attribute's enum has names; a WithLanguage value has `language`; a collection has
/// `members`; an out-of-band value has only its tag.
public struct JournaledValue: Sendable, Hashable, Codable {
    public var tag: String
    public var value: JSONValue?
    public var keyword: String?
    public var language: String?
    public var hex: String?
    public var members: [JournaledAttribute]?

    public init(
        tag: String, value: JSONValue? = nil, keyword: String? = nil, language: String? = nil, hex: String? = nil,
        members: [JournaledAttribute]? = nil
    ) {
        self.tag = tag
        self.value = value
        self.keyword = keyword
        self.language = language
        self.hex = hex
        self.members = members
    }

    /// The journal's form of one value of the attribute named `attribute` (enum names depend on it).
    public init(_ value: IPPValue, attribute: String) {
        self.init(tag: value.tag.description)
        switch value {
        case .integer(let number):
            self.value = .number(Double(number))
        case .enumValue(let number):
            self.value = .number(Double(number))
            keyword = IPPEnumNames.keyword(attribute: attribute, value: number)
        case .boolean(let flag):
            self.value = .bool(flag)
        case .other(.rangeOfInteger, let bytes) where Self.reversedRange(bytes) != nil:
            // A range that ends before it starts, as sent: the decoder cannot make it a range.
            let bounds = Self.reversedRange(bytes) ?? (0, 0)
            self.value = .object(["lower": .number(Double(bounds.lower)), "upper": .number(Double(bounds.upper))])
        case .octetString(let bytes), .other(_, let bytes):
            if let text = String(validating: bytes, as: UTF8.self) {
                self.value = .string(text)
            } else {
                hex = bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }.joined()
            }
        case .dateTime(let date):
            self.value = .string(date.iso8601)
        case .resolution(let resolution):
            let units = resolution.units == .dotsPerCentimeter ? "dpcm" : "dpi"
            self.value = .object([
                "x": .number(Double(resolution.crossFeed)), "y": .number(Double(resolution.feed)),
                "units": .string(units),
            ])
        case .rangeOfInteger(let range):
            self.value = .object([
                "lower": .number(Double(range.lowerBound)), "upper": .number(Double(range.upperBound)),
            ])
        case .collection(let attributes):
            members = attributes.map(JournaledAttribute.init)
        case .textWithLanguage(let language, let text), .nameWithLanguage(let language, let text):
            self.value = .string(text)
            self.language = language
        case .text(let text), .name(let text), .keyword(let text), .uri(let text), .uriScheme(let text),
            .charset(let text), .naturalLanguage(let text), .mimeMediaType(let text):
            self.value = .string(text)
        case .outOfBand:
            break
        }
    }

    /// The bounds of a rangeOfInteger value kept as its 8 bytes (the decoder keeps a reversed range so).
    public static func reversedRange(_ bytes: [UInt8]) -> (lower: Int32, upper: Int32)? {
        guard bytes.count == 8 else { return nil }
        func integer(at offset: Int) -> Int32 {
            Int32(bitPattern: bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        return (integer(at: 0), integer(at: 4))
    }

    /// The value as a matcher compares it: the text of a string, a whole number without a fraction, `true` or
    /// `false`, an enum's keyword where it has one, `lower-upper` for a range, `XxYunits` for a resolution; nil for a
    /// collection or an out-of-band value.
    public var matchText: String? {
        if let keyword { return keyword }
        switch value {
        case .string(let text): return text
        case .number: return value?.intValue.map(String.init) ?? nil
        case .bool(let flag): return flag ? "true" : "false"
        case .object(let object):
            if let lower = object["lower"]?.intValue, let upper = object["upper"]?.intValue {
                return "\(lower)-\(upper)"
            }
            if let x = object["x"]?.intValue, let y = object["y"]?.intValue, let units = object["units"]?.stringValue {
                return "\(x)x\(y)\(units)"
            }
            return nil
        default: return hex
        }
    }

    enum CodingKeys: String, CodingKey {
        case tag, value, keyword, language, hex, members
    }

    /// Every text a matcher may compare with: `matchText`, and an enum's number as well as its keyword.
    var matchTexts: [String] {
        var texts = matchText.map { [$0] } ?? []
        if keyword != nil, let number = value?.intValue { texts.append(String(number)) }
        return texts
    }
}

/// An attribute group of a request or an answer, in the order it came.
public struct JournaledGroup: Sendable, Hashable, Codable {
    /// The group's delimiter tag name: `operation-attributes-tag`, `job-attributes-tag`, ...
    public var tag: String
    public var attributes: [JournaledAttribute]

    public init(tag: String, attributes: [JournaledAttribute]) {
        self.tag = tag
        self.attributes = attributes
    }

    public init(_ group: IPPAttributeGroup) {
        self.init(tag: group.tag.description, attributes: group.attributes.map(JournaledAttribute.init))
    }

    enum CodingKeys: String, CodingKey {
        case tag, attributes
    }
}
