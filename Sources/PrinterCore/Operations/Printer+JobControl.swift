import Foundation
import IPP
import PrintModel

/// Job control (RFC 8011, RFC 3998, PWG 5100.11): hold, release, restart, reprocess, resubmit, promote,
/// schedule after, cancel current, suspend and resume.
extension Printer {
    /// The job a job operation targets, or the error response.
    func targetJob(_ context: IPPRequestContext) -> Result<Job, IPPResponseError> {
        guard let id = context.jobID else {
            return .failure(IPPResponseError(.clientErrorBadRequest, "\(context.operation) needs job-id or job-uri."))
        }
        guard let job = job(id) else {
            return .failure(IPPResponseError(.clientErrorNotFound, "Job \(id) does not exist."))
        }
        return .success(job)
    }

    /// Why a job-password job is not released over IPP (PWG 5100.11): its PIN is entered at the printer.
    static func waitsForPassword(_ jobID: Int) -> String {
        "Job \(jobID) waits for its job password at the printer (POST /api/v1/jobs/\(jobID)/release)."
    }

    /// Applies a job event to the targeted job; a refused transition is client-error-not-possible.
    func applyToTarget(
        _ context: IPPRequestContext, _ event: JobEvent, prepare: @escaping (inout Job) -> Void = { _ in }
    ) -> IPPResponse {
        let job: Job
        switch targetJob(context) {
        case .success(let value): job = value
        case .failure(let error): return error.response
        }
        let result = updateJob(job.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            prepare(&job)
            do throws(JobTransitionError) {
                try job.apply(event, at: WallClock.now())
            } catch .waitsForPassword {
                throw IPPResponseError(.clientErrorNotPossible, Self.waitsForPassword(job.id))
            } catch {
                throw IPPResponseError(
                    .clientErrorNotPossible,
                    "\(context.operation) is not possible for job \(job.id) in state \(job.state.keyword).")
            }
        }
        return jobResponse(result, context: context)
    }

    /// Hold-Job (RFC 8011 section 4.3.5 of RFC 2911): a pending job waits until Release-Job.
    func holdJob(_ context: IPPRequestContext) -> IPPResponse {
        let until = context.attribute("job-hold-until")?.value?.stringValue ?? "indefinite"
        if !(cache["job-hold-until-supported"]?.values.contains { $0.stringValue == until } ?? false) {
            var error = IPPResponseError(
                .clientErrorAttributesOrValuesNotSupported, "job-hold-until \(until) is not supported.")
            error.unsupported = context.attribute("job-hold-until").map { [$0] } ?? []
            return error.response
        }
        if until == "no-hold" { return applyToTarget(context, .released) }
        return applyToTarget(context, .held) { $0.holdUntil = until }
    }

    /// Release-Job: a held job goes back to the queue.
    func releaseJob(_ context: IPPRequestContext) -> IPPResponse {
        return applyToTarget(context, .released)
    }

    /// Restart-Job (RFC 8011 section 4.3.7 of RFC 2911): an ended job prints again; its old page images go.
    func restartJob(_ context: IPPRequestContext) -> IPPResponse {
        if case .success(let job) = targetJob(context), job.state.isTerminal {
            removePageImages(of: job.id)
        }
        return applyToTarget(context, .restarted)
    }

    /// Reprocess-Job and Resubmit-Job (PWG 5100.11 sections 4.2.1, 4.2.4): a new job with the documents of an
    /// ended one; Resubmit-Job takes new job template attributes.
    func copyJob(_ context: IPPRequestContext) -> IPPResponse {
        let original: Job
        switch targetJob(context) {
        case .success(let value): original = value
        case .failure(let error): return error.response
        }
        guard original.state.isTerminal, !original.documents.isEmpty else {
            return .error(
                .clientErrorNotPossible,
                "Only an ended job with documents can be \(context.operation == .resubmitJob ? "resubmitted" : "reprocessed")."
            )
        }
        // A reprint is the full run of the job: not a proof again, not stored again (unless asked anew).
        var ticket = original.templateAttributes.filter { $0.name != "proof-print" && $0.name != "job-storage" }
        var checked = CheckedJobRequest(documentFormat: "", compression: "none", ticket: JobTicketValidator.Result())
        if context.operation == .resubmitJob {
            checked.ticket = JobTicketValidator(printer: cache).validate(context.jobAttributes)
            for attribute in checked.ticket.accepted {
                ticket.removeAll { $0.name == attribute.name }
                ticket.append(attribute)
            }
        }
        let created: Job
        switch createJobRecord(context, ticket: ticket) {
        case .success(let value): created = value.job
        case .failure(let error): return error.response
        }
        let source = recorder.folder(of: original.id)
        let target = recorder.folder(of: created.id)
        for document in original.documents {
            try? FileManager.default.copyItem(
                atPath: "\(source)/\(document.file)", toPath: "\(target)/\(document.file)")
            try? DurableFiles.sync(file: "\(target)/\(document.file)")
        }
        let result = updateJob(created.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            job.name = original.name
            job.documents = original.documents.map {
                var copy = $0; copy.pages = nil; return copy
            }
            job.documentPassword = original.documentPassword
            try closeReceiving(&job)
        }
        return jobResponse(result, checked: checked, context: context)
    }

    /// Promote-Job (PWG 5100.11 section 4.2.3): a queued job starts next.
    func promoteJob(_ context: IPPRequestContext) -> IPPResponse {
        guard let id = context.jobID else { return .error(.clientErrorBadRequest, "Promote-Job needs job-id.") }
        let moved = status.withLock { state in
            guard state.queue.contains(id) else { return false }
            state.queue.removeAll { $0 == id }
            state.queue.insert(id, at: 0)
            return true
        }
        if !moved && job(id) == nil { return .error(.clientErrorNotFound, "Job \(id) does not exist.") }
        return moved ? IPPResponse() : .error(.clientErrorNotPossible, "Job \(id) is not waiting in the queue.")
    }

    /// Schedule-Job-After (PWG 5100.11 section 4.2.5): a queued job starts right after job-id's predecessor
    /// (`predecessor-job-id`), or last without one.
    func scheduleJobAfter(_ context: IPPRequestContext) -> IPPResponse {
        guard let id = context.jobID else { return .error(.clientErrorBadRequest, "Schedule-Job-After needs job-id.") }
        let predecessor = context.attribute("predecessor-job-id")?.value?.integerValue.map(Int.init)
        let moved = status.withLock { state in
            guard state.queue.contains(id) else { return false }
            state.queue.removeAll { $0 == id }
            if let predecessor, let index = state.queue.firstIndex(of: predecessor) {
                state.queue.insert(id, at: index + 1)
            } else {
                state.queue.append(id)
            }
            return true
        }
        if !moved && job(id) == nil { return .error(.clientErrorNotFound, "Job \(id) does not exist.") }
        return moved ? IPPResponse() : .error(.clientErrorNotPossible, "Job \(id) is not waiting in the queue.")
    }

    /// Cancel-Current-Job (RFC 3998 section 3.2.3): the job being processed (or job-id, if it is) is canceled.
    func cancelCurrentJob(_ context: IPPRequestContext) -> IPPResponse {
        let current = jobs.first { $0.state == .processing || $0.state == .processingStopped }
        guard let current else { return .error(.clientErrorNotPossible, "No job is being processed.") }
        if let id = context.jobID, id != current.id {
            return .error(.clientErrorNotPossible, "Job \(id) is not the current job.")
        }
        switch cancel(current.id) {
        case .success: return IPPResponse()
        case .failure(let error): return error.response
        }
    }

    /// Suspend-Current-Job (RFC 3998 section 3.2.1): the current job stops in processing-stopped (job-suspended).
    func suspendCurrentJob(_ context: IPPRequestContext) -> IPPResponse {
        guard let current = jobs.first(where: { $0.state == .processing }) else {
            return .error(.clientErrorNotPossible, "No job is being processed.")
        }
        if let id = context.jobID, id != current.id {
            return .error(.clientErrorNotPossible, "Job \(id) is not the current job.")
        }
        let result = updateJob(current.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            do {
                try job.apply(.suspended, at: WallClock.now())
            } catch {
                throw IPPResponseError(.clientErrorNotPossible, "Job \(job.id) cannot be suspended now.")
            }
        }
        if case .failure(let error) = result { return error.response }
        return IPPResponse()
    }

    /// Resume-Job (RFC 3998 section 3.2.2): a suspended job goes on; if it finished meanwhile, it ends now.
    func resumeJob(_ context: IPPRequestContext) -> IPPResponse {
        if case .success(let job) = targetJob(context), job.renderInterrupted, job.state == .processingStopped {
            // Suspended before the printer restarted: no render goes on behind it, so it prints from the start.
            removePageImages(of: job.id)
            return applyToTarget(context, .printerRestarted)
        }
        let response = applyToTarget(context, .resumed)
        if response.status.isSuccess, let id = context.jobID,
            let outcome = job(id)?.outcomeWhileSuspended
        {
            _ = updateJob(id) { $0.outcomeWhileSuspended = nil }
            finish(id, with: outcome)
        }
        return response
    }

    /// Removes the page images of a job and their text files, and forgets their texts (before it is printed
    /// again).
    func removePageImages(of jobID: Int) {
        let folder = recorder.folder(of: jobID)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix("page-") && (name.hasSuffix(".png") || name.hasSuffix(".txt")) {
            try? FileManager.default.removeItem(atPath: "\(folder)/\(name)")
        }
        textStore.forget([jobID])
    }
}
