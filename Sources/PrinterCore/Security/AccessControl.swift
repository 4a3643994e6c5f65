import HTTPServer

/// Who may use the printers of one service: the user accounts of `--user` and `--users`, the admins of
/// `--admin`, and whether credentials may come over plain HTTP (`--allow-plain-auth`).
///
/// Passwords are kept only as SHA-256 digests and compared in constant time. With no accounts, nothing is
/// asked and everything stays as open as before.
public struct AccessControl: Sendable {
    /// One user: a name and the digest of their password.
    struct Account: Sendable {
        var name: String
        var passwordDigest: [UInt8]
    }

    /// The realm of `WWW-Authenticate`, what a browser or CUPS shows when it asks for a password.
    static let realm = "vprinter"

    private let accounts: [Account]
    /// The names of the admins.
    public let admins: Set<String>
    /// Whether Basic credentials are accepted over plain HTTP.
    public let allowsPlainCredentials: Bool

    /// No accounts: every request is anonymous and allowed, as without `--user`.
    public static let open = AccessControl(users: [], admins: [], allowsPlainCredentials: false)

    /// Creates the accounts; a name given twice keeps its last password.
    public init(users: [(name: String, password: String)], admins: [String], allowsPlainCredentials: Bool) {
        var byName: [String: Account] = [:]
        var order: [String] = []
        for user in users {
            if byName[user.name] == nil { order.append(user.name) }
            byName[user.name] = Account(
                name: user.name, passwordDigest: ConstantTime.digest(of: Array(user.password.utf8)))
        }
        accounts = order.compactMap { byName[$0] }
        self.admins = Set(admins)
        self.allowsPlainCredentials = allowsPlainCredentials
    }

    /// Whether credentials are asked for at all.
    public var isEnabled: Bool { !accounts.isEmpty }

    /// The user names, in the order given.
    public var userNames: [String] { accounts.map(\.name) }

    /// Who the request says the client is, checked against the accounts.
    package func identify(_ request: HTTPRequest) -> ClientIdentity {
        guard isEnabled, let authorization = request.authorization else { return .anonymous }
        switch authorization {
        case .basic(let user, let password):
            if !request.isEncrypted && !allowsPlainCredentials { return .plainCredentials }
            // Every account is compared, so the time taken does not say whether the name exists.
            let digest = ConstantTime.digest(of: Array(password.utf8))
            var match: Account?
            for account in accounts {
                let passwordMatches = ConstantTime.equalDigests(digest, account.passwordDigest)
                if passwordMatches && account.name == user { match = account }
            }
            guard let match else { return .refused(reason: "wrong user name or password for '\(user)'") }
            return .user(name: match.name, isAdmin: admins.contains(match.name))
        case .bearer:
            // Bearer is the API token's scheme: checked by the API, anonymous to everything else.
            return .anonymous
        case .other(let scheme):
            return .refused(reason: "the \(scheme) scheme is not supported; use Basic")
        case .malformed(let reason):
            return .refused(reason: "unreadable Authorization: \(reason)")
        }
    }

    /// The `WWW-Authenticate` challenge of a 401 (RFC 7617 section 2, with its charset parameter).
    package static var challenge: String { "Basic realm=\"\(realm)\", charset=\"UTF-8\"" }
}

/// Who a request comes from, as far as its credentials tell.
package enum ClientIdentity: Sendable, Equatable {
    /// No credentials (or none asked for).
    case anonymous
    /// A user whose password matched.
    case user(name: String, isAdmin: Bool)
    /// Basic credentials over plain HTTP while only TLS may carry them: not looked at.
    case plainCredentials
    /// Credentials that do not match, or cannot be read.
    case refused(reason: String)

    /// The authenticated user's name.
    package var userName: String? {
        if case .user(let name, _) = self { return name }
        return nil
    }

    /// Whether the client is an authenticated admin.
    package var isAdmin: Bool {
        if case .user(_, let isAdmin) = self { return isAdmin }
        return false
    }
}
