import IPP

/// One fault to play: when it happens (trigger), what it does (effect), and when it clears by itself.
///
/// Written in scenario files, sent to `POST /api/v1/printers/<name>/faults`, documented in docs/scenarios.md.
public struct FaultSpec: Sendable, Equatable {
    public var name: String?
    public var trigger: FaultTrigger
    public var effect: FaultEffect
    /// Seconds after it fires when the effect is undone (reasons removed, levels restored); nil keeps it until
    /// cleared through the API.
    public var clearAfter: Double?
    /// The group the fault belongs to (the scenario that added it, or a name the API gave), so that the faults
    /// of one cause are listed and cleared together.
    public var group: String?

    public init(
        name: String? = nil, trigger: FaultTrigger, effect: FaultEffect, clearAfter: Double? = nil,
        group: String? = nil
    ) {
        self.name = name
        self.trigger = trigger
        self.effect = effect
        self.clearAfter = clearAfter
        self.group = group
    }
}

/// When a fault fires.
public enum FaultTrigger: Sendable, Equatable {
    /// As soon as it is added.
    case now
    /// Once this many more jobs have ended.
    case afterJobs(Int)
    /// When a job prints its impression number N (counted from 1 within the job).
    case atPage(Int)
    /// This many seconds after it is added.
    case afterSeconds(Double)
    /// On each of the next `count` requests of an operation (`any` for every operation).
    case requests(operation: String, count: Int)
}

/// What a fault does.
public enum FaultEffect: Sendable, Equatable {
    /// Adds printer-state-reasons (an `-error` reason stops the printer).
    case addReasons([PrinterStateReason])
    /// Removes printer-state-reasons.
    case removeReasons([PrinterStateReason])
    /// Aborts the job (the one printing the page, the current one, or the next to start) with a reason.
    case abortJob(reason: String, message: String)
    /// Holds the next job created (pending-held) with a reason.
    case holdJob(reason: String)
    /// Answers the triggering request with this status (request triggers only).
    case status(IPPStatus, message: String)
    /// Delays the answer to the triggering request by seconds (request triggers only).
    case delay(Double)
    /// Closes the connection before answering, or in the middle of the answer (request triggers only).
    case closeConnection(midResponse: Bool)
    /// Reads the triggering request's document slowly, in bytes per second (request triggers only).
    case slowRead(bytesPerSecond: Int)
    /// Sets a tray's level (sheets; 0 empties it); nil source = every tray.
    case setTray(source: String?, level: Int)
    /// Sets a supply's level (percent); nil index = every supply.
    case setSupply(index: Int?, level: Int)
    /// Sets the output bin's level (sheets).
    case setOutputBin(level: Int)
    /// Switches the printer off (withdrawn from DNS-SD, its own port refuses connections, its path on a shared
    /// port leaves them unanswered) or on again.
    case power(on: Bool)
    /// Sets a fault of the printer's scanner (docs/scanning.md "Faults"); undone, it clears it. Nothing on a
    /// printer without a scanner.
    case scannerFault(ScannerFault)

    /// True for effects that act on one request.
    public var isRequestEffect: Bool {
        switch self {
        case .status, .delay, .closeConnection, .slowRead: true
        default: false
        }
    }
}
