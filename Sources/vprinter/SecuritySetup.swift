import DNSSD
import Foundation
import HTTPServer
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// Turns the TLS and authentication options into what the server and the printers need: the TLS context (a
/// given certificate, or the self-signed one kept in OUTPUT/tls/), the user accounts, and what the printers'
/// attributes and TXT records say about both (docs/security.md).
struct SecuritySetup {
    /// TLS on the port, or nil.
    var tls: TLSConfiguration?
    /// The user accounts and admins.
    var access: AccessControl
    /// What every printer states about its security.
    var printerSecurity: PrinterSecurity

    /// The file names of the generated certificate and key inside OUTPUT/tls/.
    static let certificateName = "vprinter-cert.pem"
    static let keyName = "vprinter-key.pem"

    /// Reads the users files, loads or makes the certificate; a one-line reason when something is wrong.
    static func prepare(
        _ options: SecurityOptions, outputDirectory: String, listen: [String], dnssd: Bool,
        log: @Sendable (String) -> Void
    ) -> Result<SecuritySetup, SetupError> {
        var users = options.users.map { (name: $0.name, password: $0.password) }
        for file in options.usersFiles {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                return .failure(SetupError("cannot read the users file \(file)"))
            }
            do {
                users += try UsersFile.parse(text)
            } catch {
                return .failure(SetupError("the users file \(file), \(error)"))
            }
        }
        if options.requiresAuthentication && users.isEmpty {
            return .failure(SetupError("the users files name no user"))
        }
        if let admin = options.admins.first(where: { name in !users.contains { $0.name == name } }) {
            return .failure(SetupError("--admin \(admin) is not one of the users"))
        }
        let access = AccessControl(
            users: users, admins: options.admins, allowsPlainCredentials: options.allowsPlainCredentials)
        guard options.tls else {
            return .success(
                SecuritySetup(
                    tls: nil, access: access,
                    printerSecurity: PrinterSecurity(transport: .plain, requiresAuthentication: access.isEnabled)))
        }
        var certificate = options.certificateFile
        var key = options.keyFile
        if certificate == nil || key == nil {
            let folder = "\(outputDirectory)/tls"
            certificate = "\(folder)/\(certificateName)"
            key = "\(folder)/\(keyName)"
            let names = hostNames(dnssd: dnssd)
            let addresses = certificateAddresses(listen: listen)
            do {
                switch try SelfSignedCertificate.ensure(
                    certificateFile: certificate!, keyFile: key!, hostNames: names, addresses: addresses)
                {
                case .reused:
                    log("TLS: using the certificate \(certificate!)")
                case .created(let reason):
                    let named = SelfSignedCertificate.subjectNames(hostNames: names, addresses: addresses)
                    log(
                        "TLS: made a self-signed certificate \(certificate!) (\(reason)) for \(named.joined(separator: ", "))"
                    )
                }
            } catch {
                return .failure(SetupError("cannot make the TLS certificate in \(folder): \(error)"))
            }
        }
        let context: TLSContext
        do {
            context = try TLSContext(certificateFile: certificate!, keyFile: key!)
        } catch {
            return .failure(SetupError("\(error)"))
        }
        let security = PrinterSecurity(
            transport: options.tlsOnly ? .tlsOnly : .tlsOffered, requiresAuthentication: access.isEnabled,
            tlsVersion: context.highestVersion)
        return .success(
            SecuritySetup(
                tls: TLSConfiguration(context: context, requiresTLS: options.tlsOnly), access: access,
                printerSecurity: security))
    }

    /// The names the printer answers to: the Avahi host name first (what DNS-SD clients connect to), the
    /// machine's name with and without `.local`, and localhost.
    static func hostNames(dnssd: Bool) -> [String] {
        var names: [String] = []
        if dnssd, let avahi = DNSSDHostName.query() { names.append(avahi) }
        if let host = LocalAddresses.hostName {
            names.append(host.contains(".") ? host : "\(host).local")
            names.append(host)
        }
        names.append("localhost")
        return names
    }

    /// The addresses the printer answers on: the --listen addresses, or every interface's when it listens on
    /// all, and loopback.
    static func certificateAddresses(listen: [String]) -> [String] {
        let wildcard = listen.isEmpty || listen.contains { ["::", "0.0.0.0", "[::]"].contains($0) }
        return (wildcard ? LocalAddresses.interfaceAddresses : listen) + ["127.0.0.1", "::1"]
    }

    /// Whether the printer listens beyond loopback (all addresses, or any address that is not loopback).
    static func listensBeyondLoopback(_ listen: [String]) -> Bool {
        listen.isEmpty
            || listen.contains { address in
                !(address.hasPrefix("127.") || address == "::1" || address == "[::1]")
            }
    }
}

/// Why the security options could not be set up: exit status 1 with this line.
struct SetupError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
