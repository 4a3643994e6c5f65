import DNSSD
import Foundation
import HTTPServer
import IPP
import PrinterCore
import PrinterHTTP
import Profiles
import VirtualPrinterKit

/// `vprinter clone URI|SERVICE-NAME [--out FILE] [--name NAME]`: asks a printer (ipp://, ipps:// without a check
/// of its certificate, `user:password@` sent as HTTP Basic) for Get-Printer-Attributes
/// `all,media-col-database` (and its DNS-SD TXT record when it has one) and writes a profile that makes vprinter
/// answer the same (docs/profiles.md, "Cloning a printer").
struct CloneCommand {
    let options: CommandLineOptions

    /// TXT keys that describe the network or the moment, not the printer: not copied into clones.
    static let volatileTXTKeys: Set<String> = ["adminurl", "uuid", "rp", "tls", "air", "priority"]

    /// How long to look for the TXT record of a printer given by URI, in seconds.
    static let txtBrowseSeconds = 3.0

    func run() -> Int32 {
        guard let source = options.cloneSource else {
            Console.log("error: clone needs a printer URI (ipp:// or ipps://host:port/path) or a DNS-SD service name")
            return 2
        }
        var uri = source
        var txt: [DNSSDResolvedService.TXTEntry]?
        if FileManager.default.fileExists(atPath: source) {
            // An ipptool --ippserver capture: made into a JSON profile without asking anyone.
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: source))
                let attributes = try IPPServerAttributeFile.attributes(data, file: source)
                return write(
                    ProfileCloner.clone(attributes: attributes, txt: nil, name: options.name, source: source),
                    count: attributes.count, txtFound: false)
            } catch {
                Console.log("error: \(error)")
                return 1
            }
        } else if Self.httpURL(of: source) == nil {
            do {
                // A printer that takes TLS only (--tls-only) advertises _ipps._tcp alone.
                var scheme = "ipp"
                let service: DNSSDResolvedService
                do {
                    service = try DNSSDResolver.resolve(name: source, type: "_ipp._tcp", timeout: options.timeout)
                } catch {
                    guard
                        let secure = try? DNSSDResolver.resolve(
                            name: source, type: "_ipps._tcp", timeout: options.timeout)
                    else { throw error }
                    service = secure
                    scheme = "ipps"
                }
                let path = service.txt.first { $0.key.lowercased() == "rp" }?.value ?? "ipp/print"
                let host = service.address.contains(":") ? "[\(service.address)]" : service.address
                uri = "\(scheme)://\(host):\(service.port)/\(path)"
                txt = service.txt
                Console.log("'\(source)' is \(uri)")
            } catch {
                Console.log("error: \(error)")
                return 1
            }
        }
        let attributes: [IPPAttribute]
        do {
            attributes = try Self.printerAttributes(uri: uri, timeout: options.timeout)
        } catch {
            Console.log("error: \(Self.withoutUserInfo(uri)): \(error.message)")
            return 1
        }
        if txt == nil { txt = Self.findTXT(uri: uri, attributes: attributes) }
        var clone = ProfileCloner.clone(
            attributes: attributes, txt: nil, name: options.name, source: Self.withoutUserInfo(uri))
        if let txt {
            clone = clone.withTXTOverrides(Self.txtOverrides(for: clone, original: txt))
        }
        return write(clone, count: attributes.count, txtFound: txt != nil)
    }

    /// Writes the clone to `--out` or stdout, its warnings to stderr.
    private func write(_ clone: ProfileCloner.Clone, count: Int, txtFound: Bool) -> Int32 {
        for warning in clone.warnings { Console.log("warning: \(warning)") }
        guard let file = options.renderOutput else {
            Console.out(clone.text, terminator: "")
            return 0
        }
        do {
            try clone.text.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            Console.log("error: cannot write \(file): \(error.localizedDescription)")
            return 1
        }
        Console.log("wrote \(file) (\(count) attributes, TXT record \(txtFound ? "copied" : "not found"))")
        return 0
    }

    /// Get-Printer-Attributes `all,media-col-database` over IPP/2.0 (IPP/1.1 when the printer refuses 2.0).
    static func printerAttributes(uri: String, timeout: Double) throws(CloneFailure) -> [IPPAttribute] {
        guard let url = httpURL(of: uri) else { throw CloneFailure("not an ipp:// or ipps:// URI") }
        for version in [IPPVersion.v2_0, .v1_1] {
            var group = IPPAttributeGroup(tag: .operationAttributes)
            group.append("attributes-charset", .charset("utf-8"))
            group.append("attributes-natural-language", .naturalLanguage("en"))
            group.append("printer-uri", .uri(withoutUserInfo(uri)))
            group.append("requesting-user-name", .name("vprinter-clone"))
            group.append(
                IPPAttribute(name: "requested-attributes", values: [.keyword("all"), .keyword("media-col-database")]))
            let request = IPPMessage(version: version, operation: .getPrinterAttributes, requestID: 1, groups: [group])
            let response: HTTPClient.Response
            do {
                response = try HTTPClient.post(
                    url, contentType: "application/ipp", body: IPPEncoder.encode(request), timeout: timeout)
            } catch {
                throw CloneFailure("\(error)")
            }
            guard response.status == 200 else { throw CloneFailure("HTTP status \(response.status)") }
            let message: IPPMessage
            do {
                message = try IPPDecoder().decode(response.body).message
            } catch {
                throw CloneFailure("the answer is not IPP: \(error)")
            }
            if message.status == .serverErrorVersionNotSupported && version == .v2_0 { continue }
            guard message.status.rawValue < 0x0100 else {
                throw CloneFailure("Get-Printer-Attributes answered \(message.status)")
            }
            let attributes = message.groups.filter { $0.tag == .printerAttributes }.flatMap(\.attributes)
            guard !attributes.isEmpty else { throw CloneFailure("the printer sent no printer attributes") }
            return attributes
        }
        throw CloneFailure("the printer speaks neither IPP/2.0 nor IPP/1.1")
    }

    /// `http://host:port/path` for `ipp://host[:port]/path`, `https://...` for `ipps://...` (port 631 when none;
    /// `user:password@` kept, for HTTP Basic); http and https URLs as they are; nil for anything else.
    static func httpURL(of uri: String) -> String? {
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return uri }
        let scheme: String
        if uri.hasPrefix("ipp://") {
            scheme = "http"
        } else if uri.hasPrefix("ipps://") {
            scheme = "https"
        } else {
            return nil
        }
        let rest = uri.drop { $0 != "/" }.dropFirst(2)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = String(rest[..<slash])
        let path = slash == rest.endIndex ? "/" : String(rest[slash...])
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let hasPort = host.hasPrefix("[") ? host.contains("]:") : host.contains(":")
        if !hasPort { authority += ":631" }
        return "\(scheme)://\(authority)\(path)"
    }

    /// `uri` without the `user:password@` of its authority (the printer-uri a request names).
    static func withoutUserInfo(_ uri: String) -> String {
        guard let schemeEnd = uri.range(of: "://") else { return uri }
        let rest = uri[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return uri }
        return String(uri[..<schemeEnd.upperBound]) + rest[rest.index(after: at)...]
    }

    /// The TXT record of the `_ipp._tcp` (for ipps, `_ipps._tcp`) service whose UUID is the printer's, when Avahi
    /// answers; nil otherwise.
    static func findTXT(uri: String, attributes: [IPPAttribute]) -> [DNSSDResolvedService.TXTEntry]? {
        guard let uuid = attributes.first(where: { $0.name == "printer-uuid" })?.value?.stringValue else { return nil }
        let bare = uuid.lowercased().replacingOccurrences(of: "urn:uuid:", with: "")
        let type = uri.hasPrefix("ipps://") || uri.hasPrefix("https://") ? "_ipps._tcp" : "_ipp._tcp"
        guard let services = try? DNSSDResolver.browse(type: type, duration: txtBrowseSeconds) else {
            return nil
        }
        return services.first { service in
            service.txt.contains { $0.key.lowercased() == "uuid" && $0.value.lowercased() == bare }
        }?.txt
    }

    /// The TXT keys a clone must set so that its record says what the original's says (volatile keys aside):
    /// changed and added keys get the original value, keys the original lacks are removed.
    static func txtOverrides(for clone: ProfileCloner.Clone, original: [DNSSDResolvedService.TXTEntry])
        -> [(key: String, value: String?)]
    {
        guard let profile = try? clone.profile(file: "clone.json") else { return [] }
        let printer = Printer.offline(profile: profile, name: profile.name)
        let derived = printer.advertisement.txtRecord(host: "localhost", port: 631, overrides: []).entries
        var overrides: [(key: String, value: String?)] = []
        for entry in original where !volatileTXTKeys.contains(entry.key.lowercased()) {
            let mine = derived.first { $0.key.lowercased() == entry.key.lowercased() }
            if mine?.value != entry.value { overrides.append((entry.key, entry.value)) }
        }
        for entry in derived where !volatileTXTKeys.contains(entry.key.lowercased()) {
            if !original.contains(where: { $0.key.lowercased() == entry.key.lowercased() }) {
                overrides.append((entry.key, nil))
            }
        }
        return overrides.filter { $0.key.lowercased() != "txtvers" }
    }
}

/// Why a printer could not be asked: one line for the user.
struct CloneFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
