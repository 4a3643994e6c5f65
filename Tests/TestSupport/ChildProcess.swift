import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests run (a reference tool, the built binaries, a helper script), started so that no test can
/// hang on it:
///
/// - it gets no descriptor of the test process but its three standard streams: the tests run in parallel in one
///   process, and a child that kept a copy of another test's pipe or socket (Foundation's `Process` leaves the
///   ones opened while it spawns, its `Pipe`s are not close-on-exec, plain `posix_spawn` leaves all of them)
///   would keep that test from ever seeing its end, for as long as the child lives;
/// - its output goes to files, or to a pipe whose other end only the caller holds, never to a pipe nobody
///   drains (a child blocked writing to a full pipe never exits);
/// - every wait has a deadline, after which the child is killed and the wait fails with the command's name.
/// - it starts with no signal blocked or ignored, whatever the test process blocks or ignores.
///
/// Exits are seen with `waitpid`, not through Foundation's `Process`, which learns of an exit when a socket
/// that the child inherited closes, and so never when the child handed that socket to a process that lives on.
public final class ChildProcess: @unchecked Sendable {
    /// Where a standard stream of the child goes.
    public enum Stream {
        /// /dev/null.
        case null
        /// A file: read from for the input, created (or truncated) for an output.
        case file(String)
        /// A descriptor of the caller, duplicated onto the stream (the caller keeps and closes its own).
        case descriptor(Int32)
    }

    /// A failure to start or to wait for a child.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The process id.
    public let pid: pid_t
    /// The command line, for messages.
    public let command: String
    private let status = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`; the environment is the test process's, with `environment` merged in.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], stdin: Stream = .null,
        stdout: Stream = .null, stderr: Stream = .null
    ) throws {
        command = ([path] + arguments).joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let file):
                let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, target, file, flags, 0o644)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        try Self.closeInheritedDescriptors(&actions)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // No signal blocked or ignored: the test process may block or ignore some (SIGTERM, SIGPIPE), and a child
        // would inherit that, and then not stop when told to.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// Kills the child if it still runs, and reaps it.
    deinit {
        if exitStatus(waitingUpTo: 0) == nil {
            kill(pid, SIGKILL)
            _ = exitStatus(waitingUpTo: 10)
        }
    }

    /// The exit status (128 + the signal for a child killed by one) once the child has exited, waiting at most
    /// `seconds`; nil if it still runs then.
    public func exitStatus(waitingUpTo seconds: Double) -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let known = status.withLock({ $0 }) { return known }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid {
                let decoded = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
                status.withLock { $0 = decoded }
                return decoded
            }
            if reaped < 0 && errno != EINTR {
                // Reaped elsewhere (it cannot be: only this object waits for its pid); report it as gone.
                status.withLock { $0 = -1 }
                return -1
            }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// The exit status, waiting at most `seconds`; kills the child and throws when it runs longer.
    public func waitForExit(limit seconds: Double) throws -> Int32 {
        if let exited = exitStatus(waitingUpTo: seconds) { return exited }
        send(SIGKILL)
        _ = exitStatus(waitingUpTo: 10)
        throw Failure(description: "\(command) ran longer than \(seconds) s and was killed")
    }

    /// Sends `signal` to the child, unless it has exited and been reaped (its pid may belong to another process
    /// by then).
    public func send(_ signal: Int32) {
        if exitStatus(waitingUpTo: 0) == nil { kill(pid, signal) }
    }

    /// What a program run to its end gave.
    public struct Result {
        public var status: Int32
        public var output: [UInt8]
        public var errorOutput: String

        /// The standard output as text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `path` to its end, with `input` (if any) on its standard input, and returns its status and what it
    /// wrote. Throws when it cannot start, or when it runs longer than `limit` seconds (it is killed then).
    public static func run(
        _ path: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:],
        limit: Double = defaultLimit
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputPath = folder.appendingPathComponent("stdin").path
        let outputPath = folder.appendingPathComponent("stdout").path
        let errorPath = folder.appendingPathComponent("stderr").path
        if let input {
            guard FileManager.default.createFile(atPath: inputPath, contents: Data(input)) else {
                throw Failure(description: "cannot write the input of \(path) to \(inputPath)")
            }
        }
        let child = try ChildProcess(
            path, arguments, environment: environment, stdin: input == nil ? .null : .file(inputPath),
            stdout: .file(outputPath), stderr: .file(errorPath))
        let status: Int32
        do {
            status = try child.waitForExit(limit: limit)
        } catch let failure as Failure {
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(failure.description); its stderr: \(errors.suffix(2000))")
        }
        let output = FileManager.default.contents(atPath: outputPath).map(Array.init) ?? []
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return Result(status: status, output: output, errorOutput: errors)
    }

    /// How long `run` lets a program take unless told otherwise, in seconds: far more than any tool the tests
    /// run needs, well under the tests' one-minute time limit.
    public static let defaultLimit: Double = 45

    /// Adds to `actions` the closing of every descriptor from 3 up: glibc's
    /// posix_spawn_file_actions_addclosefrom_np (2.34 and later, which Swift's Glibc module does not declare),
    /// else one close for each descriptor open now.
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let result = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            guard result == 0 else {
                throw Failure(
                    description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(result)))")
            }
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}

/// A pipe whose two ends are close-on-exec, so that no child but the one it is handed to (through
/// `ChildProcess.Stream.descriptor`, which duplicates it) ever holds an end.
public struct ClosingPipe {
    public let readEnd: Int32
    public let writeEnd: Int32

    /// Makes the pipe with glibc's pipe2(O_CLOEXEC) (which Swift's Glibc module does not declare), so that no
    /// child started meanwhile by another thread inherits it; else with pipe and then FD_CLOEXEC.
    public init() throws {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        var ends: [Int32] = [0, 0]
        let made: Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") {
            made = ends.withUnsafeMutableBufferPointer {
                unsafeBitCast(symbol, to: Pipe2.self)($0.baseAddress!, O_CLOEXEC)
            }
        } else {
            made = pipe(&ends)
            if made == 0 { ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) } }
        }
        guard made == 0 else {
            throw ChildProcess.Failure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }
}
