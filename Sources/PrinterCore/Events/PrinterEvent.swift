import PrintModel

/// A change a test may wait for: a job created or changing state, a printer changing state, a scan job's change.
public struct PrinterEvent: Sendable, Equatable {
    /// What happened; the event stream's `event:` field.
    public enum Kind: String, Sendable {
        case jobCreated = "job-created"
        case jobStateChanged = "job-state-changed"
        case jobProgress = "job-progress"
        case printerStateChanged = "printer-state-changed"
        case printerConfigChanged = "printer-config-changed"
        /// A scan job made, given an image, or ended (`job-id` is the scan job's number, `state` its state).
        case scanStateChanged = "scan-state-changed"
    }

    public var kind: Kind
    /// Increases by one with every event of a process; lets a reader resume (`Last-Event-ID`).
    public var sequence: Int
    public var time: Double
    public var printerName: String
    public var jobID: Int?
    /// job-state or printer-state keyword.
    public var state: String
    public var reasons: [String]
    public var message: String?
    /// The user the job belongs to, for a job event: whose subscriptions may see it (not in the JSON form).
    public var jobOwner: String? = nil
    /// printer-is-accepting-jobs when a printer event happened, for its notifications (not in the JSON form).
    public var acceptingJobs: Bool? = nil

    /// The event as a JSON object.
    public var json: [String: Any] {
        var object: [String: Any] = [
            "event": kind.rawValue, "sequence": sequence, "time": JobRecord.iso8601(time),
            "printer-name": printerName, "state": state, "reasons": reasons,
        ]
        if let jobID { object["job-id"] = jobID }
        if let message { object["message"] = message }
        return object
    }
}
