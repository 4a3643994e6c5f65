import PrintModel

/// The job lifecycle as a value: each event yields the next state and reasons, or an error.
///
/// ```
/// pending(job-incoming) --documentsComplete--> pending(job-queued) --processingStarted--> processing
/// processing --processingFinished--> completed
/// any non-terminal --canceled--> canceled;  any non-terminal --aborted--> aborted
/// pending(job-incoming) --timedOut--> aborted(aborted-by-system); with documents, as the action says:
///   abort-job -> aborted, hold-job -> pending-held, process-job -> pending(job-queued)
/// pending --held--> pending-held --released--> pending;  documentsComplete of a held job --> pending-held
/// processing --suspended--> processing-stopped(job-suspended) --resumed--> processing
/// canceled, aborted or completed --restarted--> pending(job-queued)
/// processing --printerStopped--> processing-stopped(printer-stopped) --printerResumed--> processing
/// pending(job-queued), processing or processing-stopped --printerRestarted--> pending(job-queued)
/// pending(job-incoming) --submissionInterrupted--> aborted(aborted-by-system, submission-interrupted)
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
        if case .restarted = event {
            guard state.isTerminal, !documents.isEmpty else { throw .notPossible(from: state, event: event) }
            return Transition(state: .pending, reasons: ["job-queued"], message: "Job restarted.", enqueue: true)
        }
        if state.isTerminal { throw .jobEnded(state) }
        switch event {
        case .documentsComplete:
            guard isReceiving else { throw .notPossible(from: state, event: event) }
            if isHeld {
                return Transition(
                    state: .pendingHeld, reasons: [holdReason ?? "job-hold-until-specified"], message: "Job held.")
            }
            return Transition(state: .pending, reasons: ["job-queued"], message: "Job queued.", enqueue: true)
        case .held:
            guard state == .pending || state == .pendingHeld else { throw .notPossible(from: state, event: event) }
            return Transition(
                state: .pendingHeld, reasons: (isReceiving ? ["job-incoming"] : []) + ["job-hold-until-specified"],
                message: "Job held.")
        case .released:
            guard state == .pendingHeld else { throw .notPossible(from: state, event: event) }
            // Hold-Job with no-hold, Set-Job-Attributes, Release-Job: no door but the password.
            if jobPassword != nil { throw .waitsForPassword }
            if isReceiving {
                return Transition(state: .pending, reasons: ["job-incoming"], message: "Waiting for documents.")
            }
            return Transition(state: .pending, reasons: ["job-queued"], message: "Job released.", enqueue: true)
        case .suspended:
            guard state == .processing else { throw .notPossible(from: state, event: event) }
            return Transition(state: .processingStopped, reasons: ["job-suspended"], message: "Job suspended.")
        case .resumed:
            guard state == .processingStopped, reasons.contains("job-suspended") else {
                throw .notPossible(from: state, event: event)
            }
            return Transition(state: .processing, reasons: ["job-printing"], message: "Printing.")
        case .printerStopped:
            guard state == .processing else { throw .notPossible(from: state, event: event) }
            return Transition(state: .processingStopped, reasons: ["printer-stopped"], message: "The printer stopped.")
        case .printerResumed:
            guard state == .processingStopped, reasons.contains("printer-stopped") else {
                throw .notPossible(from: state, event: event)
            }
            return Transition(state: .processing, reasons: ["job-printing"], message: "Printing.")
        case .restarted:
            throw .notPossible(from: state, event: event)
        case .printerRestarted:
            guard !isReceiving, state != .pendingHeld else { throw .notPossible(from: state, event: event) }
            let message =
                state == .pending
                ? "The printer restarted; the job is queued again."
                : "The printer restarted while the job was \(state.keyword); it is printed again from the start."
            return Transition(state: .pending, reasons: ["job-queued"], message: message, enqueue: true)
        case .submissionInterrupted:
            guard isReceiving else { throw .notPossible(from: state, event: event) }
            return Transition(
                state: .aborted, reasons: ["aborted-by-system", "submission-interrupted"],
                message: "The printer stopped before the document had arrived whole; the job was not accepted.")
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
        case .timedOut(let action):
            guard isReceiving else { throw .notPossible(from: state, event: event) }
            if documents.isEmpty || action == "abort-job" {
                return Transition(
                    state: .aborted, reasons: ["aborted-by-system"],
                    message: "The job was not closed within multiple-operation-time-out.")
            }
            if action == "hold-job" {
                return Transition(
                    state: .pendingHeld, reasons: ["job-hold-until-specified"],
                    message: "Job held by multiple-operation-time-out.")
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
        if case .released = event {
            holdUntil = nil
            holdReason = nil
            heldForNewJobs = false
        }
        if event == .restarted || event == .printerRestarted {
            outcomeWhileSuspended = nil
            renderInterrupted = false
            timeProcessing = nil
            timeCompleted = nil
            impressions = []
            impressionsCompleted = 0
            sheetsCompleted = 0
        }
        if case .timedOut(let action) = event {
            isReceiving = false
            if action == "hold-job" && holdUntil == nil { holdUntil = "indefinite" }
        }
        state = next.state
        reasons = next.reasons
        message = next.message
        if next.state == .processing, timeProcessing == nil { timeProcessing = now }
        if case .held = event, holdUntil == nil, !heldForNewJobs { holdUntil = "indefinite" }
        if next.state.isTerminal {
            isReceiving = false
            timeCompleted = now
        }
        history.append(JobHistoryEntry(time: now, state: next.state, reasons: next.reasons, message: next.message))
        return next
    }
}
