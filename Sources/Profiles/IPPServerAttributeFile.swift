import Foundation
import IPP

/// Attribute files in the format `ipptool --ippserver FILE` writes and `ippeveprinter -a FILE` reads: one
/// `ATTR <syntax> <name> <value>[,<value>...]` statement per attribute, collections as
/// `{ MEMBER <syntax> <name> <values> ... }`, `#` comments.
///
/// Strings are double-quoted with `\"` and `\\` escapes (bare words are accepted too); integers and enums are
/// numbers (enums also by keyword); rangeOfInteger `1-999`; resolution `600dpi` or `300x600dpi` (`dpcm` too);
/// dateTime ISO 8601; octetString a quoted string or `<hex>`; out-of-band syntaxes (`unknown`, `no-value`,
/// `unsupported`, ...) take no value.
public enum IPPServerAttributeFile {
    /// The most nested collections read (RFC 8010 does not limit them; CUPS stops at 10).
    public static let maximumNesting = 10

    /// True when the bytes look like an attribute file rather than JSON: the first word is ATTR (after comments).
    public static func looksLikeAttributeFile(_ data: Data) -> Bool {
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            return trimmed.hasPrefix("ATTR ") || trimmed.hasPrefix("ATTR\t")
        }
        return false
    }

    /// Reads the attributes of a file; errors name the file and the line.
    public static func attributes(_ data: Data, file: String) throws(ProfileError) -> [IPPAttribute] {
        var reader = Reader(tokens: tokenize(String(decoding: data, as: UTF8.self)), file: file)
        var attributes: [IPPAttribute] = []
        while let token = reader.next() {
            guard token.text == "ATTR", !token.quoted else {
                throw reader.error(at: token, "expected ATTR, found '\(token.text)'")
            }
            attributes.append(try reader.attribute(depth: 0))
        }
        return attributes
    }

    // MARK: Tokens

    struct Token {
        var text: String
        var quoted: Bool
        var line: Int
    }

    /// Words, quoted strings, `{`, `}` and `,`, with their line numbers; comments dropped.
    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var line = 1
        var index = text.startIndex
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" }
        while index < text.endIndex {
            let c = text[index]
            if c == "\n" {
                line += 1
                index = text.index(after: index)
            } else if isSpace(c) {
                index = text.index(after: index)
            } else if c == "#" {
                while index < text.endIndex, text[index] != "\n" { index = text.index(after: index) }
            } else if c == "{" || c == "}" || c == "," {
                tokens.append(Token(text: String(c), quoted: false, line: line))
                index = text.index(after: index)
            } else if c == "\"" {
                var value = ""
                index = text.index(after: index)
                let start = line
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex {
                        index = text.index(after: index)
                    }
                    if text[index] == "\n" { line += 1 }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
                tokens.append(Token(text: value, quoted: true, line: start))
            } else {
                var word = ""
                while index < text.endIndex, !isSpace(text[index]), !"\n{},\"".contains(text[index]) {
                    word.append(text[index])
                    index = text.index(after: index)
                }
                tokens.append(Token(text: word, quoted: false, line: line))
            }
        }
        return tokens
    }

    struct Reader {
        var tokens: [Token]
        var position = 0
        let file: String

        init(tokens: [Token], file: String) {
            self.tokens = tokens
            self.file = file
        }

        mutating func next() -> Token? {
            guard position < tokens.count else { return nil }
            defer { position += 1 }
            return tokens[position]
        }

        func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

        func error(at token: Token?, _ problem: String) -> ProfileError {
            .invalidValue(file: file, keyPath: "line \(token?.line ?? (tokens.last?.line ?? 1))", problem: problem)
        }

        /// `<syntax> <name> <values>` after ATTR or MEMBER.
        mutating func attribute(depth: Int) throws(ProfileError) -> IPPAttribute {
            guard let syntax = next(), let name = next(), !name.quoted else {
                throw error(at: tokens.last, "an attribute needs a syntax and a name")
            }
            if let tag = IPPServerAttributeFile.outOfBand[syntax.text] {
                return IPPAttribute(name: name.text, values: [.outOfBand(tag)])
            }
            var values: [IPPValue] = []
            repeat {
                if !values.isEmpty { _ = next() }  // the comma
                values.append(try value(syntax: syntax, name: name.text, depth: depth))
            } while peek()?.text == "," && peek()?.quoted == false
            return IPPAttribute(name: name.text, values: values)
        }

        mutating func value(syntax: Token, name: String, depth: Int) throws(ProfileError) -> IPPValue {
            guard let token = next() else { throw error(at: nil, "\(name) has no value") }
            let text = token.text
            func bad(_ what: String) -> ProfileError { error(at: token, "\(name): '\(text)' is not \(what)") }
            switch syntax.text {
            case "collection":
                guard text == "{", !token.quoted else { throw bad("a collection ({ MEMBER ... })") }
                guard depth < IPPServerAttributeFile.maximumNesting else {
                    throw error(at: token, "\(name): collections nested deeper than \(maximumNesting)")
                }
                var members: [IPPAttribute] = []
                while true {
                    guard let word = next() else { throw error(at: token, "\(name): a collection is not closed") }
                    if word.text == "}" && !word.quoted { break }
                    guard word.text == "MEMBER" else { throw error(at: word, "expected MEMBER, found '\(word.text)'") }
                    members.append(try attribute(depth: depth + 1))
                }
                return .collection(members)
            case "integer":
                guard let number = Int32(text) else { throw bad("an integer") }
                return .integer(number)
            case "enum":
                if let number = Int32(text) { return .enumValue(number) }
                let base = ["-default", "-supported", "-ready"].reduce(name) { name, suffix in
                    name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
                }
                guard let number = IPPEnumNames.value(attribute: base, keyword: text) else { throw bad("an enum") }
                return .enumValue(number)
            case "boolean":
                guard text == "true" || text == "false" else { throw bad("true or false") }
                return .boolean(text == "true")
            case "rangeOfInteger":
                let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let low = Int32(parts[0]), let high = Int32(parts[1]), low <= high else {
                    throw bad("a range like 1-99")
                }
                return .rangeOfInteger(low...high)
            case "resolution":
                guard let resolution = IPPServerAttributeFile.resolution(text) else { throw bad("a resolution") }
                return .resolution(resolution)
            case "dateTime":
                guard let date = IPPJSONSyntax.parseDateTime(text) else { throw bad("an ISO 8601 date and time") }
                return .dateTime(date)
            case "octetString":
                if !token.quoted, text.hasPrefix("<"), text.hasSuffix(">") {
                    guard let bytes = IPPServerAttributeFile.hex(String(text.dropFirst().dropLast())) else {
                        throw bad("hexadecimal octets")
                    }
                    return .octetString(bytes)
                }
                return .octetString(Array(text.utf8))
            case "textWithoutLanguage", "text", "textWithLanguage": return .text(text)
            case "nameWithoutLanguage", "name", "nameWithLanguage": return .name(text)
            case "keyword": return .keyword(text)
            case "uri": return .uri(text)
            case "uriScheme": return .uriScheme(text)
            case "charset": return .charset(text)
            case "naturalLanguage": return .naturalLanguage(text)
            case "mimeMediaType": return .mimeMediaType(text)
            default:
                throw error(at: syntax, "\(name): unknown syntax '\(syntax.text)'")
            }
        }
    }

    /// Out-of-band syntaxes, which have no value (RFC 8010 section 3.5.2).
    static let outOfBand: [String: IPPTag] = [
        "unsupported": .unsupported, "unknown": .unknown, "no-value": .noValue, "not-settable": .notSettable,
        "delete-attribute": .deleteAttribute, "admin-define": .adminDefine,
    ]

    /// `600dpi`, `300x600dpi`, `118dpcm`.
    static func resolution(_ text: String) -> IPPResolution? {
        var units = IPPResolution.Units.dotsPerInch
        var body = Substring(text)
        if body.hasSuffix("dpi") {
            body = body.dropLast(3)
        } else if body.hasSuffix("dpcm") {
            body = body.dropLast(4)
            units = .dotsPerCentimeter
        } else {
            return nil
        }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let x = Int32(parts[0]), let y = Int32(parts.last ?? "") else {
            return nil
        }
        return IPPResolution(crossFeed: x, feed: y, units: units)
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }

    // MARK: Writing

    /// Attributes written as ipptool's --ippserver form (for tests and `vprinter profiles --show --ippserver`).
    public static func write(_ attributes: [IPPAttribute]) -> String {
        attributes.map { "ATTR " + statement($0, indent: "") }.joined(separator: "\n") + "\n"
    }

    private static func statement(_ attribute: IPPAttribute, indent: String) -> String {
        guard let first = attribute.values.first else { return "unknown \(attribute.name)" }
        if case .outOfBand(let tag) = first {
            let name = outOfBand.first { $0.value == tag }?.key ?? "unknown"
            return "\(name) \(attribute.name)"
        }
        let values = attribute.values.map { value -> String in
            switch value {
            case .collection(let members):
                let inner = members.map { "\(indent)    MEMBER " + statement($0, indent: indent + "    ") }
                return "{\n" + inner.joined(separator: "\n") + "\n\(indent)}"
            default:
                return IPPText.value(value, quoted: true)
            }
        }
        return "\(IPPText.syntaxName(first)) \(attribute.name) \(values.joined(separator: ","))"
    }
}
