import CPoppler
import PrintModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Collects what Poppler reports about a PDF while it is read (syntax errors and warnings, unimplemented
/// features) as warnings of the job.
///
/// poppler-glib logs them to the GLib log domain `Poppler`, and GLib hands each message to one handler of the
/// process, with no word of the document it concerns. So one handler is installed once, and a message goes to the
/// collector of the thread that logged it: the collector is the current one on the thread that made it until
/// `stop()`, and on another thread while `collecting(_:)` runs there (a side rendered on a thread of its own). Two
/// documents read at once on different threads (two jobs of one process, as tests render) each get their own
/// messages; a handler per collector, as before, gave every message to the collector made last.
final class PopplerMessages: @unchecked Sendable {
    // @unchecked: `log` and `document` are constants; `owner` is written once, by the thread that made the object.
    private let log: WarningLog
    private let document: Int
    /// The thread the collector was made on, while it collects there.
    private var owner: UInt?

    /// Starts collecting for document number `document` on the calling thread.
    init(log: WarningLog, document: Int) {
        self.log = log
        self.document = document
        _ = Self.handlerInstalled
        let thread = Self.currentThread
        owner = thread
        Self.push(self, on: thread)
    }

    /// Stops collecting on the thread the collector was made on; also done when the object goes.
    func stop() {
        guard let thread = owner else { return }
        owner = nil
        Self.pop(self, from: thread)
    }

    deinit {
        stop()
    }

    /// Runs `body` with this collector as the calling thread's, for a part of the document read on another thread.
    func collecting<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let thread = Self.currentThread
        Self.push(self, on: thread)
        defer { Self.pop(self, from: thread) }
        return try body()
    }

    fileprivate func received(_ message: String) {
        log.report(JobWarning(kind: .pdf, document: document, message: message))
    }

    /// The collectors of each thread, the current one last.
    private static let collectors = Mutex<[UInt: [Unmanaged<PopplerMessages>]]>([:])

    /// Installs the one handler of the `Poppler` domain, once per process.
    private static let handlerInstalled: Bool = {
        g_log_set_handler("Poppler", GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue), popplerLogHandler, nil)
        return true
    }()

    private static var currentThread: UInt { UInt(pthread_self()) }

    private static func push(_ collector: PopplerMessages, on thread: UInt) {
        collectors.withLock { $0[thread, default: []].append(Unmanaged.passUnretained(collector)) }
    }

    private static func pop(_ collector: PopplerMessages, from thread: UInt) {
        collectors.withLock { all in
            let pointer = Unmanaged.passUnretained(collector).toOpaque()
            guard var stack = all[thread], let index = stack.lastIndex(where: { $0.toOpaque() == pointer }) else {
                return
            }
            stack.remove(at: index)
            all[thread] = stack.isEmpty ? nil : stack
        }
    }

    /// The current collector of the calling thread, retained for the caller.
    fileprivate static func current() -> PopplerMessages? {
        collectors.withLock { $0[currentThread]?.last?.takeUnretainedValue() }
    }
}

/// The GLib log handler of the `Poppler` domain: forwards to the calling thread's collector; a message logged on a
/// thread with none (no PDF of a job is read there) is dropped.
private func popplerLogHandler(
    _ domain: UnsafePointer<gchar>?, _ level: GLogLevelFlags, _ message: UnsafePointer<gchar>?, _ data: gpointer?
) {
    guard let message, let collector = PopplerMessages.current() else { return }
    collector.received(String(cString: message))
}
