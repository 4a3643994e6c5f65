/// The credentials a request carries in its `Authorization` header (RFC 9110 section 11.6.2), parsed; the
/// server only reports them, the handler decides what they allow.
public enum HTTPAuthorization: Sendable, Equatable {
    /// `Basic` (RFC 7617): a user name and password, UTF-8.
    case basic(user: String, password: String)
    /// `Bearer` (RFC 6750): an opaque token.
    case bearer(token: String)
    /// A scheme this server does not read (`Digest`, `Negotiate`...), lower-cased.
    case other(scheme: String)
    /// A header that cannot be read: `reason` says why, for logs (never the credentials).
    case malformed(reason: String)

    /// The longest credentials read; longer ones are malformed (the head limit bounds them anyway).
    static let maximumCredentialsLength = 4096

    /// The credentials of a request: nil without an `Authorization` field, malformed with several.
    public static func parse(_ headers: HTTPHeaders) -> HTTPAuthorization? {
        let values = headers.values("Authorization")
        guard let first = values.first else { return nil }
        guard values.count == 1 else { return .malformed(reason: "several Authorization fields") }
        return parse(first)
    }

    /// Parses one field value: `scheme SP credentials` (RFC 9110 section 11.4), the scheme in any case.
    public static func parse(_ value: String) -> HTTPAuthorization {
        let text = Substring(value).trimmingSpacesAndTabs
        guard text.utf8.count <= maximumCredentialsLength else { return .malformed(reason: "credentials too long") }
        let scheme = text.prefix { $0 != " " && $0 != "\t" }
        guard !scheme.isEmpty, scheme.utf8.allSatisfy(ASCII.isTokenByte) else {
            return .malformed(reason: "no authentication scheme")
        }
        let credentials = text[scheme.endIndex...].trimmingSpacesAndTabs
        if HTTPHeaders.namesMatch(String(scheme), "Basic") { return basic(credentials) }
        if HTTPHeaders.namesMatch(String(scheme), "Bearer") {
            guard !credentials.isEmpty, credentials.utf8.allSatisfy(isToken68Byte) else {
                return .malformed(reason: "a Bearer token must be token68")
            }
            return .bearer(token: String(credentials))
        }
        return .other(scheme: String(scheme).lowercased())
    }

    /// RFC 7617 section 2: base64 of `user-id ":" password`; the user-id holds no colon and no control
    /// characters, both are UTF-8.
    private static func basic(_ credentials: Substring) -> HTTPAuthorization {
        guard !credentials.isEmpty else { return .malformed(reason: "Basic without credentials") }
        guard let bytes = Base64.decode(credentials.utf8) else {
            return .malformed(reason: "Basic credentials are not base64")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            return .malformed(reason: "Basic credentials without a colon")
        }
        let user = bytes[..<colon]
        let password = bytes[(colon + 1)...]
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        guard !user.contains(where: isControl), !password.contains(where: isControl) else {
            return .malformed(reason: "control characters in Basic credentials")
        }
        guard let userText = String(validating: user, as: UTF8.self),
            let passwordText = String(validating: password, as: UTF8.self)
        else {
            return .malformed(reason: "Basic credentials are not UTF-8")
        }
        return .basic(user: userText, password: passwordText)
    }

    /// token68 (RFC 9110 section 11.2): letters, digits, `-._~+/`, then `=` padding.
    private static func isToken68Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}
