import Dispatch
import Foundation
import Synchronization

/// Every request to the process, newest last: the latest `capacity` in memory (a ring), and, when a file is given,
/// every one appended to it as a JSON line (`JournalFile`, rotated by size). Entries are numbered from 1 in the
/// order they are recorded; clearing the journal empties the memory, not the file, and numbering goes on, so
/// that a `since` taken before a clear still means the same point.
///
/// Recording costs the request's thread the building of its entry and a lock; the JSON line is written on a
/// queue of its own.
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
    /// Signalled after each entry, for those waiting for one (`waitForEntries`).
    private let recorded = NSCondition()

    struct State {
        var ring: [JournalEntry] = []
        /// Where the oldest entry is in `ring` once it is full.
        var start = 0
        var lastID = 0
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
        state.withLock { state in
            state.lastID += 1
            entry.id = state.lastID
            if state.ring.count < settings.capacity {
                state.ring.append(entry)
            } else {
                state.ring[state.start] = entry
                state.start = (state.start + 1) % state.ring.count
            }
        }
        if let file {
            writes.async { [entry] in file.append(entry) }
        }
        recorded.lock()
        recorded.broadcast()
        recorded.unlock()
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
        defer { recorded.unlock() }
        while lastID <= id {
            if !recorded.wait(until: deadline) { return lastID > id }
        }
        return true
    }

    /// Returns once every entry recorded so far is in the file.
    public func flush() {
        writes.sync {}
    }
}
