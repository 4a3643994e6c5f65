/// Encodes IPP messages and attributes (RFC 8010 section 3).
///
/// Encoding trusts its input: names and values are written as given, with lengths truncated to what the
/// 16-bit length fields can carry. Callers that build attributes from untrusted input validate them first.
public enum IPPEncoder {
    /// The complete encoding of a message, ending with end-of-attributes.
    public static func encode(_ message: IPPMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        appendHeader(of: message, to: &bytes)
        for group in message.groups {
            bytes.append(group.tag.rawValue)
            for attribute in group.attributes {
                append(attribute, to: &bytes)
            }
        }
        bytes.append(IPPTag.endOfAttributes.rawValue)
        return bytes
    }

    /// The 8 header bytes: version, operation or status code, request-id.
    public static func appendHeader(of message: IPPMessage, to bytes: inout [UInt8]) {
        bytes.append(message.version.major)
        bytes.append(message.version.minor)
        appendUInt16(message.code, to: &bytes)
        appendUInt32(UInt32(bitPattern: message.requestID), to: &bytes)
    }

    /// Appends one attribute: its first value with the name, each further value with name-length 0.
    public static func append(_ attribute: IPPAttribute, to bytes: inout [UInt8]) {
        let name = Array(attribute.name.utf8)
        for (index, value) in attribute.values.enumerated() {
            append(value, name: index == 0 ? name : [], to: &bytes)
        }
    }

    static func append(_ value: IPPValue, name: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(value.tag.rawValue)
        appendLengthPrefixed(name, to: &bytes)
        switch value {
        case .integer(let v), .enumValue(let v):
            appendUInt16(4, to: &bytes)
            appendUInt32(UInt32(bitPattern: v), to: &bytes)
        case .boolean(let b):
            appendUInt16(1, to: &bytes)
            bytes.append(b ? 1 : 0)
        case .octetString(let data), .other(_, let data):
            appendLengthPrefixed(data, to: &bytes)
        case .dateTime(let d):
            appendUInt16(11, to: &bytes)
            appendUInt16(d.year, to: &bytes)
            bytes += [
                d.month, d.day, d.hour, d.minutes, d.seconds, d.deciSeconds, d.utcDirection, d.utcHours, d.utcMinutes,
            ]
        case .resolution(let r):
            appendUInt16(9, to: &bytes)
            appendUInt32(UInt32(bitPattern: r.crossFeed), to: &bytes)
            appendUInt32(UInt32(bitPattern: r.feed), to: &bytes)
            bytes.append(r.units.rawValue)
        case .rangeOfInteger(let range):
            appendUInt16(8, to: &bytes)
            appendUInt32(UInt32(bitPattern: range.lowerBound), to: &bytes)
            appendUInt32(UInt32(bitPattern: range.upperBound), to: &bytes)
        case .textWithLanguage(let language, let text), .nameWithLanguage(let language, let text):
            let languageBytes = Array(language.utf8.prefix(Int(UInt16.max)))
            let textBytes = Array(text.utf8.prefix(Int(UInt16.max) - 4 - languageBytes.count))
            appendUInt16(UInt16(4 + languageBytes.count + textBytes.count), to: &bytes)
            appendLengthPrefixed(languageBytes, to: &bytes)
            appendLengthPrefixed(textBytes, to: &bytes)
        case .text(let s), .name(let s), .keyword(let s), .uri(let s), .uriScheme(let s), .charset(let s),
            .naturalLanguage(let s), .mimeMediaType(let s):
            appendLengthPrefixed(Array(s.utf8), to: &bytes)
        case .outOfBand:
            appendUInt16(0, to: &bytes)
        case .collection(let members):
            appendUInt16(0, to: &bytes)
            for member in members {
                bytes.append(IPPTag.memberAttributeName.rawValue)
                appendUInt16(0, to: &bytes)
                appendLengthPrefixed(Array(member.name.utf8), to: &bytes)
                for memberValue in member.values {
                    append(memberValue, name: [], to: &bytes)
                }
            }
            bytes.append(IPPTag.endCollection.rawValue)
            appendUInt16(0, to: &bytes)
            appendUInt16(0, to: &bytes)
        }
    }

    static func appendLengthPrefixed(_ data: [UInt8], to bytes: inout [UInt8]) {
        let count = min(data.count, Int(UInt16.max))
        appendUInt16(UInt16(count), to: &bytes)
        bytes += data.prefix(count)
    }

    static func appendUInt16(_ v: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(v >> 8))
        bytes.append(UInt8(v & 0xFF))
    }

    static func appendUInt32(_ v: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(v >> 24))
        bytes.append(UInt8((v >> 16) & 0xFF))
        bytes.append(UInt8((v >> 8) & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }
}
