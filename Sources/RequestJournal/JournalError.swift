/// Why a journal query, matcher or verification cannot be used, in words a test author can act on.
public enum JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A query parameter the journal does not know.
    case unknownParameter(name: String, known: [String])
    /// A parameter whose value is not of its kind.
    case badParameter(name: String, value: String, expected: String)
    /// A verification or matcher that is not valid JSON of the documented shape.
    case badVerification(String)

    public var description: String {
        switch self {
        case .unknownParameter(let name, let known):
            "unknown parameter \(name); the journal is filtered by \(known.joined(separator: ", "))"
        case .badParameter(let name, let value, let expected):
            "\(name)=\(value): expected \(expected)"
        case .badVerification(let why):
            why
        }
    }
}
