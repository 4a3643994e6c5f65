import PrintModel

/// Something that happens to a job; `Job.apply(_:)` turns it into the next state.
public enum JobEvent: Sendable, Equatable {
    /// The job's last document arrived (Print-Job data, last-document, Close-Job).
    case documentsComplete
    /// A worker took the job.
    case processingStarted
    /// The worker finished every document.
    case processingFinished
    /// The job cannot go on; `reason` is a job-state-reasons keyword such as `document-format-error`.
    case aborted(reason: String, message: String)
    /// A user or operator canceled the job.
    case canceled(byUser: Bool)
    /// multiple-operation-time-out expired with the job still waiting for documents; `action` is the printer's
    /// multiple-operation-time-out-action: abort-job, hold-job or process-job (PWG 5100.13 section 5.2.2).
    case timedOut(action: String)
    /// Hold-Job, job-hold-until or Hold-New-Jobs: the job waits in pending-held.
    case held
    /// Release-Job: a held job goes back to pending.
    case released
    /// Restart-Job: an ended job is printed again.
    case restarted
    /// Suspend-Current-Job: the processing job stops (processing-stopped, job-suspended).
    case suspended
    /// Resume-Job: a suspended job goes on.
    case resumed
    /// The printer stopped (an `-error` reason, no paper) while the job printed: processing-stopped.
    case printerStopped
    /// The printer can print again: the stopped job goes on.
    case printerResumed
    /// The printer started again after it stopped (killed, crashed, shut down) with the job queued or being
    /// printed: the job is queued again and printed from the start.
    case printerRestarted
    /// The printer started again after it stopped while the job's Print-Job document was still arriving: the
    /// job was never accepted and ends aborted (RFC 8011 section 5.3.8, submission-interrupted).
    case submissionInterrupted
}

/// Why an event cannot apply to a job in its current state.
public enum JobTransitionError: Error, Equatable, Sendable {
    /// The job already ended (canceled, aborted or completed).
    case jobEnded(JobState)
    /// The event does not fit the state, e.g. processing a job that still receives documents.
    case notPossible(from: JobState, event: JobEvent)
    /// The job waits for its job-password (PWG 5100.11): only the password entered at the printer releases it.
    case waitsForPassword
}
