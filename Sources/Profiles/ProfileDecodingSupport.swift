import IPP

/// Decoding helpers shared by the profile types: any-key coding keys, key paths, unknown-key rejection.

/// A coding key for any object key or array index.
struct ProfileKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

/// A problem found while decoding a profile, with its key path; `PrinterProfile.decode` adds the file name.
struct ProfileIssue: Error {
    /// What is wrong.
    enum Problem: Sendable {
        /// The key is not part of the format.
        case unknownKey
        /// The value is not acceptable, for the reason given.
        case invalid(String)
    }

    var keyPath: String
    var problem: Problem

    init(_ path: [any CodingKey], _ problem: Problem) {
        self.keyPath = Self.render(path)
        self.problem = problem
    }

    /// A coding path as a person reads it: `media[2].margins.top`.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}

extension Decoder {
    /// Throws `ProfileIssue.unknownKey` for the first key of the current object that `Keys` does not list.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let known = Set(keys.allCases.map(\.stringValue))
        let container = try container(keyedBy: ProfileKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !known.contains(key.stringValue) {
            throw ProfileIssue(codingPath + [key], .unknownKey)
        }
    }
}

extension KeyedDecodingContainer {
    /// The key path of a value of this container, or of an element of a list under it.
    func path(_ key: Key, _ index: Int? = nil) -> [any CodingKey] {
        var path = codingPath + [key]
        if let index { path.append(ProfileKey(intValue: index)) }
        return path
    }

    /// A non-empty list, or the issue "must not be empty".
    func decodeNonEmpty<T: Decodable>(_ type: [T].Type, forKey key: Key) throws -> [T] {
        let list = try decode(type, forKey: key)
        guard !list.isEmpty else { throw ProfileIssue(path(key), .invalid("must not be empty")) }
        return list
    }

    /// An optional non-empty list: absent (or null, which sets a key back to its default) gives `fallback`, empty
    /// is an issue.
    func decodeNonEmpty<T: Decodable>(_ type: [T].Type, forKey key: Key, default fallback: [T]) throws -> [T] {
        guard contains(key), (try? decodeNil(forKey: key)) != true else { return fallback }
        return try decodeNonEmpty(type, forKey: key)
    }

    /// True when the key is there with a value (null counts as absent: it sets a key back to its default).
    func present(_ key: Key) -> Bool {
        contains(key) && (try? decodeNil(forKey: key)) != true
    }

    /// An optional value: absent gives `fallback`.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? fallback
    }

    /// Checks that a default is one of the supported values.
    func requireMember<T: Equatable>(_ value: T, of list: [T], key: Key) throws {
        guard list.contains(value) else {
            throw ProfileIssue(path(key), .invalid("'\(value)' is not among the supported values"))
        }
    }

    /// Checks each string of a list against a set of allowed values.
    func requireAllowed(_ list: [String], _ allowed: Set<String>, key: Key) throws {
        for (index, value) in list.enumerated() where !allowed.contains(value) {
            let choices = allowed.sorted().joined(separator: ", ")
            throw ProfileIssue(path(key, index), .invalid("'\(value)' is not one of: \(choices)"))
        }
    }

    /// Checks each string of a list for IPP keyword syntax (RFC 8011 section 5.1.4).
    func requireKeywords(_ list: [String], key: Key) throws {
        for (index, value) in list.enumerated() where !IPPKeyword.isValid(value) {
            throw ProfileIssue(path(key, index), .invalid("'\(value)' is not an IPP keyword (a-z, 0-9, -, _, .)"))
        }
    }

    /// Checks an integer range.
    func requireRange(_ value: Int32, _ range: ClosedRange<Int32>, key: Key, index: Int? = nil) throws {
        guard range.contains(value) else {
            throw ProfileIssue(
                path(key, index), .invalid("\(value) is outside \(range.lowerBound)...\(range.upperBound)"))
        }
    }
}
