import Foundation

/// One resolved service as `avahi-browse -rpt` prints it.
struct BrowsedService: Equatable {
    var name: String
    var type: String
    var host: String
    var address: String
    var port: Int
    /// The TXT strings in avahi-browse's order (which is the reverse of the wire order).
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
    /// Resolves every service of `type` (for example `_ipp._tcp` or `_print._sub._ipp._tcp`) once.
    static func browse(_ type: String) throws -> [BrowsedService] {
        let output = try run("/usr/bin/avahi-browse", ["-rpt", type]).output
        return output.split(separator: "\n").compactMap { parse(String($0)) }
    }

    /// Browses until `predicate` holds for the services found, or `seconds` have passed; returns the last
    /// result.
    static func waitFor(
        _ type: String, seconds: Double = 5, _ predicate: ([BrowsedService]) -> Bool
    ) async throws -> [BrowsedService] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var found = try browse(type)
        while !predicate(found), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            found = try browse(type)
        }
        return found
    }

    /// Parses one `=;lo;IPv4;name;type;domain;host;address;port;"txt" "txt"` line.
    static func parse(_ line: String) -> BrowsedService? {
        let fields = line.split(separator: ";", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 10, fields[0] == "=", let port = Int(fields[8]) else { return nil }
        return BrowsedService(
            name: unescape(fields[3]), type: fields[4], host: fields[6], address: fields[7], port: port,
            txt: quotedStrings(fields[9]))
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

    /// The strings between double quotes in `"a=b" "c=d"`.
    static func quotedStrings(_ text: String) -> [String] {
        text.split(separator: "\" \"", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.filter { !$0.isEmpty }
    }

    /// Runs a program to its end and returns its exit status and standard output.
    ///
    /// Uses posix_spawn and waitpid rather than Foundation's Process, whose wait for a child that exits at
    /// once sometimes never returns on Linux. The output goes through a temporary file, so a daemon that the
    /// program starts in the background cannot hold the read open.
    @discardableResult
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("dnssd-test-\(UInt64.random(in: 0..<UInt64.max)).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}
