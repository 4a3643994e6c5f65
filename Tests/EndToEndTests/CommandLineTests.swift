import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The command line contract of DESIGN.md: exit codes and one-line reasons.
@Suite(.timeLimit(.minutes(1))) struct CommandLineTests {
    @Test func theBinaryIsFound() {
        #expect(
            FileManager.default.isExecutableFile(atPath: VPrinterBinary.path),
            "vprinter is not at \(VPrinterBinary.path); build it (swift build) or set VPRINTER_BINARY")
    }

    @Test func helpPrintsUsageAndExitsZero() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["--help"], scratch: scratch)
        #expect(run.status == 0)
        #expect(run.out.contains("usage:"))
        #expect(run.out.contains("--profile"))
    }

    /// The "options:" list of --help comes from the option table, as the VPRINTER_* variables and --config keys do;
    /// docs/config.schema.json names exactly those options (a config file cannot name another, and --version is
    /// no setting), so that neither falls behind the other.
    @Test func theHelpsOptionsAreTheConfigSchemasProperties() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["--help"], scratch: scratch)
        let section = try #require(
            run.out.components(separatedBy: "\noptions:\n").last?.components(separatedBy: "\n\n").first)
        let listed = Set(
            section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  --") else { return nil }
                return String(line.dropFirst(4).prefix { $0 != " " })
            })
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/config.schema.json")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
        let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        #expect(listed.contains("tls") && listed.contains("profile") && listed.count > 20, "\(listed)")
        #expect(listed.subtracting(["config", "version"]) == properties.subtracting(["printers", "$schema"]))
    }

    @Test func versionPrintsOneLineAndExitsZero() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["--version"], scratch: scratch)
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("vprinter "))
        #expect(!run.out.contains("\n"))
    }

    @Test(arguments: [
        ["--bogus"], ["--port", "70000"], ["--port"], ["frobnicate"], ["--on-restart", "resume"], ["exec"],
        ["--journal-size", "-1"], ["--journal-size", "0MiB"], ["--journal-size", "64XB"],
    ])
    func aUsageErrorExitsTwoWithOneLine(arguments: [String]) throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(arguments, scratch: scratch)
        #expect(run.status == 2)
        #expect(run.out.isEmpty, "nothing on stdout")
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1, "\(run.err)")
        #expect(lines.first?.contains("error:") == true)
    }

    @Test func anUnknownProfileExitsOneAndListsTheKnownProfiles() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(
            ["--profile", "no-such-printer", "--port", "0", "--no-dnssd", "--output-dir", scratch.path + "/out"],
            scratch: scratch)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1, "\(run.err)")
        #expect(run.err.contains("no-such-printer"))
        #expect(run.err.contains("duplex-laser") && run.err.contains("color-inkjet"))
    }

    @Test func aPortInUseExitsOne() throws {
        let scratch = try ScratchFolder()
        let (socket, port) = try listeningSocket()
        defer { close(socket) }
        let run = try runVPrinter(
            [
                "--port", "\(port)", "--listen", "127.0.0.1", "--no-dnssd", "--no-render", "--output-dir",
                scratch.path + "/out",
            ],
            scratch: scratch)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("\(port)"))
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
    }

    @Test func anUnwritableOutputFolderExitsOne() throws {
        let scratch = try ScratchFolder()
        // A regular file where a folder should be: not writable as a folder, even for root.
        let blocker = scratch.path + "/file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let run = try runVPrinter(
            ["--port", "0", "--no-dnssd", "--no-render", "--output-dir", blocker + "/out"], scratch: scratch)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("output folder"))
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
    }

    @Test func profilesListsTheShippedProfiles() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["profiles"], scratch: scratch)
        #expect(run.status == 0)
        #expect(run.out.contains("duplex-laser") && run.out.contains("color-inkjet"))
    }

    /// A socket listening on a free loopback port.
    func listeningSocket() throws -> (Int32, UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw E2EError.socket("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw E2EError.socket("bind: errno \(errno)")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
