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
        /// Seconds: a client polling one target closer together than this, three times in a row, gets a
        /// `polling-rate` finding (`--poll-interval`).
        public var pollInterval: Double

        public init(
            capacity: Int = Journal.defaultCapacity, filePath: String? = nil,
            rotationBytes: Int = Journal.defaultRotationBytes, rotatedFiles: Int = Journal.defaultRotatedFiles,
            pollInterval: Double = Journal.defaultPollInterval
        ) {
            self.capacity = max(1, capacity)
            self.filePath = filePath
            self.rotationBytes = max(JournalFile.minimumRotationBytes, rotationBytes)
            self.rotatedFiles = max(0, rotatedFiles)
            self.pollInterval = max(0, pollInterval)
        }
    }

    /// Entries kept in memory by default: a long test suite's requests, about 20 MB at the size of a typical
    /// Print-Job entry.
    public static let defaultCapacity = 10_000
    /// The journal file's size at which it is rotated by default.
    public static let defaultRotationBytes = 16 << 20
    /// Rotated journal files kept by default.
    public static let defaultRotatedFiles = 3
    /// The shortest interval between polls that is not a finding, by default: CUPS's backend waits at least a
    /// second between its Get-Job-Attributes.
    public static let defaultPollInterval = 1.0
    /// How often, at the most, recording looks for Create-Jobs whose document is overdue (in seconds).
    static let overdueCheckInterval = 1.0

    public let settings: Settings
    private let state: Mutex<State>
    /// What the clients' series of requests show and their summaries (`ClientActivity`), behind a lock of its own.
    private let activity: Mutex<ClientActivity>
    /// When recording next looks for overdue Create-Jobs (seconds since 1970, as a bit pattern).
    private let nextOverdueCheck = Atomic<UInt64>(0)
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
        /// Whether the write queue has a turn coming for `unwritten`.
        var writeScheduled = false

        /// Whether a write must be asked for: there is something to write and no turn is coming; counts the turn.
        mutating func needsWrite() -> Bool {
            guard !unwritten.isEmpty, !writeScheduled else { return false }
            writeScheduled = true
            return true
        }

        /// Adds a finding made after the entry numbered `id` was recorded: to the entry while it is in memory, and
        /// to the file as the entry's line again (the last line of a number holds the entry as it now stands).
        mutating func addLate(_ finding: ClientFinding, to id: Int, writesFile: Bool) {
            let offset = id - (lastID - ring.count + 1)
            guard offset >= 0, offset < ring.count else { return }
            let index = (start + offset) % ring.count
            ring[index].add([finding])
            if writesFile { unwritten.append(ring[index]) }
        }

    }

    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = Mutex(State())
        activity = Mutex(ClientActivity(pollInterval: settings.pollInterval))
        file = settings.filePath.map {
            JournalFile(path: $0, rotationBytes: settings.rotationBytes, rotatedFiles: settings.rotatedFiles)
        }
    }

    /// Records an entry, numbering it (its `id` is replaced) and adding what the client's earlier requests show
    /// (`ClientActivity`); returns it as recorded. `openJobTimeout` is the printer's multiple-operation-time-out,
    /// for a Create-Job; `now` is seconds since 1970.
    @discardableResult
    public func record(
        _ entry: JournalEntry, openJobTimeout: Double? = nil, now: Double = Date().timeIntervalSince1970
    ) -> JournalEntry {
        var entry = entry
        let writesFile = file != nil
        let observation = entry.kind == .ipp ? ClientActivity.Observation(entry) : nil
        // The polling finding goes on the entry before it is numbered and stored (and written); the entry is
        // counted for its client then too, unless that needs its number.
        var counted = true
        if let observation {
            counted = activity.withLock { $0.observe(&entry, observation, now: now, openJobTimeout: openJobTimeout) }
        }
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
            guard writesFile else { return (false, dropped) }
            state.unwritten.append(entry)
            return (state.needsWrite(), dropped)
        }
        _ = consume dropped
        // The file is written in batches: the first entry of a batch asks the write queue for a turn a moment
        // later, and that turn writes every entry recorded until then with one write (under load, hundreds at a
        // time, and one wake-up of the write queue instead of one per request).
        if startsBatch { scheduleWrite() }
        if !counted, let observation {
            activity.withLock { $0.count(entry, observation, now: now, openJobTimeout: openJobTimeout) }
        }
        // At most once a second, by whichever request comes first after it.
        let due = Double(bitPattern: nextOverdueCheck.load(ordering: .relaxed))
        if now >= due,
            nextOverdueCheck.compareExchange(
                expected: due.bitPattern, desired: (now + Self.overdueCheckInterval).bitPattern, ordering: .relaxed
            ).exchanged, addOverdueFindings(now: now)
        {
            scheduleWrite()
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
    public func entries(
        matching filter: RequestFilter = RequestFilter(), now: Double = Date().timeIntervalSince1970
    ) -> [JournalEntry] {
        if addOverdueFindings(now: now) { scheduleWrite() }
        return state.withLock { state in
            (state.ring[state.start...] + state.ring[..<state.start]).filter(filter.matches)
        }
    }

    /// Each client's IPP requests and findings since the journal started or was last cleared, across printers
    /// unless one is named.
    public func clients(printer: String? = nil, now: Double = Date().timeIntervalSince1970) -> ClientReport {
        if addOverdueFindings(now: now) { scheduleWrite() }
        return activity.withLock { $0.report(printer: printer) }
    }

    /// The number of the latest entry, 0 before the first.
    public var lastID: Int {
        state.withLock { $0.lastID }
    }

    /// Empties the memory and the clients' summaries (the file keeps what it has); numbering goes on.
    public func clear() {
        state.withLock { state in
            state.ring = []
            state.start = 0
        }
        activity.withLock { $0 = ClientActivity(pollInterval: settings.pollInterval) }
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

    /// Adds the findings of the Create-Jobs whose document is overdue to their entries; whether the file then needs
    /// a write that no turn of the write queue is coming for.
    private func addOverdueFindings(now: Double) -> Bool {
        let overdue = activity.withLock { $0.overdueJobs(now: now) }
        guard !overdue.isEmpty else { return false }
        return state.withLock { state in
            for (id, finding) in overdue { state.addLate(finding, to: id, writesFile: file != nil) }
            return state.needsWrite()
        }
    }

    /// Asks the write queue for a turn a moment from now.
    private func scheduleWrite() {
        writes.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in writeUnwritten() }
    }

    /// Appends the entries not yet in the file; on the write queue.
    private func writeUnwritten() {
        let batch = state.withLock { state in
            defer {
                state.unwritten = []
                state.writeScheduled = false
            }
            return state.unwritten
        }
        file?.append(batch)
    }
}
