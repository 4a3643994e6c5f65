/// What becomes of the jobs of an earlier run when the printer starts again on the same output folder
/// (`--on-restart`, docs/job-record.md "After a crash").
public enum RestartPolicy: String, Sendable, CaseIterable {
    /// Jobs that were accepted go on: queued ones are queued again, one being printed is printed again from
    /// the start, a Create-Job still waiting for documents waits again. The default.
    case requeue
    /// Every job that had not ended is aborted (aborted-by-system), as vprinter did before restarts continued.
    case abort
}

extension Job {
    /// What a restart did to a job.
    public enum TakeOver: Equatable, Sendable {
        /// The job stays as it was recorded (ended, held, suspended, or a Create-Job waiting for documents).
        case unchanged
        /// The job is queued again; `wasPrinting` when it had started (it goes before jobs that had not).
        case requeued(wasPrinting: Bool)
        /// The job ended aborted.
        case aborted
    }

    /// Takes the job over from an earlier run, as `policy` says; the record must be rewritten unless the result
    /// is `.unchanged`.
    ///
    /// With `.requeue`: a job queued, printing or stopped by the printer is queued again (`printerRestarted`)
    /// and its page images are to be made again; a Print-Job whose document was still arriving was never
    /// accepted and is aborted (`submissionInterrupted`); a Create-Job waiting for Send-Document or Close-Job
    /// waits again, its multiple-operation-time-out counted from now; held jobs stay held and suspended jobs
    /// suspended (Resume-Job then prints them from the start). With `.abort`: every job that had not ended is
    /// aborted with aborted-by-system.
    public mutating func takeOver(after policy: RestartPolicy, at now: Double) -> TakeOver {
        guard !state.isTerminal else { return .unchanged }
        lastActivity = now
        if policy == .abort {
            let was = state.keyword
            _ = try? apply(
                .aborted(reason: "aborted-by-system", message: "The printer stopped while the job was \(was)."), at: now
            )
            return .aborted
        }
        if isReceiving {
            if creationOperation == "Create-Job" { return .unchanged }
            _ = try? apply(.submissionInterrupted, at: now)
            return .aborted
        }
        switch state {
        case .pendingHeld:
            return .unchanged
        case .processingStopped where reasons.contains("job-suspended"):
            renderInterrupted = true
            return .unchanged
        default:
            let wasPrinting = state == .processing || state == .processingStopped
            guard (try? apply(.printerRestarted, at: now)) != nil else { return .unchanged }
            return .requeued(wasPrinting: wasPrinting)
        }
    }
}
