/// The `--users FILE` format: one `name:password` per line; blank lines and lines starting with `#` are
/// skipped, the password is everything after the first colon (it may hold colons itself).
public enum UsersFile {
    /// A line that is not `name:password`.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses the text of a users file.
    public static func parse(_ text: String) throws(ParseError) -> [(name: String, password: String)] {
        var users: [(name: String, password: String)] = []
        // "\r\n" is one Character in Swift, and a newline: CRLF files split like LF ones.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let user = entry(String(line)) else {
                throw ParseError(line: index + 1, message: "expected name:password")
            }
            users.append(user)
        }
        return users
    }

    /// One `name:password` (also the value of `--user`): nil without a colon or with an empty name, or a name
    /// with control characters.
    public static func entry(_ text: String) -> (name: String, password: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = String(text[..<colon])
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return (name, String(text[text.index(after: colon)...]))
    }
}
