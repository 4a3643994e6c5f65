import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The command `vprinter exec` runs, as a child of the printer.
///
/// It starts as if the shell had started it: every signal at its default and none blocked (the printer blocks
/// SIGINT and SIGTERM in every thread and ignores SIGPIPE, and a child would inherit both), with none of the
/// descriptors the printer opened itself (`descriptorsOpenedSince`), but with those the caller handed vprinter
/// (a make jobserver's pipe, a descriptor the caller's script redirected). SIGINT and SIGTERM sent to vprinter by
/// another process are passed on to it; those a terminal sends reach it anyway, as it is in the same process group.
final class CommandChild: Sendable {
    /// Why the command did not start, with the status a shell gives then: 127 when it is not found, 126 when it
    /// cannot be run.
    struct StartError: Error, CustomStringConvertible {
        let command: String
        let errno: Int32

        var status: Int32 { errno == ENOENT ? 127 : 126 }
        var description: String { "cannot run '\(command)': \(String(cString: strerror(errno)))" }
    }

    let pid: pid_t
    /// Whether SIGINT or SIGTERM reached vprinter while the command ran or after.
    private let signalled = Atomic<Bool>(false)
    /// Set once the command was reaped: its pid may then be another process's, and gets no signal.
    private let reaped = Atomic<Bool>(false)

    /// Starts `command` (found on the PATH unless it names a path) with `environment` as its whole environment,
    /// closing `privateDescriptors` in it.
    init(_ command: [String], environment: [String: String], privateDescriptors: Set<Int32>) throws(StartError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in privateDescriptors.sorted() { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var everySignal = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw StartError(command: command[0], errno: result) }
        pid = child
        Thread.detachNewThread { [self] in forwardTerminationSignals() }
    }

    /// Waits for the command to end; its status as a shell gives it: the exit code, or 128 + the signal that
    /// ended it.
    func waitForExit() -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return 1 }
        }
        reaped.store(true, ordering: .sequentiallyConsistent)
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }

    /// Whether vprinter was told to stop (SIGINT or SIGTERM) since the command started.
    var wasSignalled: Bool { signalled.load(ordering: .relaxed) }

    /// Receives SIGINT and SIGTERM (blocked in every thread: `Lifecycle.holdTerminationSignals`) and sends each to
    /// the command, unless a terminal sent it (then the command, in the terminal's foreground process group, got it
    /// too).
    private func forwardTerminationSignals() {
        var signals = Lifecycle.terminationSignals
        var info = siginfo_t()
        while true {
            let number = sigwaitinfo(&signals, &info)
            guard number > 0 else { continue }
            signalled.store(true, ordering: .relaxed)
            if info.si_code <= 0, !reaped.load(ordering: .sequentiallyConsistent) { kill(pid, number) }
        }
    }

    /// The descriptors open in this process now that are not in `inherited`: those the printer opened itself.
    static func descriptorsOpenedSince(_ inherited: Set<Int32>) -> Set<Int32> {
        openDescriptors().subtracting(inherited)
    }

    /// The descriptors open in this process, from /proc/self/fd (the one it reads with is closed again).
    static func openDescriptors() -> Set<Int32> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(names.compactMap(Int32.init).filter { fcntl($0, F_GETFD) >= 0 })
    }
}
