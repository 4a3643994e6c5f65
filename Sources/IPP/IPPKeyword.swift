/// The keyword syntax (RFC 8011 section 5.1.4): a keyword starts with a letter and holds lower-case letters,
/// digits, `-`, `_` and `.`; at most 255 octets.
public enum IPPKeyword {
    /// Whether `text` has keyword syntax.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
            text.utf8.count <= IPPLimits.maximumNameLength
        else { return false }
        return text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
