import Dispatch
import Foundation
import Synchronization

/// Every request to the process, newest last: the latest in memory, at most `capacity` of them holding at most
/// `byteLimit` bytes between them (as estimated when each is recorded, `JournalEntry.retainedBytes`; the oldest
/// drop out, the newest is always kept), and, when a file is given, every one appended to it as a JSON line
/// (`JournalFile`, rotated by size). Entries are numbered from 1 in the
/// order they are recorded; clearing the journal empties the memory, not the file, and numbering goes on, so
/// that a `since` taken before a clear still means the same point.
///
/// Recording costs the request's thread the building of its entry and a lock that only requests on connections of
/// the same stripe share (`Pending`): under load, eight threads taking one lock for every request spent more time
/// waiting for it than journaling. The numbered entries are moved into the ring, followed for their clients
/// (`ClientActivity`) and written to the file in batches, on a queue of the journal's own at most `writeDelay`
/// seconds after the first of a batch; anyone who reads the journal moves them first, so that a request is in the
/// journal once it was answered. `flush()` writes at once; the printer flushes when it stops.
public final class Journal: @unchecked Sendable {
    // @unchecked: NSCondition is not marked Sendable, and is made for use from any thread; the rest is Mutexes,
    // atomics, a serial queue and constants.
    /// How much of the journal is kept, and where.
    public struct Settings: Sendable, Hashable {
        /// Entries kept in memory; older ones drop out (the file keeps them).
        public var capacity: Int
        /// The bytes the entries in memory may hold between them (`JournalEntry.retainedBytes`); older ones drop
        /// out past it, but for the newest.
        public var byteLimit: Int
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
            capacity: Int = Journal.defaultCapacity, byteLimit: Int = Journal.defaultByteLimit,
            filePath: String? = nil, rotationBytes: Int = Journal.defaultRotationBytes,
            rotatedFiles: Int = Journal.defaultRotatedFiles, pollInterval: Double = Journal.defaultPollInterval
        ) {
            self.capacity = max(1, capacity)
            self.byteLimit = max(1, byteLimit)
            self.filePath = filePath
            self.rotationBytes = max(JournalFile.minimumRotationBytes, rotationBytes)
            self.rotatedFiles = max(0, rotatedFiles)
            self.pollInterval = max(0, pollInterval)
        }
    }

    /// Entries kept in memory by default: a long test suite's requests, about 20 MB at the size of a typical
    /// Print-Job entry.
    public static let defaultCapacity = 10_000
    /// The bytes the entries in memory may hold by default: the default capacity of typical entries fits well
    /// within it, while 10,000 requests of a megabyte of attributes each would hold 10 GB.
    public static let defaultByteLimit = 64 << 20
    /// Entries that dropped out of the ring past which it gives back their places (and at least half its places
    /// are theirs): often enough that the ring stays about its size, rarely enough that a request seldom pays it.
    static let compactionThreshold = 1024
    /// The journal file's size at which it is rotated by default.
    public static let defaultRotationBytes = 16 << 20
    /// Rotated journal files kept by default.
    public static let defaultRotatedFiles = 3
    /// The shortest interval between polls that is not a finding, by default: CUPS's backend waits at least a
    /// second between its Get-Job-Attributes.
    public static let defaultPollInterval = 1.0
    /// How long a recorded entry may wait to be moved into the ring and the file, at the most, in seconds. Short,
    /// so that a batch stays small under load: at 0.1 s, 20,000 requests a second filled a stripe to
    /// `stripeLimit` and left more than `unwrittenLimit` unwritten before each turn, and the requests that then
    /// waited for the file put their 99th percentile latency at 16 ms (4 ms at 0.02 s; 1 ms without the journal).
    static let writeDelay = 0.02
    /// The stripes of numbered entries waiting to be moved: requests on connections of different stripes do not
    /// share a lock.
    static let stripeCount = 16
    /// Entries waiting in one stripe past which the request that adds one moves them itself (the write queue is
    /// behind: memory stays bounded).
    static let stripeLimit = 256
    /// Entries moved into the ring and not yet in the file past which the request that moved them waits for the
    /// write queue to write them: a write queue given less CPU than the requests it follows (a printer under load in
    /// a scheduling group of its own, as a new session gets) would otherwise fall further behind and hold every
    /// entry it has not written, 170 MB after 200,000 requests.
    static let unwrittenLimit = 2048

    public let settings: Settings
    private let state: Mutex<State>
    private let stripes: [Stripe]
    /// The number of the latest entry; taken under the lock of the stripe the entry goes to.
    private let latestID = Atomic<Int>(0)
    /// Whether the write queue has a turn coming for the entries waiting.
    private let moveScheduled = Atomic<Bool>(false)
    private let file: JournalFile?
    /// The write queue (internal: a test holds it up to play a writer given too little CPU).
    let writes = DispatchQueue(label: "vprinter.journal.file")
    /// Signalled after each entry while someone waits for one (`waitForEntries`), and how many do.
    private let recorded = NSCondition()
    private let waiters = Atomic<Int>(0)

    /// A numbered entry waiting to be moved into the ring, with what following it for its client needs.
    struct Pending {
        var entry: JournalEntry
        var observation: ClientActivity.Observation?
        var now: Double
        var openJobTimeout: Double?
        /// `entry.retainedBytes`, estimated on the request's thread.
        var bytes: Int
    }

    /// Numbered entries waiting, of the connections whose number falls in this stripe.
    final class Stripe: Sendable {
        let waiting = Mutex<[Pending]>([])
    }

    /// An entry in memory, with the bytes it holds.
    struct Kept {
        var entry: JournalEntry
        var bytes: Int
    }

    struct State {
        /// The entries in memory, oldest first from `head`; the places before it are those of entries that
        /// dropped out, given back now and then (`compactionThreshold`). Their numbers follow each other.
        var ring: [Kept?] = []
        var head = 0
        /// What the entries in memory hold, by their estimates.
        var bytes = 0
        /// The number of the latest entry in `ring` (or cleared from it).
        var lastMoved = 0
        /// What the clients' series of requests show and their summaries.
        var activity: ClientActivity
        /// Entries in the ring but not yet in the file, oldest first.
        var unwritten: [JournalEntry] = []

        /// The entries in memory.
        var count: Int { ring.count - head }

        /// The place in `ring` of the entry numbered `id`, when it is in memory.
        func index(of id: Int) -> Int? {
            let offset = id - (lastMoved - count + 1)
            guard offset >= 0, offset < count else { return nil }
            return head + offset
        }

        /// Appends an entry, then drops the oldest until at most `capacity` entries hold at most `byteLimit`
        /// bytes, keeping the newest whatever it holds.
        mutating func append(_ kept: Kept, settings: Settings) {
            ring.append(kept)
            bytes += kept.bytes
            lastMoved = kept.entry.id
            while count > 1, count > settings.capacity || bytes > settings.byteLimit {
                bytes -= ring[head]?.bytes ?? 0
                ring[head] = nil
                head += 1
            }
            if head >= Journal.compactionThreshold, head * 2 >= ring.count {
                ring.removeFirst(head)
                head = 0
            }
        }

        /// The entries in memory with what they hold, oldest first, from the first numbered above `after`.
        func kept(after: Int) -> some Sequence<Kept> {
            let start = index(of: after + 1) ?? (after < lastMoved - count + 1 ? head : ring.count)
            return ring[start...].lazy.compactMap { $0 }
        }

        /// Adds a finding made after the entry numbered `id` was recorded: to the entry while it is in memory, and
        /// to the file as the entry's line again (the last line of a number holds the entry as it now stands).
        mutating func addLate(_ finding: ClientFinding, to id: Int, writesFile: Bool) {
            guard let index = index(of: id), ring[index] != nil else { return }
            ring[index]?.entry.add([finding])
            if writesFile, let entry = ring[index]?.entry { unwritten.append(entry) }
        }
    }

    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = Mutex(State(activity: ClientActivity(pollInterval: settings.pollInterval)))
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
        file = settings.filePath.map {
            JournalFile(path: $0, rotationBytes: settings.rotationBytes, rotatedFiles: settings.rotatedFiles)
        }
    }

    /// Records an entry, numbering it (its `id` is replaced); returns its number. What the client's earlier
    /// requests show (`ClientActivity`) is added when it is moved into the ring. `openJobTimeout` is the printer's
    /// multiple-operation-time-out, for a Create-Job; `now` is seconds since 1970.
    @discardableResult
    public func record(
        _ entry: JournalEntry, openJobTimeout: Double? = nil, now: Double = Date().timeIntervalSince1970
    ) -> Int {
        var pending = Pending(
            entry: entry, observation: entry.kind == .ipp ? ClientActivity.Observation(entry) : nil, now: now,
            openJobTimeout: openJobTimeout, bytes: entry.retainedBytes)
        let stripe = stripes[Int(entry.connection.magnitude % UInt(Self.stripeCount))]
        // Numbered under the stripe's lock: whoever holds every stripe's lock sees every numbered entry.
        let (id, waiting) = stripe.waiting.withLock { waiting in
            pending.entry.id = latestID.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            waiting.append(pending)
            return (pending.entry.id, waiting.count)
        }
        if waiting >= Self.stripeLimit {
            moveWaiting()
        } else {
            scheduleMove()
        }
        // A waiter counts itself before it looks at the latest number, and the count is read after the number
        // changed: either it sees the new entry, or it is counted here and woken.
        if waiters.load(ordering: .sequentiallyConsistent) > 0 {
            recorded.lock()
            recorded.broadcast()
            recorded.unlock()
        }
        return id
    }

    /// The entries in memory that the filter lets through, oldest first.
    public func entries(
        matching filter: RequestFilter = RequestFilter(), now: Double = Date().timeIntervalSince1970
    ) -> [JournalEntry] {
        page(matching: filter, limit: .max, now: now).entries
    }

    /// The entries in memory that the filter and `isVisible` let through, oldest first, from the first numbered
    /// above `cursor` (and above the filter's `since`): at most `limit` of them, holding at most `byteLimit` bytes
    /// by their estimates (the first whatever it holds). Only entries after the cursor are looked at, so that a
    /// waiter that keeps the page's `through` looks at each entry once.
    public func page(
        matching filter: RequestFilter, after cursor: Int = 0, where isVisible: (JournalEntry) -> Bool = { _ in true },
        limit: Int, byteLimit: Int = .max, now: Double = Date().timeIntervalSince1970
    ) -> JournalPage {
        state.withLock { state in
            move(into: &state, now: now)
            let since = if case .entry(let id)? = filter.since { id } else { 0 }
            var page = JournalPage(entries: [], more: false, through: max(cursor, since))
            var bytes = 0
            for kept in state.kept(after: page.through) {
                guard filter.matches(kept.entry), isVisible(kept.entry) else {
                    page.through = kept.entry.id
                    continue
                }
                if page.entries.count >= limit || (!page.entries.isEmpty && bytes > byteLimit - kept.bytes) {
                    page.more = true
                    return page
                }
                page.entries.append(kept.entry)
                bytes += kept.bytes
                page.through = kept.entry.id
            }
            page.through = max(page.through, state.lastMoved)
            return page
        }
    }

    /// Each client's IPP requests and findings since the journal started or was last cleared, across printers
    /// unless one is named.
    public func clients(printer: String? = nil, now: Double = Date().timeIntervalSince1970) -> ClientReport {
        state.withLock { state in
            move(into: &state, now: now)
            return state.activity.report(printer: printer)
        }
    }

    /// The number of the latest entry, 0 before the first.
    public var lastID: Int {
        latestID.load(ordering: .sequentiallyConsistent)
    }

    /// Empties the memory and the clients' summaries (the file keeps what it has, and gets what was waiting);
    /// numbering goes on.
    public func clear() {
        state.withLock { state in
            move(into: &state, now: Date().timeIntervalSince1970)
            state.ring = []
            state.head = 0
            state.bytes = 0
            state.activity = ClientActivity(pollInterval: settings.pollInterval)
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

    /// Moves every waiting entry into the ring; for a request whose stripe is full.
    private func moveWaiting() {
        let behind = state.withLock { state in
            move(into: &state, now: Date().timeIntervalSince1970)
            return state.unwritten.count >= Self.unwrittenLimit
        }
        if behind { writes.sync { writeUnwritten() } }
    }

    /// Moves the waiting entries into the ring in the order of their numbers, following each for its client
    /// (adding its polling finding), then adds the findings of Create-Jobs whose document is overdue by `now`.
    private func move(into state: inout State, now: Double) {
        var batch: [Pending] = []
        takeWaiting(from: 0, into: &batch)
        batch.sort { $0.entry.id < $1.entry.id }
        let writesFile = file != nil
        for var pending in batch {
            if let observation = pending.observation {
                state.activity.observe(
                    &pending.entry, observation, now: pending.now, openJobTimeout: pending.openJobTimeout)
            }
            state.append(Kept(entry: pending.entry, bytes: pending.bytes), settings: settings)
            if writesFile { state.unwritten.append(pending.entry) }
        }
        for (id, finding) in state.activity.overdueJobs(now: now) {
            state.addLate(finding, to: id, writesFile: writesFile)
        }
        if writesFile, !state.unwritten.isEmpty { scheduleMove() }
    }

    /// Asks the write queue for a turn `writeDelay` from now, unless one is coming.
    private func scheduleMove() {
        guard !moveScheduled.load(ordering: .relaxed),
            moveScheduled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        writes.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in writeUnwritten() }
    }

    /// Empties every stripe into `batch`, holding all their locks at once (taken in order from `index`): no entry
    /// is then numbered and not yet in a stripe, so the batch has every entry numbered so far.
    private func takeWaiting(from index: Int, into batch: inout [Pending]) {
        guard index < stripes.count else { return }
        stripes[index].waiting.withLock { waiting in
            batch += waiting
            waiting = []
            takeWaiting(from: index + 1, into: &batch)
        }
    }

    /// The entries in memory and the bytes they hold, by their estimates (for tests and the bench).
    var retained: (count: Int, bytes: Int) {
        state.withLock { state in
            move(into: &state, now: Date().timeIntervalSince1970)
            return (state.count, state.bytes)
        }
    }

    /// Entries in the ring not yet in the file (for tests).
    var unwrittenCount: Int { state.withLock { $0.unwritten.count } }

    /// Moves the waiting entries and appends those not yet in the file; on the write queue.
    private func writeUnwritten() {
        moveScheduled.store(false, ordering: .relaxed)
        let batch = state.withLock { state in
            move(into: &state, now: Date().timeIntervalSince1970)
            defer { state.unwritten = [] }
            return state.unwritten
        }
        file?.append(batch)
    }
}
