import IPP

/// Printer administration (RFC 8011 section 4.3, RFC 3998, PWG 5100.11): pause, resume, enable, disable,
/// hold new jobs, purge, shutdown and startup. vprinter is a test tool: any user may administer it.
extension Printer {
    /// Pause-Printer and Pause-Printer-After-Current-Job: no queued job starts; the current one finishes
    /// (moving-to-paused, then paused).
    func pausePrinter(_ context: IPPRequestContext) -> IPPResponse {
        setPaused(true, by: context.user)
        return IPPResponse()
    }

    /// Resume-Printer: queued jobs start again.
    func resumePrinter(_ context: IPPRequestContext) -> IPPResponse {
        setPaused(false, by: context.user)
        return IPPResponse()
    }

    /// Pauses or resumes the printer (Pause-Printer, Resume-Printer, `POST /api/v1/printers/<name>/pause`).
    public func setPaused(_ paused: Bool, by user: String) {
        updatePrinter { $0.paused = paused }
        log("\(paused ? "paused" : "resumed") by \(user)")
    }

    /// True while paused (Pause-Printer).
    public var isPaused: Bool { status.withLock { $0.paused } }

    /// True while new jobs are held (Hold-New-Jobs).
    public var holdsNewJobs: Bool { status.withLock { $0.holdNewJobs } }

    /// Enable-Printer and Disable-Printer (RFC 3998 sections 3.1.1, 3.1.2): printer-is-accepting-jobs.
    func setAcceptingJobs(_ context: IPPRequestContext, _ accepting: Bool) -> IPPResponse {
        updatePrinter { $0.isAcceptingJobs = accepting }
        log("\(accepting ? "enabled" : "disabled") by \(context.user)")
        return IPPResponse()
    }

    /// Hold-New-Jobs (RFC 3998 section 3.3.1): jobs created from now on wait in pending-held.
    func holdNewJobs(_ context: IPPRequestContext) -> IPPResponse {
        setHoldNewJobs(true)
        return IPPResponse()
    }

    /// Release-Held-New-Jobs (RFC 3998 section 3.3.2): new jobs print again, and those held meanwhile are released.
    func releaseHeldNewJobs(_ context: IPPRequestContext) -> IPPResponse {
        setHoldNewJobs(false)
        return IPPResponse()
    }

    /// Holds new jobs, or releases them and those held meanwhile (Hold-New-Jobs, Release-Held-New-Jobs,
    /// `POST /api/v1/printers/<name>/hold-new-jobs`).
    public func setHoldNewJobs(_ hold: Bool) {
        updatePrinter { $0.holdNewJobs = hold }
        guard !hold else { return }
        for job in jobs where job.heldForNewJobs && job.state == .pendingHeld {
            _ = updateJob(job.id, durable: true) { job in
                job.heldForNewJobs = false
                if job.holdUntil == nil { _ = try? job.apply(.released, at: WallClock.now()) }
            }
        }
    }

    /// Shutdown-Printer (RFC 3998 section 3.5.2): stopped and not accepting jobs until Startup-Printer.
    func shutdownPrinter(_ context: IPPRequestContext) -> IPPResponse {
        updatePrinter {
            $0.shutdown = true
            $0.isAcceptingJobs = false
        }
        return IPPResponse()
    }

    /// Startup-Printer (RFC 3998 section 3.5.3) and Restart-Printer (section 3.5.1): back to a fresh, accepting,
    /// unpaused printer; jobs are kept.
    func startupPrinter(_ context: IPPRequestContext) -> IPPResponse {
        updatePrinter {
            $0.shutdown = false
            $0.paused = false
            $0.holdNewJobs = false
            $0.isAcceptingJobs = true
        }
        return IPPResponse()
    }

    /// Purge-Jobs (RFC 8011 section 4.3.5 of RFC 2911): every job, ended or not, is removed with its files.
    func purgeJobs(_ context: IPPRequestContext) -> IPPResponse {
        let count = forgetAllJobs()
        log("purged \(count) jobs at the request of \(context.user)")
        return IPPResponse()
    }
}
