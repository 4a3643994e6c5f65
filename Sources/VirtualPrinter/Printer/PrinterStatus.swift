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

/// The mutable state of one printer, kept under the printer's lock.
struct PrinterStatus: Sendable {
    var jobs: [Int: Job] = [:]
    /// Job ids in creation order.
    var jobOrder: [Int] = []
    /// Extra printer-state-reasons (faults, identify); `none` is implied when empty.
    var reasons: [String] = []
    var stopped = false
    var isAcceptingJobs = true
    var stateChangeTime: Double
    var configChangeTime: Double
    var lastState: PrinterStateValue = .idle
    /// The DNS-SD name after a collision rename, when it differs from printer-name.
    var dnsSDName: String?
    /// True between `beginRestore()` and `restore(_:)`.
    var restorePending = false

    init(now: Double) {
        stateChangeTime = now
        configChangeTime = now
    }

    /// The printer-state that follows from the jobs and faults.
    var state: PrinterStateValue {
        if stopped { return .stopped }
        return jobs.values.contains { $0.state == .processing } ? .processing : .idle
    }

    /// Records a state change time when the derived state changed.
    mutating func noteStateChange(at now: Double) {
        let current = state
        if current != lastState {
            lastState = current
            stateChangeTime = now
        }
    }

    /// Jobs not yet ended (pending, held, processing, stopped).
    var activeJobCount: Int {
        jobs.values.count { !$0.state.isTerminal }
    }
}
