/// The secrets a request may carry, and the journal's form of them: each value of an attribute that holds a secret,
/// and the password of a URI's user information, kept as the text `(redacted, N bytes)` with the value's own tag
/// (a test still sees a wrong tag and the length sent, never the secret). Redacted where a journal entry is built
/// (RequestJournal's `RequestGroups` and `IPPPart`), so that the journal's memory, its API, its events, its page and
/// its file never hold one, and where a job record names what it ignored (PrinterCore's `IgnoredAttributes`).
public enum SecretAttributes {
    /// The attributes whose values are secrets: the PIN that releases a job at the printer (PWG 5100.11 section
    /// 7.1.2 job-password) and the password of an encrypted PDF (PWG 5100.13 section 6.1.2 document-password).
    public static let names: Set<String> = ["job-password", "document-password"]

    /// The text a secret of `byteCount` bytes is kept as.
    public static func redactionText(byteCount: Int) -> String {
        "(redacted, \(byteCount) \(byteCount == 1 ? "byte" : "bytes"))"
    }

    /// The groups with every secret redacted; the same array, not copied, when they hold none.
    public static func redacted(_ groups: [IPPAttributeGroup]) -> [IPPAttributeGroup] {
        guard holdsSecrets(groups) else { return groups }
        return groups.map { group in
            var kept = group
            kept.attributes = group.attributes.map { redacted($0) }
            return kept
        }
    }

    /// The attribute with its secrets redacted: every value of an attribute named in `names`, the password in a
    /// `uri` value's user information, and so in each member of a collection.
    public static func redacted(_ attribute: IPPAttribute) -> IPPAttribute {
        guard holdsSecret(attribute) else { return attribute }
        let isSecret = names.contains(attribute.name)
        return IPPAttribute(
            name: attribute.name, values: attribute.values.map { isSecret ? redacted($0) : redactedMembers($0) })
    }

    /// Whether any attribute of the groups holds a secret.
    public static func holdsSecrets(_ groups: [IPPAttributeGroup]) -> Bool {
        groups.contains { $0.attributes.contains(where: holdsSecret) }
    }

    /// Whether the attribute holds anything `redacted` changes.
    static func holdsSecret(_ attribute: IPPAttribute) -> Bool {
        if names.contains(attribute.name) { return true }
        return attribute.values.contains { value in
            switch value {
            case .uri(let text): URIPassword.range(in: text) != nil
            case .collection(let members): members.contains(where: holdsSecret)
            default: false
            }
        }
    }

    /// A value that is no secret itself, with the secrets in it redacted: a URI's password, a collection's members.
    private static func redactedMembers(_ value: IPPValue) -> IPPValue {
        switch value {
        case .uri(let text):
            guard let range = URIPassword.range(in: text) else { return value }
            var kept = text
            kept.replaceSubrange(range, with: redactionText(byteCount: text[range].utf8.count))
            return .uri(kept)
        case .collection(let members):
            return .collection(members.map(redacted))
        default:
            return value
        }
    }

    /// A secret value as the journal keeps it: its tag, and the redaction text for its bytes. Out-of-band values
    /// (no-value, unknown) hold nothing and are kept.
    static func redacted(_ value: IPPValue) -> IPPValue {
        func text(_ count: Int) -> String { redactionText(byteCount: count) }
        switch value {
        case .outOfBand: return value
        case .octetString(let bytes): return .octetString(Array(text(bytes.count).utf8))
        case .text(let secret): return .text(text(secret.utf8.count))
        case .name(let secret): return .name(text(secret.utf8.count))
        case .keyword(let secret): return .keyword(text(secret.utf8.count))
        case .uri(let secret): return .uri(text(secret.utf8.count))
        case .textWithLanguage(let language, let secret):
            return .textWithLanguage(language: language, text: text(secret.utf8.count))
        case .nameWithLanguage(let language, let secret):
            return .nameWithLanguage(language: language, name: text(secret.utf8.count))
        case .other(let tag, let bytes): return .other(tag: tag, bytes: Array(text(bytes.count).utf8))
        default:
            // A number, date, resolution, range or collection: the length of its encoding (RFC 8010 section 3.9)
            // after its tag and the two length fields.
            var encoded: [UInt8] = []
            IPPEncoder.append(IPPAttribute(name: "", values: [value]), to: &encoded)
            let length = max(0, encoded.count - 5)
            return .other(tag: value.tag, bytes: Array(text(length).utf8))
        }
    }
}

/// The password of a URI's user information (RFC 3986 section 3.2.1: "user:password" is deprecated, and an
/// application should not render as clear text any data after the first colon in userinfo).
enum URIPassword {
    /// Where the password is in `uri` (after the first colon of the userinfo, up to the `@`), or nil when it has
    /// none.
    static func range(in uri: String) -> Range<String.Index>? {
        // Quick way out for the common case: no `@`, no userinfo.
        guard uri.utf8.contains(UInt8(ascii: "@")), let slashes = uri.firstRange(of: "://") else { return nil }
        let authority = uri[slashes.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = authority[..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return nil }
        let start = uri.index(after: colon)
        return start < at ? start..<at : nil
    }
}
