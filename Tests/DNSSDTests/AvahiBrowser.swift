import Foundation
import TestSupport

/// One resolved service, as the daemon resolves it.
struct BrowsedService: Equatable {
    var name: String
    var type: String
    var host: String
    var address: String
    var port: Int
    /// The TXT strings in the daemon's order (which is the reverse of the wire order), as avahi-browse lists them.
    var txt: [String]

    /// The TXT record as a dictionary of key to value.
    var txtValues: [String: String] {
        var values: [String: String] = [:]
        for entry in txt {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }
}

/// Runs the real `avahi-browse` client and other helper commands for the tests.
enum AvahiBrowser {
    /// Browses `type` (for example `_ipp._tcp` or `_print._sub._ipp._tcp`) once and resolves the services named
    /// in `names`, each alone through the daemon's D-Bus API. Other engineers' and other tests' services share
    /// the loopback (a fleet of a thousand printers takes `avahi-browse -r` tens of seconds to resolve); only
    /// ours are resolved, so the time does not grow with theirs.
    static func browse(_ type: String, names: Set<String>) throws -> [BrowsedService] {
        // -k: the raw type (_ipp._tcp), not its description.
        let listing = try run("/usr/bin/avahi-browse", ["-ptk", type]).output
        var resolved = Set<String>()
        var found: [BrowsedService] = []
        for line in listing.split(separator: "\n") {
            // "+;lo;IPv4;name;type;domain"
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6, fields[0] == "+" else { continue }
            let name = unescape(fields[3])
            guard names.contains(name), resolved.insert(name).inserted else { continue }
            if let service = try resolve(name: name, type: fields[4]) { found.append(service) }
        }
        return found
    }

    /// Resolves one service through the daemon's ResolveService method (dbus-send); nil when it does not resolve.
    static func resolve(name: String, type: String) throws -> BrowsedService? {
        let reply = try run(
            "/usr/bin/dbus-send",
            [
                "--system", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.Avahi", "/",
                "org.freedesktop.Avahi.Server.ResolveService", "int32:-1", "int32:-1", "string:\(name)",
                "string:\(type)", "string:local", "int32:-1", "uint32:0",
            ])
        guard reply.status == 0 else { return nil }
        return parseResolved(reply.output)
    }

    /// Parses dbus-send's print of a ResolveService reply: interface, protocol, name, type, domain, host,
    /// address protocol, address, port, the TXT strings (as byte arrays, in avahi-browse's order) and flags.
    static func parseResolved(_ reply: String) -> BrowsedService? {
        var strings: [String] = []
        var port: Int?
        var txt: [String] = []
        for line in reply.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("array of bytes \""), line.hasSuffix("\"") {
                txt.append(String(line.dropFirst("array of bytes \"".count).dropLast()))
            } else if line.hasPrefix("string \""), line.hasSuffix("\"") {
                strings.append(String(line.dropFirst("string \"".count).dropLast()))
            } else if line.hasPrefix("uint16 ") {
                port = Int(line.dropFirst("uint16 ".count))
            }
        }
        guard strings.count >= 5, let port else { return nil }
        return BrowsedService(
            name: strings[0], type: strings[1], host: strings[3], address: strings[4], port: port, txt: txt)
    }

    /// Browses until `predicate` holds for the services of `names` found, or `seconds` have passed; returns the
    /// last result.
    static func waitFor(
        _ type: String, names: Set<String>, seconds: Double = 10, _ predicate: ([BrowsedService]) -> Bool
    ) async throws -> [BrowsedService] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var found = try browse(type, names: names)
        while !predicate(found), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            found = try browse(type, names: names)
        }
        return found
    }

    /// Undoes avahi-browse's `\032`-style decimal escapes (and `\.`-style ones).
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var scalars = Array(text.utf8)[...]
        while let byte = scalars.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = scalars.first else {
                bytes.append(byte)
                continue
            }
            let digits = scalars.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }),
                let value = UInt8(String(decoding: digits, as: UTF8.self))
            {
                bytes.append(value)
                scalars.removeFirst(3)
            } else {
                bytes.append(next)
                scalars.removeFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The longest a helper command may run before it is killed and the call fails, in seconds. The slowest,
    /// starting a daemon, waits for it at most 10 s (ANSWER_LIMIT of vptest.services.avahi_daemon).
    static let commandLimit: Double = 45

    /// Runs a program to its end and returns its exit status and standard output; kills it and throws when it
    /// runs longer than `commandLimit`.
    ///
    /// Through ChildProcess: a child that outlives the call must not keep a copy of another test's pipe or socket
    /// (ChildProcess hands the child none), nor of this call's output (which goes through a file).
    @discardableResult
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run(path, arguments, limit: commandLimit)
        return (result.status, result.outputText)
    }
}
