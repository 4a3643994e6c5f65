import Foundation
import Glibc
import PrintModel
import Synchronization

/// Ghostscript (`gs`) run as a child of the render worker to interpret one PostScript document into PWG Raster
/// pages on a pipe, which the worker then streams onto sheets like any raster document.
///
/// Why a child process and not libgs in the worker: Debian's libgs keeps one interpreter per process (it is not
/// built thread-safe), a hung or crashed interpreter costs only the child, the worker can stop it on a deadline
/// and say why, and the worker keeps no link to Ghostscript (PostScript is then reported unsupported where gs
/// is missing). The child always runs with `-dSAFER` (no file access beyond the document, no deleting or
/// renaming, no `%pipe%`), inherits the worker's setrlimit limits (address space, CPU time) and its process
/// group (the printer kills the group when the worker overruns), is held to `-K` bytes of interpreter memory
/// and is killed after ``RenderLimits/maximumInterpreterSeconds``.
final class GhostscriptProcess {
    /// The Ghostscript executable: `VPRINTER_GHOSTSCRIPT`, else `gs` on PATH.
    static func locate() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["VPRINTER_GHOSTSCRIPT"], access(path, X_OK) == 0 { return path }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/gs"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Lines of the interpreter's messages kept for the job-state-message.
    static let keptMessageLines = 4
    /// Bytes of the interpreter's messages kept; the rest is read and dropped.
    static let keptMessageBytes = 64 * 1024

    private let pid: pid_t
    /// The read end of the pipe the interpreter writes PWG Raster into.
    let output: DescriptorInput
    private let messages: MessageCapture
    private let watch = Watch()
    private let limits: RenderLimits

    /// What the deadline timer and the worker thread share.
    private final class Watch: Sendable {
        struct State {
            var finished = false
            var killedForTime = false
        }
        let state = Mutex(State())
    }

    /// Starts `gs` on `document`, rendering at `dpi` in sRGB (or sGray when `gray`) on pages of `width` x
    /// `height` points unless the document sets its own page size.
    init(document: String, dpi: Int, gray: Bool, width: Double, height: Double, limits: RenderLimits)
        throws(RasterError)
    {
        guard let executable = Self.locate() else {
            throw .unsupportedFormat("PostScript needs Ghostscript (gs), which is not installed")
        }
        self.limits = limits
        let arguments = Self.arguments(
            document: document, dpi: dpi, gray: gray, width: width, height: height, limits: limits)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw .io(path: "pipe", operation: "create", errno: errno) }
        // Neither end may leak into other children; the child gets the write end as its stdout through dup2.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        // The interpreter's messages come through a pipe of their own, of which only the first part is kept: a
        // document that prints without end fills neither the disk nor the memory.
        var messageEnds: [Int32] = [0, 0]
        guard pipe(&messageEnds) == 0 else {
            close(pipeEnds[0])
            close(pipeEnds[1])
            throw .io(path: "pipe", operation: "create", errno: errno)
        }
        _ = fcntl(messageEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(messageEnds[1], F_SETFD, FD_CLOEXEC)
        let logDescriptor = messageEnds[1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, logDescriptor, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] =
            WorkerEnvironment.entries(ProcessInfo.processInfo.environment).map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, &argv, &environment)
        close(pipeEnds[1])
        close(logDescriptor)
        guard spawned == 0 else {
            close(pipeEnds[0])
            close(messageEnds[0])
            throw .libraryFailure(library: "ghostscript", message: "cannot start \(executable): error \(spawned)")
        }
        pid = child
        output = DescriptorInput(descriptor: pipeEnds[0], name: "ghostscript output")
        messages = MessageCapture(descriptor: messageEnds[0], keeping: Self.keptMessageBytes)
        let deadline = DispatchTime.now() + .milliseconds(limits.maximumInterpreterSeconds * 1000)
        DispatchQueue.global().asyncAfter(deadline: deadline) { [watch, child] in
            watch.state.withLock { state in
                guard !state.finished else { return }
                state.killedForTime = true
                kill(child, SIGKILL)
            }
        }
    }

    deinit {
        terminate()
    }

    /// The command line after the executable's name.
    static func arguments(document: String, dpi: Int, gray: Bool, width: Double, height: Double, limits: RenderLimits)
        -> [String]
    {
        [
            "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOPROMPT", "-sDEVICE=pwgraster",
            // PWG 5102.4 color spaces, as in CUPS's cups_cspace_t: 18 sGray, 19 sRGB.
            // Ghostscript's own rendering (no anti-aliasing), as a printer's RIP marks the sheet.
            "-dcupsColorSpace=\(gray ? 18 : 19)", "-dcupsBitsPerColor=8", "-r\(dpi)",
            "-K\(max(1, limits.maximumInterpreterMemory / 1024))",
            "-dDEVICEWIDTHPOINTS=\(Int(width.rounded()))", "-dDEVICEHEIGHTPOINTS=\(Int(height.rounded()))",
            "-sstdout=%stderr", "-sOutputFile=%stdout", "-f", document,
        ]
    }

    /// Waits for the interpreter to end; throws what went wrong when it did not end well, `underlying` (an error
    /// reading its output) when it ended well but its output was bad.
    func finish(underlying: RasterError? = nil) throws(RasterError) {
        let status = waitForExit()
        let killedForTime = watch.state.withLock { $0.killedForTime }
        if killedForTime {
            throw .limitExceeded(
                limit: "PostScript run time in seconds", value: limits.maximumInterpreterSeconds + 1,
                maximum: limits.maximumInterpreterSeconds)
        }
        let text = messageText()
        if text.contains("VMerror") || text.contains("Out of memory") {
            throw .limitExceeded(
                limit: "PostScript memory in bytes (VMerror)", value: limits.maximumInterpreterMemory + 1,
                maximum: limits.maximumInterpreterMemory)
        }
        if text.contains("/limitcheck") {
            throw .tooComplex("Ghostscript: " + (summary(text) ?? "limitcheck"))
        }
        switch status {
        case .exited(0):
            if let underlying { throw underlying }
        case .exited(let code):
            throw .libraryFailure(library: "ghostscript", message: summary(text) ?? "exited with status \(code)")
        case .signaled(let signal):
            let what = signal == SIGXCPU ? "its CPU time limit" : "signal \(signal)"
            throw .libraryFailure(library: "ghostscript", message: "stopped on \(what)")
        }
    }

    /// Stops the interpreter if it still runs (the document was refused midway) and reaps it.
    func terminate() {
        guard reaped == nil else { return }
        watch.state.withLock { state in
            if !state.finished { kill(pid, SIGKILL) }
        }
        _ = waitForExit()
    }

    private enum ExitStatus {
        case exited(Int32)
        case signaled(Int32)
    }

    private var reaped: ExitStatus?

    private func waitForExit() -> ExitStatus {
        if let reaped { return reaped }
        // Wait without reaping first, so that the deadline timer never signals a pid the system gave away again.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        watch.state.withLock { $0.finished = true }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let result: ExitStatus = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        reaped = result
        return result
    }

    private func messageText() -> String {
        String(decoding: messages.kept(), as: UTF8.self)
    }

    /// The interpreter's own error line (`Error: /undefined in foo`), with the lines after it.
    private func summary(_ text: String) -> String? {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter {
            !$0.hasPrefix("INFO:") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        guard let start = lines.firstIndex(where: { $0.contains("Error") }) ?? lines.indices.last else { return nil }
        return lines[start...].prefix(Self.keptMessageLines).joined(separator: " ")
    }
}

/// A readable file descriptor (a pipe) owned here and closed in `deinit`.
final class DescriptorInput: ByteInput {
    private let descriptor: Int32
    private let name: String

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit {
        close(descriptor)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RasterError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw .io(path: name, operation: "read", errno: errno) }
        }
    }
}

/// Reads a pipe to its end on a thread of its own, keeping its first `limit` bytes and dropping the rest.
final class MessageCapture: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let bytes = Mutex<[UInt8]>([])

    init(descriptor: Int32, keeping limit: Int) {
        // The thread holds this capture until the pipe ends.
        Thread.detachNewThread { [self] in
            defer {
                close(descriptor)
                done.signal()
            }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                bytes.withLock { kept in
                    kept += buffer[..<min(count, max(0, limit - kept.count))]
                }
            }
        }
    }

    /// The bytes kept, once the pipe reached its end (the writer exited).
    func kept() -> [UInt8] {
        done.wait()
        done.signal()
        return bytes.withLock { $0 }
    }
}
