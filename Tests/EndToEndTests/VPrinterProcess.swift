import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where the built `vprinter` is: `VPRINTER_BINARY`, else beside the test bundle (`swift test` builds both
/// into the same folder).
enum VPrinterBinary {
    static var path: String {
        if let custom = ProcessInfo.processInfo.environment["VPRINTER_BINARY"], !custom.isEmpty { return custom }
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for folder in candidates {
            let path = folder.appendingPathComponent("vprinter").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return candidates[0].appendingPathComponent("vprinter").path
    }
}

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class ScratchFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vprinter-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The longest any wait of these tests lasts before it gives up, in seconds.
let waitLimit: Double = 30

/// One run of the `vprinter` binary: stdout through a pipe read line by line with a deadline, stderr to a file.
/// Started through ChildProcess (no descriptor of the test process leaks into it, every wait is bounded); the
/// pipe is close-on-exec, so that only this printer ever holds its write end.
final class VPrinterProcess {
    let process: ChildProcess
    private let stdoutReadEnd: Int32
    private let stderrPath: String
    private var buffered: [UInt8] = []

    /// Starts `vprinter` with the arguments.
    init(_ arguments: [String], scratch: ScratchFolder) throws {
        stderrPath = scratch.path + "/stderr-\(UUID().uuidString).log"
        let stdout = try ClosingPipe()
        defer { close(stdout.writeEnd) }
        do {
            process = try ChildProcess(
                VPrinterBinary.path, arguments, stdout: .descriptor(stdout.writeEnd), stderr: .file(stderrPath))
        } catch {
            close(stdout.readEnd)
            throw error
        }
        stdoutReadEnd = stdout.readEnd
    }

    /// Kills the printer if it still runs (ChildProcess reaps it, bounded) and closes the pipe.
    deinit {
        process.send(SIGKILL)
        close(stdoutReadEnd)
    }

    /// Starts a printer and waits for its URI lines (one per printer).
    static func printer(_ arguments: [String], scratch: ScratchFolder, printers: Int = 1) throws -> (
        VPrinterProcess, [String]
    ) {
        let running = try VPrinterProcess(arguments, scratch: scratch)
        var uris: [String] = []
        for _ in 0..<printers {
            guard let line = running.readLine() else {
                Issue.record("vprinter printed no URI; stderr: \(running.standardError)")
                throw E2EError.noURI
            }
            uris.append(line)
        }
        return (running, uris)
    }

    /// The next line of stdout, or nil at the end of output or after `waitLimit` seconds.
    func readLine() -> String? {
        let descriptor = stdoutReadEnd
        let deadline = Date().addingTimeInterval(waitLimit)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno != EINTR { return nil }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffered += chunk[..<count]
        }
    }

    /// All of stdout until the process closes it (bounded).
    func readToEnd() -> String {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// What the process wrote on stderr so far.
    var standardError: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Waits (bounded) for the process to exit; returns its status, or nil if it still runs.
    func waitForExit() -> Int32? {
        process.exitStatus(waitingUpTo: waitLimit)
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() -> Int32? {
        process.send(SIGTERM)
        return waitForExit()
    }
}

/// Runs `vprinter` to completion; returns its status, stdout and stderr.
func runVPrinter(_ arguments: [String], scratch: ScratchFolder) throws -> (status: Int32?, out: String, err: String) {
    let running = try VPrinterProcess(arguments, scratch: scratch)
    let out = running.readToEnd()
    let status = running.waitForExit()
    return (status, out, running.standardError)
}

/// Failures of the test harness itself.
enum E2EError: Error {
    /// vprinter exited or stalled before printing its URI.
    case noURI
    /// A socket call failed.
    case socket(String)
    /// The HTTP response could not be read.
    case badResponse(String)
}

/// A small PDF made by ghostscript once per test run (bounded by ChildProcess's limit).
let samplePDF: [UInt8]? = {
    guard let folder = try? ScratchFolder() else { return nil }
    let path = folder.path + "/sample.pdf"
    let made = try? ChildProcess.run(
        "/usr/bin/gs",
        [
            "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=\(path)", "-c",
            "/Helvetica findfont 36 scalefont setfont 72 600 moveto (vprinter) show showpage",
        ])
    guard made?.status == 0 else { return nil }
    return FileManager.default.contents(atPath: path).map(Array.init)
}()
