/// An event keyword of notify-events (RFC 3995 section 5.3.3.4), an open set.
///
/// Some events are parts of a broader one: a subscription to job-state-changed also receives job-created,
/// job-completed and job-stopped, and one to printer-state-changed also receives printer-stopped, as
/// RFC 3995 section 5.3.3.4.2 describes them as kinds of those changes.
struct NotifyEvent: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: String

    init(rawValue: String) {
        self.rawValue = rawValue
    }

    var description: String { rawValue }

    /// No events at all (RFC 3995 section 5.3.3.4.1).
    static let none = Self(rawValue: "none")
    /// The printer accepted a new job.
    static let jobCreated = Self(rawValue: "job-created")
    /// A job changed state or state reasons.
    static let jobStateChanged = Self(rawValue: "job-state-changed")
    /// A job ended: completed, canceled or aborted.
    static let jobCompleted = Self(rawValue: "job-completed")
    /// A job went to processing-stopped.
    static let jobStopped = Self(rawValue: "job-stopped")
    /// A job printed another impression.
    static let jobProgress = Self(rawValue: "job-progress")
    /// The printer changed state or state reasons.
    static let printerStateChanged = Self(rawValue: "printer-state-changed")
    /// The printer went to stopped.
    static let printerStopped = Self(rawValue: "printer-stopped")
    /// A printer attribute changed its value.
    static let printerConfigChanged = Self(rawValue: "printer-config-changed")

    /// notify-events-supported: the events this printer can report.
    static let supported: [NotifyEvent] = [
        .none, .jobCreated, .jobStateChanged, .jobCompleted, .jobStopped, .jobProgress, .printerStateChanged,
        .printerStopped, .printerConfigChanged,
    ]

    /// notify-events-default: what a subscription that names no events receives.
    static let defaults: [NotifyEvent] = [.jobCompleted]

    /// The broader event this one is a kind of, if any.
    var parent: NotifyEvent? {
        switch self {
        case .jobCreated, .jobCompleted, .jobStopped: .jobStateChanged
        case .printerStopped: .printerStateChanged
        default: nil
        }
    }

    /// True for job events, which concern one job.
    var isJobEvent: Bool { rawValue.hasPrefix("job-") }

    /// The event a published printer event is, the most specific one.
    init(_ event: PrinterEvent) {
        switch event.kind.rawValue {
        case "job-state-changed":
            if ["completed", "canceled", "aborted"].contains(event.state) {
                self = .jobCompleted
            } else if event.state == "processing-stopped" {
                self = .jobStopped
            } else {
                self = .jobStateChanged
            }
        case "printer-state-changed":
            self = event.state == "stopped" ? .printerStopped : .printerStateChanged
        default:
            // job-created, job-progress and any later kind share their keyword with IPP.
            self = NotifyEvent(rawValue: event.kind.rawValue)
        }
    }

    /// Which of a subscription's events this event matches: itself, else its broader event; nil when neither.
    func matched(by subscribed: [NotifyEvent]) -> NotifyEvent? {
        if subscribed.contains(self) { return self }
        if let parent, subscribed.contains(parent) { return parent }
        return nil
    }
}
