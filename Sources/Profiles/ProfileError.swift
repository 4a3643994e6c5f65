/// Why a printer profile could not be used; every case names the file and, where it applies, the key path.
///
/// Key paths are written the way a person finds them in the file: `media[2].margins.top`. The
/// `description` is one line a person can act on, used by the command line when it refuses to start.
public enum ProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `<name>.json` in any search directory; `known` lists the profile names that exist.
    case unknownProfile(name: String, known: [String])
    /// The file could not be read (missing, a directory, no permission).
    case unreadable(file: String, reason: String)
    /// The file is not well-formed JSON.
    case malformedJSON(file: String, reason: String)
    /// A key that the profile format does not have (often a typo).
    case unknownKey(file: String, keyPath: String)
    /// A required key is absent.
    case missingKey(file: String, keyPath: String)
    /// A value of the wrong JSON type, e.g. a string where a number belongs.
    case wrongType(file: String, keyPath: String, expected: String)
    /// A value of the right type that is not acceptable: a bad PWG media name, a default that is not among the
    /// supported values, an empty list, a number out of range, a raw IPP attribute that cannot be converted.
    case invalidValue(file: String, keyPath: String, problem: String)

    public var description: String {
        switch self {
        case .unknownProfile(let name, let known):
            let list = known.isEmpty ? "none found" : known.joined(separator: ", ")
            return "unknown profile '\(name)' (known profiles: \(list))"
        case .unreadable(let file, let reason):
            return "\(file): cannot read profile: \(reason)"
        case .malformedJSON(let file, let reason):
            return "\(file): not valid JSON: \(reason)"
        case .unknownKey(let file, let keyPath):
            return "\(file): \(keyPath): unknown key"
        case .missingKey(let file, let keyPath):
            return "\(file): \(keyPath): required key is missing"
        case .wrongType(let file, let keyPath, let expected):
            return "\(file): \(keyPath): expected \(expected)"
        case .invalidValue(let file, let keyPath, let problem):
            return "\(file): \(keyPath): \(problem)"
        }
    }

    /// The key path the error names, or nil for errors about the whole file.
    public var keyPath: String? {
        switch self {
        case .unknownProfile, .unreadable, .malformedJSON: nil
        case .unknownKey(_, let path), .missingKey(_, let path), .wrongType(_, let path, _),
            .invalidValue(_, let path, _):
            path
        }
    }
}
