import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// The TLS and authentication options of the command line (docs/security.md).
struct SecurityOptions: Sendable, Equatable {
    /// `--tls`, `--tls-only` or a given certificate: the port speaks TLS too.
    var tls = false
    /// `--tls-only`: plain HTTP is refused.
    var tlsOnly = false
    var certificateFile: String?
    var keyFile: String?
    /// `--user NAME:PASSWORD`, in order.
    var users: [User] = []
    /// `--users FILE`.
    var usersFiles: [String] = []
    /// `--admin NAME`.
    var admins: [String] = []
    /// `--allow-plain-auth`.
    var allowsPlainCredentials = false

    /// One `--user`.
    struct User: Sendable, Equatable {
        var name: String
        var password: String
    }

    /// Whether credentials are asked for.
    var requiresAuthentication: Bool { !users.isEmpty || !usersFiles.isEmpty }

    /// Takes one option and its value.
    mutating func parse(_ option: String, value: String?) throws(UsageError) {
        switch option {
        case "--tls": tls = true
        case "--tls-only":
            tls = true
            tlsOnly = true
        case "--tls-cert":
            tls = true
            certificateFile = value
        case "--tls-key":
            tls = true
            keyFile = value
        case "--user":
            guard let value, let entry = UsersFile.entry(value) else {
                throw UsageError("--user needs NAME:PASSWORD, with a name before the colon")
            }
            users.append(User(name: entry.name, password: entry.password))
        case "--users": if let value { usersFiles.append(value) }
        case "--admin":
            guard let value, !value.isEmpty else { throw UsageError("--admin needs a user name") }
            admins.append(value)
        case "--allow-plain-auth": allowsPlainCredentials = true
        default: throw UsageError("unknown option '\(option)'")
        }
    }

    /// Checks the options together, once all are read (`hasAPIToken`: `--api-token` was given).
    func validate(hasAPIToken: Bool) throws(UsageError) {
        if (certificateFile == nil) != (keyFile == nil) {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        if !admins.isEmpty && !requiresAuthentication {
            throw UsageError("--admin names a user of --user or --users; give those too")
        }
        if allowsPlainCredentials && !requiresAuthentication && !hasAPIToken {
            throw UsageError("--allow-plain-auth needs --user, --users or --api-token")
        }
        if requiresAuthentication && !tls && !allowsPlainCredentials {
            throw UsageError(
                "--user sends passwords over TLS: add --tls (or --allow-plain-auth to accept them in the clear)")
        }
        if usersFiles.isEmpty, let admin = admins.first(where: { name in !users.contains { $0.name == name } }) {
            throw UsageError("--admin \(admin) is not one of the --user names")
        }
    }
}
