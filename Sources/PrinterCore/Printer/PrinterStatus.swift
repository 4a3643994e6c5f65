import Synchronization

/// The printer-state enum (RFC 8011 section 5.4.11).
public enum PrinterStateValue: Int32, Sendable {
    case idle = 3
    case processing = 4
    case stopped = 5

    public var keyword: String {
        switch self {
        case .idle: "idle"
        case .processing: "processing"
        case .stopped: "stopped"
        }
    }
}

/// How many times a printer's status changed: an atomic count that readers look at without the status's lock.
final class StatusChanges: Sendable {
    private let counted = Atomic<UInt64>(0)

    init() {}

    func count() { counted.wrappingAdd(1, ordering: .releasing) }

    var revision: UInt64 { counted.load(ordering: .acquiring) }
}

/// The mutable state of one printer, kept under the printer's lock.
package struct PrinterStatus: Sendable {
    /// Counts changes: every stored property below counts one when set, so that an answer made from one revision
    /// (`PrinterAttributeAnswers`) is known to be current while the revision is. Shared with the copies of the
    /// status, and read without its lock (`Printer.statusRevision`).
    let changes: StatusChanges
    var jobs: [Int: Job] = [:] { didSet { changes.count() } }
    /// Job ids in creation order.
    package var jobOrder: [Int] = [] { didSet { changes.count() } }
    /// printer-state-reasons set from outside (faults, identify); `none` is implied when all are empty.
    var faultReasons: [PrinterStateReason] = [] { didSet { changes.count() } }
    /// Pause-Printer: no new job starts; the current one finishes.
    var paused = false { didSet { changes.count() } }
    /// Shutdown-Printer: stopped and not accepting jobs until Startup-Printer.
    var shutdown = false { didSet { changes.count() } }
    /// Hold-New-Jobs: jobs created from now on wait in pending-held.
    var holdNewJobs = false { didSet { changes.count() } }
    package var isAcceptingJobs = true { didSet { changes.count() } }
    /// The output folder's disk is below its floor (`DiskFloor`): no new job until there is room again.
    var spoolAreaFull = false { didSet { changes.count() } }
    /// printer-message-from-operator (Set-Printer-Attributes).
    var messageFromOperator = "" { didSet { changes.count() } }
    /// Jobs ready to print, in the order they will start.
    var queue: [Int] = [] { didSet { changes.count() } }
    /// Trays, supplies and bins.
    package var device = DeviceState() { didSet { changes.count() } }
    var stateChangeTime: Double { didSet { changes.count() } }
    var configChangeTime: Double { didSet { changes.count() } }
    var lastState: PrinterStateValue = .idle { didSet { changes.count() } }
    var lastReasons: [PrinterStateReason] = [] { didSet { changes.count() } }
    var lastAccepting = true { didSet { changes.count() } }
    /// The DNS-SD name after a collision rename, when it differs from printer-name.
    var dnsSDName: String? { didSet { changes.count() } }
    /// True between `beginRestore()` and `restore(_:)`.
    var restorePending = false { didSet { changes.count() } }
    /// The speed a scenario played at runtime set (`POST .../scenarios`); nil: the configured one.
    var speedOverride: PrintSpeed? { didSet { changes.count() } }
    /// The scenarios played on this printer and not stopped, in the order they started.
    var scenarios: [String] = [] { didSet { changes.count() } }

    init(now: Double, changes: StatusChanges = StatusChanges()) {
        self.changes = changes
        stateChangeTime = now
        configChangeTime = now
    }

    /// True while a job is being processed.
    var isProcessing: Bool { jobs.values.contains { $0.state == .processing } }

    /// True when a fault or the device (an `-error` reason) stops the printer.
    var hasErrorReason: Bool { (faultReasons + device.reasons).contains(where: \.stopsPrinter) }

    /// The printer-state that follows from the jobs, pause and faults (RFC 8011 section 5.4.11).
    package var state: PrinterStateValue {
        if isProcessing { return hasErrorReason ? .stopped : .processing }
        if paused || shutdown || hasErrorReason { return .stopped }
        return .idle
    }

    /// printer-state-reasons: faults, the device's, then paused / moving-to-paused, shutdown; `none` when empty.
    package var reasons: [PrinterStateReason] {
        var all = faultReasons
        for reason in device.reasons where !all.contains(reason) { all.append(reason) }
        if paused { all.append(isProcessing ? .movingToPaused : .paused) }
        if shutdown { all.append(.shutdown) }
        if holdNewJobs { all.append(.holdNewJobs) }
        if spoolAreaFull { all.append(.spoolAreaFull) }
        return all
    }

    /// Records a state change time when the derived state, reasons or printer-is-accepting-jobs changed (what
    /// a printer-state-changed event reports, RFC 3995 section 5.3.3.4.3); true when they did.
    @discardableResult
    mutating func noteStateChange(at now: Double) -> Bool {
        let current = (state, reasons, acceptsJobs)
        guard current.0 != lastState || current.1 != lastReasons || current.2 != lastAccepting else { return false }
        lastState = current.0
        lastReasons = current.1
        lastAccepting = current.2
        stateChangeTime = now
        return true
    }

    /// printer-is-accepting-jobs: not after Disable-Printer or Shutdown-Printer, nor while the disk is full.
    var acceptsJobs: Bool { isAcceptingJobs && !spoolAreaFull }

    /// True when queued jobs may start.
    var canStartJobs: Bool { !paused && !shutdown && !hasErrorReason }

    /// Jobs not yet ended (pending, held, processing, stopped).
    var activeJobCount: Int {
        jobs.values.count { !$0.state.isTerminal }
    }
}
