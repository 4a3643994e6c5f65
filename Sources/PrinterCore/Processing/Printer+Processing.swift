import Foundation
import IPP

extension Printer {
    /// Starts the first queued job, unless the printer is paused, shut down or in error (called once per queued
    /// job by the scheduler; a resumed printer calls it again for each job still queued).
    func processNext() {
        let next: Int? = status.withLock { state in
            guard state.canStartJobs, !state.queue.isEmpty else { return nil }
            return state.queue.removeFirst()
        }
        if let next { process(jobID: next) }
    }

    /// Applies a change to the printer's own state, records the state change and wakes queued jobs when the
    /// printer can print again.
    func updatePrinter(_ change: (inout PrinterStatus) -> Void) {
        let wake: Int = status.withLock { state in
            let couldStart = state.canStartJobs
            change(&state)
            if state.noteStateChange(at: WallClock.now()) {
                publishPrinterState(state.lastState, reasons: state.reasons, accepting: state.acceptsJobs)
            }
            return !couldStart && state.canStartJobs ? state.queue.count : 0
        }
        for _ in 0..<wake { scheduler.enqueue { [self] in processNext() } }
    }

    /// Processes one queued job on a scheduler worker: render (when a renderer is wired in), then complete.
    func process(jobID: Int) {
        let started = updateJob(jobID) { (job: inout Job) throws(IPPResponseError) in
            do {
                try job.apply(.processingStarted, at: WallClock.now())
            } catch {
                throw IPPResponseError(.clientErrorNotPossible, "\(error)")
            }
        }
        guard case .success(let job) = started else { return }  // canceled while queued
        if let abort = faults.takePendingAbort() {
            finish(jobID, with: .aborted(reason: abort.reason, message: abort.message))
            return
        }
        if let problem = mislabelledDocument(in: job) {
            finish(jobID, with: .aborted(reason: "document-format-error", message: problem))
            return
        }
        if let problem = unsupportedDocument(in: job) {
            finish(jobID, with: .aborted(reason: "unsupported-document-format", message: problem))
            return
        }
        guard let renderer, Self.storageDisposition(of: job) != "store-only" else {
            finish(jobID, with: .processingFinished)
            return
        }
        let renderJob = RenderJob(
            jobID: jobID, folder: recorder.folder(of: jobID), documents: job.documents.filter { !$0.isCanceled },
            ticket: Self.renderTicket(of: job), printerAttributes: cache.attributes)
        let formatWarnings = documentWarnings(job)
        if !formatWarnings.isEmpty { _ = updateJob(jobID) { $0.warnings += formatWarnings } }
        let outcome = renderer.render(
            renderJob, password: job.documentPassword,
            onImpression: { [self] impression in
                _ = updateJob(jobID) { noteImpression(impression, of: &$0) }
            },
            onWarning: { [self] warning in
                _ = updateJob(jobID) { $0.warnings.append(warning) }
            },
            isCanceled: { [self] in self.job(jobID)?.state.isTerminal ?? true })
        switch outcome {
        case .completed(let pages):
            _ = updateJob(jobID) { job in
                // The counts of the documents rendered, in the render's order (canceled ones were left out).
                for (rendered, count) in zip(renderJob.documents, pages) {
                    guard let index = job.documents.firstIndex(where: { $0.number == rendered.number }) else {
                        continue
                    }
                    job.documents[index].pages = count
                }
            }
            if printSheets(jobID: jobID) { finish(jobID, with: .processingFinished) }
        case .failed(let reason, let message):
            finish(jobID, with: .aborted(reason: reason, message: message))
        case .canceled:
            break
        }
    }

    /// The reason a job cannot be printed because of a document's format, if any.
    func unsupportedDocument(in job: Job) -> String? {
        let listed = cache["document-format-supported"]?.values.compactMap(\.stringValue) ?? []
        let supported = Set(listed.map { $0.lowercased() })
        for document in job.documents {
            let format = document.effectiveFormat
            if format.matches(.octetStream) {
                return "Document \(document.number) is in a format that cannot be recognized."
            }
            if !supported.contains(format.rawValue.lowercased()) {
                return "Document \(document.number) is \(format), which this printer does not support."
            }
        }
        return nil
    }

    /// The problem of a document whose data is not the format it is labelled, if any, refused as malformed
    /// (document-format-error) rather than printed as whatever it turns out to be. Always for PCLm, as the render
    /// worker refuses it (a client that sends PCLm does so because its printer takes it); for any declared format
    /// when the printer is strict (application/octet-stream asks the printer to find out; PCLm is a PDF).
    func mislabelledDocument(in job: Job) -> String? {
        // A job received while the printer was lenient and processed after it turned strict.
        if isStrict {
            for document in job.documents where !document.format.matches(.pclm) {
                guard let detected = document.mislabelledAs else { continue }
                return "Document \(document.number) is labelled \(document.format) but the data is \(detected)."
            }
        }
        for document in job.documents where document.format.matches(.pclm) {
            switch document.detectedFormat {
            case "application/PCLm"?: continue
            case "application/pdf"?:
                return "Document \(document.number) is not valid PCLm: a PDF without the '%PCLm 1.0' comment after its "
                    + "header."
            case let other?: return "Document \(document.number) is not valid PCLm: the data is \(other)."
            case nil: return "Document \(document.number) is not valid PCLm: the data is in no known format."
            }
        }
        return nil
    }

    /// Moves a processing job to its end state; a job canceled meanwhile stays canceled.
    func finish(_ jobID: Int, with event: JobEvent) {
        let result = updateJob(jobID) { job in
            guard !job.state.isTerminal else { return }
            if job.state == .processingStopped && job.reasons.contains("job-suspended") {
                job.outcomeWhileSuspended = event  // Resume-Job applies it
                return
            }
            _ = try? job.apply(event, at: WallClock.now())
            // Counted before the end is recorded and told to waiters, so that /metrics read after a wait agrees.
            if job.state.isTerminal { counters.jobEnded(job) }
            if case .processingFinished = event, job.state == .completed, let stored = Self.storedReasons(of: job) {
                job.reasons = stored
            }
        }
        if case .success(let job) = result, job.state.isTerminal {
            log("job \(jobID) \(job.state.keyword): \(job.message)")
            for fault in faults.jobEnded() { fire(fault.id, jobID: nil) }
        }
        pruneJobs()
    }

    /// Applies multiple-operation-time-out to jobs still waiting for documents, and drops the scan jobs no client
    /// fetched (``ScannerDevice/abandonedJobTimeout``); called periodically.
    public func expireIdleJobs() {
        let now = WallClock.now()
        scanner?.expireAbandonedJobs(now: now)
        let expired = status.withLock { state in
            state.jobs.values.filter { $0.isReceiving && now - $0.lastActivity > multipleOperationTimeout }.map(\.id)
        }
        for id in expired {
            let result = updateJob(id) { job in
                guard job.isReceiving else { return }
                _ = try? job.apply(.timedOut(action: multipleOperationTimeoutAction), at: now)
            }
            if case .success(let job) = result {
                log("job \(id) timed out waiting for documents: \(job.state.keyword)")
            }
        }
    }
}

extension Printer {
    /// True while a job of this printer is being processed.
    public var hasActiveProcessing: Bool {
        status.withLock { state in state.jobs.values.contains { $0.state == .processing } }
    }

    /// Ends every job that has not ended (at shutdown): aborted, with a message; records are rewritten.
    public func abortUnfinishedJobs(message: String) {
        let ids = status.withLock { state in state.jobs.values.filter { !$0.state.isTerminal }.map(\.id) }
        for id in ids {
            _ = updateJob(id) { job in
                _ = try? job.apply(.aborted(reason: "aborted-by-system", message: message), at: WallClock.now())
            }
        }
    }
}

extension Printer {
    /// Forgets every job (API reset): jobs not ended are canceled first, then records and folders removed.
    /// Job ids go on increasing.
    @discardableResult
    public func forgetAllJobs() -> Int {
        let removed: [Job] = status.withLock { state in
            let all = state.jobOrder.compactMap { state.jobs[$0] }
            state.jobs.removeAll()
            state.jobOrder.removeAll()
            state.noteStateChange(at: WallClock.now())
            return all
        }
        for job in removed {
            try? FileManager.default.removeItem(atPath: recorder.folder(of: job.id))
        }
        textStore.forget(removed.map(\.id))
        return removed.count
    }
}
