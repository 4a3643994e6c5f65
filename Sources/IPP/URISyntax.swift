/// What makes a `uri` value a URI (RFC 8010 section 3.9 and RFC 8011 section 5.1.6 give the syntax as RFC 3986's):
/// a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`, RFC 3986 section 3.1) and then only the characters
/// RFC 3986 allows, unreserved, reserved and `%` followed by two hexadecimal digits (sections 2.1 to 2.3). No
/// space, no control character, no byte beyond ASCII: a value a request line or header could be built from
/// without ending it.
public enum URISyntax {
    /// Why a value is no URI, for the message of a refusal and a finding.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// It has no scheme, or a scheme with a character RFC 3986 section 3.1 does not allow.
        case noScheme
        /// A byte RFC 3986 does not allow, at this offset (a control character, a space, a byte beyond ASCII).
        case badByte(UInt8, offset: Int)
        /// A `%` without two hexadecimal digits after it, at this offset.
        case badPercentEncoding(offset: Int)

        public var description: String {
            switch self {
            case .noScheme:
                "it does not start with a scheme (RFC 3986 section 3.1)"
            case .badByte(let byte, let offset):
                "byte \(offset + 1) is \(Self.name(of: byte)), which a URI cannot hold (RFC 3986 section 2)"
            case .badPercentEncoding(let offset):
                "the % at byte \(offset + 1) is not followed by two hexadecimal digits (RFC 3986 section 2.1)"
            }
        }

        static func name(of byte: UInt8) -> String {
            switch byte {
            case 0x0D: "a carriage return"
            case 0x0A: "a line feed"
            case 0x20: "a space"
            case 0..<0x20, 0x7F: "control character 0x" + String(byte, radix: 16, uppercase: true)
            case 0x80...: "0x" + String(byte, radix: 16, uppercase: true) + ", beyond ASCII"
            default: "'\(Character(Unicode.Scalar(byte)))'"
            }
        }
    }

    /// Nil when `text` is a URI by the rules above; otherwise the first problem.
    public static func problem(in text: String) -> Problem? {
        let bytes = text.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != bytes.startIndex,
            let first = bytes.first, isLetter(first), bytes[..<colon].allSatisfy(isSchemeByte)
        else { return .noScheme }
        var offset = 0
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(), isHexDigit(high), isHexDigit(low) else {
                    return .badPercentEncoding(offset: offset)
                }
                offset += 3
                continue
            }
            guard isURIByte(byte) else { return .badByte(byte, offset: offset) }
            offset += 1
        }
        return nil
    }

    /// Whether `text` is a URI by the rules above.
    public static func isValid(_ text: String) -> Bool {
        problem(in: text) == nil
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// `ALPHA / DIGIT / "+" / "-" / "."`.
    static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Unreserved (`ALPHA DIGIT - . _ ~`), gen-delims (`: / ? # [ ] @`) and sub-delims (`! $ & ' ( ) * + , ; =`).
    static func isURIByte(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
