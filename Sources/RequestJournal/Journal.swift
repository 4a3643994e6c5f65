import Dispatch
import Foundation
import Synchronization

/// Every request to the process, newest last: the latest `capacity` in memory (a ring), and, when a file is given,
/// every one appended to it as a JSON line (`JournalFile`, rotated by size). Entries are numbered from 1 in the
/// order they are recorded; clearing the journal empties the memory, not the file, and numbering goes on, so
/// that a `since` taken before a clear still means the same point.
///
/// Recording costs the request's thread the building of its entry and a lock; the JSON lines are written on a
/// queue of its own, in batches at most `writeDelay` seconds after their first entry (`flush()` writes at once;
/// the printer flushes when it stops).
public final class Journal: @unchecked Sendable {
    // @unchecked: NSCondition is not marked Sendable, and is made for use from any thread; the rest is a Mutex,
    // a serial queue and constants.
    /// How much of the journal is kept, and where.
    public struct Settings: Sendable, Hashable {
        /// Entries kept in memory; older ones drop out (the file keeps them).
        public var capacity: Int
        /// The JSON lines file, or nil for memory only.
        public var filePath: String?
        /// The file's size at which it is rotated.
        public var rotationBytes: Int
        /// Rotated files kept beside the current one (`requests.jsonl.1` is the newest).
        public var rotatedFiles: Int

        public init(
            capacity: Int = Journal.defaultCapacity, filePath: String? = nil,
            rotationBytes: Int = Journal.defaultRotationBytes, rotatedFiles: Int = Journal.defaultRotatedFiles
        ) {
            self.capacity = max(1, capacity)
            self.filePath = filePath
            self.rotationBytes = max(JournalFile.minimumRotationBytes, rotationBytes)
            self.rotatedFiles = max(0, rotatedFiles)
        }
    }

    /// Entries kept in memory by default: a long test suite's requests, about 20 MB at the size of a typical
    /// Print-Job entry.
    public static let defaultCapacity = 10_000
    /// The journal file's size at which it is rotated by default.
    public static let defaultRotationBytes = 16 << 20
    /// Rotated journal files kept by default.
    public static let defaultRotatedFiles = 3

    public let settings: Settings
    private let state: Mutex<State>
    private let file: JournalFile?
    private let writes = DispatchQueue(label: "vprinter.journal.file")
    /// Signalled after each entry while someone waits for one (`waitForEntries`), and how many do.
    private let recorded = NSCondition()
    private let waiters = Atomic<Int>(0)

    struct State {
        var ring: [JournalEntry] = []
        /// Where the oldest entry is in `ring` once it is full.
        var start = 0
        var lastID = 0
        /// Entries recorded but not yet in the file, oldest first.
        var unwritten: [JournalEntry] = []
    }

    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = Mutex(State())
        file = settings.filePath.map {
            JournalFile(path: $0, rotationBytes: settings.rotationBytes, rotatedFiles: settings.rotatedFiles)
        }
    }

    /// Records an entry, numbering it (its `id` is replaced); returns it as recorded.
    @discardableResult
    public func record(_ entry: JournalEntry) -> JournalEntry {
        var entry = entry
        // The entry that drops out of the ring is freed after the lock is let go, not while others wait for it.
        let (startsBatch, dropped) = state.withLock { state -> (Bool, JournalEntry?) in
            state.lastID += 1
            entry.id = state.lastID
            var dropped: JournalEntry?
            if state.ring.count < settings.capacity {
                state.ring.append(entry)
            } else {
                dropped = state.ring[state.start]
                state.ring[state.start] = entry
                state.start = (state.start + 1) % state.ring.count
            }
            guard file != nil else { return (false, dropped) }
            state.unwritten.append(entry)
            return (state.unwritten.count == 1, dropped)
        }
        _ = consume dropped
        // The file is written in batches: the first entry of a batch asks the write queue for a turn a moment
        // later, and that turn writes every entry recorded until then with one write (under load, hundreds at a
        // time, and one wake-up of the write queue instead of one per request).
        if startsBatch {
            writes.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in writeUnwritten() }
        }
        // A waiter counts itself before it looks at lastID, and the count is read after lastID changed: either it
        // sees the new entry, or it is counted here and woken.
        if waiters.load(ordering: .sequentiallyConsistent) > 0 {
            recorded.lock()
            recorded.broadcast()
            recorded.unlock()
        }
        return entry
    }

    /// The entries in memory that the filter lets through, oldest first.
    public func entries(matching filter: RequestFilter = RequestFilter()) -> [JournalEntry] {
        state.withLock { state in
            (state.ring[state.start...] + state.ring[..<state.start]).filter(filter.matches)
        }
    }

    /// The number of the latest entry, 0 before the first.
    public var lastID: Int {
        state.withLock { $0.lastID }
    }

    /// Empties the memory (the file keeps what it has); numbering goes on.
    public func clear() {
        state.withLock { state in
            state.ring = []
            state.start = 0
        }
    }

    /// Waits until an entry after `id` is recorded, at most `timeout` seconds; whether one was.
    public func waitForEntries(after id: Int, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        recorded.lock()
        waiters.add(1, ordering: .sequentiallyConsistent)
        defer {
            waiters.subtract(1, ordering: .sequentiallyConsistent)
            recorded.unlock()
        }
        while lastID <= id {
            if !recorded.wait(until: deadline) { return lastID > id }
        }
        return true
    }

    /// Returns once every entry recorded so far is in the file.
    public func flush() {
        writes.sync { writeUnwritten() }
    }

    /// How long an entry may wait for the file at the most, in seconds: the batch it starts is written then.
    static let writeDelay = 0.1

    /// Appends the entries not yet in the file; on the write queue.
    private func writeUnwritten() {
        let batch = state.withLock { state in
            defer { state.unwritten = [] }
            return state.unwritten
        }
        file?.append(batch)
    }
}
