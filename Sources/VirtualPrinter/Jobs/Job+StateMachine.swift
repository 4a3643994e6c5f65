/// The job lifecycle as a value: each event yields the next state and reasons, or an error.
///
/// ```
/// pending(job-incoming) --documentsComplete--> pending(job-queued) --processingStarted--> processing
/// processing --processingFinished--> completed
/// any non-terminal --canceled--> canceled;  any non-terminal --aborted--> aborted
/// pending(job-incoming) --timedOut--> aborted(aborted-by-system), or pending(job-queued) with documents
/// ```
extension Job {
    /// The state a job takes after an event, without changing the job.
    public struct Transition: Equatable, Sendable {
        public var state: JobState
        public var reasons: [String]
        public var message: String
        /// True when the job is ready to be queued for a worker.
        public var enqueue: Bool = false
    }

    /// Computes the transition for an event.
    public func transition(for event: JobEvent) throws(JobTransitionError) -> Transition {
        if state.isTerminal { throw .jobEnded(state) }
        switch event {
        case .documentsComplete:
            guard isReceiving else { throw .notPossible(from: state, event: event) }
            return Transition(state: .pending, reasons: ["job-queued"], message: "Job queued.", enqueue: true)
        case .processingStarted:
            guard state == .pending, !isReceiving else { throw .notPossible(from: state, event: event) }
            return Transition(state: .processing, reasons: ["job-printing"], message: "Printing.")
        case .processingFinished:
            guard state == .processing || state == .processingStopped else {
                throw .notPossible(from: state, event: event)
            }
            return Transition(
                state: .completed, reasons: ["job-completed-successfully"], message: "Job completed.")
        case .aborted(let reason, let message):
            return Transition(state: .aborted, reasons: [reason], message: message)
        case .canceled(let byUser):
            return Transition(
                state: .canceled, reasons: [byUser ? "job-canceled-by-user" : "job-canceled-by-operator"],
                message: "Job canceled.")
        case .timedOut:
            guard isReceiving else { throw .notPossible(from: state, event: event) }
            if documents.isEmpty {
                return Transition(
                    state: .aborted, reasons: ["aborted-by-system"],
                    message: "No document arrived within multiple-operation-time-out.")
            }
            return Transition(
                state: .pending, reasons: ["job-queued"],
                message: "Job closed by multiple-operation-time-out.", enqueue: true)
        }
    }

    /// Applies an event: moves the job to the next state and stamps the state's time.
    @discardableResult
    public mutating func apply(_ event: JobEvent, at now: Double) throws(JobTransitionError) -> Transition {
        let next = try transition(for: event)
        if case .documentsComplete = event { isReceiving = false }
        if case .timedOut = event { isReceiving = false }
        state = next.state
        reasons = next.reasons
        message = next.message
        if next.state == .processing, timeProcessing == nil { timeProcessing = now }
        if next.state.isTerminal {
            isReceiving = false
            timeCompleted = now
        }
        history.append(JobHistoryEntry(time: now, state: next.state, reasons: next.reasons))
        return next
    }
}
