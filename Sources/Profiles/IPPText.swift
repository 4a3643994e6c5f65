import IPP

/// IPP attributes as CUPS's ipptool shows them: `name (1setOf keyword) = a,b` (its `-v` / `-t` text form), and the
/// value spellings of its `--ippserver` attribute files.
public enum IPPText {
    /// One attribute as ipptool prints it, e.g. `sides-supported (1setOf keyword) = one-sided,two-sided-long-edge`.
    public static func line(_ attribute: IPPAttribute) -> String {
        guard let first = attribute.values.first else { return "\(attribute.name) (no-value) =" }
        let syntax = syntaxName(first)
        let type = attribute.values.count > 1 ? "1setOf \(syntax)" : syntax
        let values = attribute.values.map { value(of: $0, attribute: attribute.name) }
        return "\(attribute.name) (\(type)) = \(values.joined(separator: ","))"
    }

    /// The ipptool name of a value's syntax.
    public static func syntaxName(_ value: IPPValue) -> String {
        switch value {
        case .integer: "integer"
        case .boolean: "boolean"
        case .enumValue: "enum"
        case .octetString: "octetString"
        case .dateTime: "dateTime"
        case .resolution: "resolution"
        case .rangeOfInteger: "rangeOfInteger"
        case .collection: "collection"
        case .textWithLanguage: "textWithLanguage"
        case .nameWithLanguage: "nameWithLanguage"
        case .text: "textWithoutLanguage"
        case .name: "nameWithoutLanguage"
        case .keyword: "keyword"
        case .uri: "uri"
        case .uriScheme: "uriScheme"
        case .charset: "charset"
        case .naturalLanguage: "naturalLanguage"
        case .mimeMediaType: "mimeMediaType"
        case .outOfBand(let tag):
            IPPServerAttributeFile.outOfBand.first { $0.value == tag }?.key ?? "unknown"
        case .other(let tag, _): "0x\(String(tag.rawValue, radix: 16))"
        }
    }

    /// A value in ipptool's text form: enums by keyword, collections as `{member=value ...}`.
    static func value(of value: IPPValue, attribute: String) -> String {
        switch value {
        case .enumValue(let number):
            return IPPJSONSyntax.enumKeyword(attribute: attribute, value: number) ?? String(number)
        case .collection(let members):
            let parts = members.map { member in
                "\(member.name)="
                    + member.values.map { self.value(of: $0, attribute: member.name) }.joined(
                        separator: ",")
            }
            return "{" + parts.joined(separator: " ") + "}"
        default:
            return Self.value(value, quoted: false)
        }
    }

    /// A value as an `--ippserver` file spells it (`quoted`: strings in double quotes with `\` escapes), or bare.
    static func value(_ value: IPPValue, quoted: Bool) -> String {
        func string(_ text: String) -> String {
            guard quoted else { return text }
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        switch value {
        case .integer(let number), .enumValue(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .rangeOfInteger(let range): return "\(range.lowerBound)-\(range.upperBound)"
        case .resolution(let resolution):
            let units = resolution.units == .dotsPerCentimeter ? "dpcm" : "dpi"
            return resolution.crossFeed == resolution.feed
                ? "\(resolution.crossFeed)\(units)" : "\(resolution.crossFeed)x\(resolution.feed)\(units)"
        case .dateTime(let date): return date.iso8601
        case .octetString(let bytes):
            let printable = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            if printable { return string(String(decoding: bytes, as: UTF8.self)) }
            return "<" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + ">"
        case .collection: return "{...}"
        case .outOfBand: return ""
        case .other(_, let bytes): return "<" + bytes.map { String($0, radix: 16) }.joined() + ">"
        default: return string(value.stringValue ?? "")
        }
    }
}
