import IPP
import PrintModel

extension Printer {
    /// Print-Job (RFC 8011 section 4.2.1): validate, create the job, then receive its one document.
    func printJob(_ context: IPPRequestContext) -> OperationOutcome {
        let checked: CheckedJobRequest
        switch checkJobRequest(context, forDocument: true) {
        case .success(let value): checked = value
        case .failure(let error): return .response(error.response)
        }
        let created: CreatedJob
        let ignored = checked.ignoredAttributes(context: context, printer: cache)
        switch createJobRecord(context, ticket: checked.ticket.accepted, ignored: ignored) {
        case .success(let value): created = value
        case .failure(let error): return .response(error.response)
        }
        let job = created.job
        let writer = DocumentWriter(
            folder: recorder.folder(of: job.id), number: 1, declaredFormat: checked.documentFormat,
            compression: checked.compression, name: context.attribute("document-name")?.value?.stringValue,
            maximumSize: configuration.maximumDocumentSize, floor: configuration.diskFloor)
        return .receiveDocument(
            DocumentReception(writer: writer) { [self] result in
                finishDocument(
                    jobID: job.id, result: result, last: true, context: context, unsupported: checked,
                    subscribed: created.subscribed)
            })
    }

    /// Validate-Job (RFC 8011 section 4.2.3): the same checks as Print-Job, no job.
    func validateJob(_ context: IPPRequestContext) -> IPPResponse {
        switch checkJobRequest(context, forDocument: true) {
        case .success(let checked): return checked.response()
        case .failure(let error): return error.response
        }
    }

    /// Create-Job (RFC 8011 section 4.2.4): a job that waits for Send-Document.
    func createJob(_ context: IPPRequestContext) -> IPPResponse {
        let checked: CheckedJobRequest
        switch checkJobRequest(context, forDocument: false) {
        case .success(let value): checked = value
        case .failure(let error): return error.response
        }
        let ignored = checked.ignoredAttributes(context: context, printer: cache)
        var subscribed: SubscriptionOutcome?
        let created = createJobRecord(context, ticket: checked.ticket.accepted, ignored: ignored).flatMap { created in
            subscribed = created.subscribed
            return syncRecord(of: created.job)
        }
        return jobResponse(created, checked: checked, subscribed: subscribed, context: context)
    }

    /// Send-Document (RFC 8011 section 4.3.1): one more document for a Create-Job job.
    func sendDocument(_ context: IPPRequestContext) -> OperationOutcome {
        guard let jobID = context.jobID else {
            return .response(.error(.clientErrorBadRequest, "Send-Document needs job-id or job-uri."))
        }
        guard case .boolean(let last)? = context.attribute("last-document")?.value else {
            return .response(.error(.clientErrorBadRequest, "Send-Document needs the boolean last-document."))
        }
        var checked: CheckedJobRequest
        switch checkDocumentAttributes(context) {
        case .success(let value): checked = value
        case .failure(let error): return .response(error.response)
        }
        checked.ticket = JobTicketValidator.Result()
        restoring.wait()  // a job of an earlier run can take its next document once it is taken over
        let number: Int
        switch nextDocumentNumber(of: jobID) {
        case .success(let value): number = value
        case .failure(let error): return .response(error.response)
        }
        let writer = DocumentWriter(
            folder: recorder.folder(of: jobID), number: number, declaredFormat: checked.documentFormat,
            compression: checked.compression, name: context.attribute("document-name")?.value?.stringValue,
            maximumSize: configuration.maximumDocumentSize, floor: configuration.diskFloor)
        return .receiveDocument(
            DocumentReception(writer: writer) { [self] result in
                finishDocument(jobID: jobID, result: result, last: last, context: context, unsupported: checked)
            })
    }

    /// The number the next document of a job still receiving documents gets, taken under the lock so that two
    /// documents arriving at once get two; its activity is now.
    func nextDocumentNumber(of jobID: Int) -> Result<Int, IPPResponseError> {
        let number: Int? = status.withLock { state in
            guard var job = state.jobs[jobID], job.isReceiving else { return nil }
            let number = max(job.documents.map(\.number).max() ?? 0, job.documentNumbersTaken) + 1
            job.documentNumbersTaken = number
            job.lastActivity = WallClock.now()
            state.jobs[jobID] = job
            return number
        }
        if let number { return .success(number) }
        if job(jobID) == nil { return .failure(IPPResponseError(.clientErrorNotFound, "Job \(jobID) does not exist.")) }
        return .failure(IPPResponseError(.clientErrorNotPossible, "Job \(jobID) does not accept more documents."))
    }

    /// Close-Job (PWG 5100.11 section 7.1): no more documents will come.
    func closeJob(_ context: IPPRequestContext) -> IPPResponse {
        guard let jobID = context.jobID else {
            return .error(.clientErrorBadRequest, "Close-Job needs job-id or job-uri.")
        }
        let outcome: Result<Job, IPPResponseError> = updateJob(jobID, durable: true) {
            (job: inout Job) throws(IPPResponseError) in
            guard job.isReceiving else {
                throw IPPResponseError(.clientErrorNotPossible, "Job \(jobID) is already closed.")
            }
            try closeReceiving(&job)
        }
        return jobResponse(outcome, context: context)
    }

    /// Ends document reception: queue the job, or abort it when it has no documents.
    func closeReceiving(_ job: inout Job) throws(IPPResponseError) {
        let now = WallClock.now()
        do {
            if job.documents.isEmpty {
                try job.apply(.aborted(reason: "aborted-by-system", message: "The job has no documents."), at: now)
            } else {
                try job.apply(.documentsComplete, at: now)
            }
        } catch {
            throw IPPResponseError(.clientErrorNotPossible, "Job \(job.id) cannot be closed: \(error).")
        }
    }

    /// Records a received document and answers the request that carried it, with the answers to the
    /// subscriptions a Print-Job asked for.
    func finishDocument(
        jobID: Int, result: Result<DocumentRecord, DocumentError>, last: Bool, context: IPPRequestContext,
        unsupported checked: CheckedJobRequest, subscribed: SubscriptionOutcome? = nil
    ) -> IPPResponse {
        switch result {
        case .success(let document) where isStrict && document.mislabelledAs != nil:
            // A strict printer refuses data that is not the format named, as it arrives.
            let mismatch = DocumentError.formatMismatch(
                document: document.number, declared: document.format.rawValue,
                detected: document.mislabelledAs?.rawValue ?? "")
            return finishDocument(
                jobID: jobID, result: .failure(mismatch), last: last, context: context, unsupported: checked,
                subscribed: subscribed)
        case .success(let document):
            // The document is synced (DocumentWriter.finish); the record naming it is synced before the answer.
            let outcome: Result<Job, IPPResponseError> = updateJob(jobID, durable: true) {
                (job: inout Job) throws(IPPResponseError) in
                guard job.isReceiving else {
                    throw IPPResponseError(.serverErrorJobCanceled, "Job \(jobID) was canceled.")
                }
                if document.size > 0 || context.operation == .printJob || context.operation == .printURI {
                    // Documents arriving at once may finish out of their order: the job lists them by number.
                    let position = job.documents.firstIndex { $0.number > document.number } ?? job.documents.endIndex
                    job.documents.insert(document, at: position)
                }
                job.lastActivity = WallClock.now()
                if last { try closeReceiving(&job) }
            }
            return jobResponse(outcome, checked: checked, subscribed: subscribed, context: context)
        case .failure(let error):
            if case .diskFull = error { checkDiskSpace() }
            let (reason, status, message) = Self.describe(error)
            log("job \(jobID): \(message)")
            let job = try? updateJob(jobID, durable: true) { (job: inout Job) throws(IPPResponseError) in
                _ = try? job.apply(.aborted(reason: reason, message: message), at: WallClock.now())
            }.get()
            var response = IPPResponse.error(status, message)
            if let job { response.groups.append(jobStatusGroup(job, context: context)) }
            return response
        }
    }

    /// The job-state-reasons keyword, IPP status and message for a document error.
    static func describe(_ error: DocumentError) -> (reason: String, status: IPPStatus, message: String) {
        switch error {
        case .compressionError(let method, let detail):
            ("compression-error", .clientErrorCompressionError, "The \(method) data is corrupt: \(detail).")
        case .tooLarge(let limit):
            (
                "aborted-by-system", .clientErrorRequestEntityTooLarge,
                "The document is larger than the limit of \(limit) bytes."
            )
        case .diskFull(let free, let floor):
            (
                "aborted-by-system", .serverErrorNotAcceptingJobs,
                "The disk of the output folder fell to \(DiskFloor.describe(free)) free, below the floor of "
                    + "\(DiskFloor.describe(floor)) (--min-free-disk): the document was dropped."
            )
        case .storage(let path, let code):
            ("aborted-by-system", .serverErrorInternalError, "Cannot store the document at \(path) (errno \(code)).")
        case .transfer(let detail):
            ("aborted-by-system", .clientErrorBadRequest, "The document did not arrive whole: \(detail).")
        case .formatMismatch(let number, let declared, let detected):
            (
                "document-format-error", .clientErrorDocumentFormatError,
                "Document \(number) is labelled \(declared) but the data is \(detected)."
            )
        }
    }

    /// Creates a job in the pending, job-incoming state, with its folder and first record, and the
    /// subscriptions the request asked for (they hear the job-created event).
    func createJobRecord(
        _ context: IPPRequestContext, ticket: [IPPAttribute], ignored: [IgnoredAttribute] = []
    ) -> Result<CreatedJob, IPPResponseError> {
        if let response = diskFullRefusal() { return .failure(response) }
        let (accepting, unended) = status.withLock { ($0.isAcceptingJobs, $0.activeJobCount) }
        guard accepting else {
            return .failure(IPPResponseError(.serverErrorNotAcceptingJobs, "The printer is not accepting jobs."))
        }
        if let limit = configuration.maximumJobs, unended >= limit {
            return .failure(
                IPPResponseError(
                    .serverErrorTooManyJobs,
                    "The printer holds \(limit) jobs that have not ended, as many as it keeps (--max-jobs); "
                        + "release, cancel or finish some first."))
        }
        let id = jobIDs.allocate()
        let name =
            context.attribute("job-name")?.value?.stringValue ?? context.attribute("document-name")?.value?.stringValue
            ?? "Untitled"
        let now = WallClock.now()
        var job = Job(
            id: id, uuid: Self.jobUUID(printerUUID: configuration.uuid, jobID: id, time: now),
            printerName: configuration.name,
            printerURI: context.printerURI, name: name, user: context.user, templateAttributes: ticket,
            client: context.client, now: now, printerStartTime: startTime)
        job.creationOperation = context.operation.description
        if let until = ticket.first(where: { $0.name == "job-hold-until" })?.value?.stringValue, until != "no-hold" {
            job.holdUntil = until
        }
        job.ignoredAttributes = ignored
        job.actual = actualSettings(ticket: ticket)
        if case .octetString(let password)? = context.attribute("document-password")?.value {
            job.documentPassword = String(decoding: password, as: UTF8.self)
        }
        applyEnterpriseAttributes(to: &job, context: context)
        if let reason = faults.takePendingHold() {
            job.holdUntil = "indefinite"
            job.holdReason = reason
        }
        job.heldForNewJobs = status.withLock { $0.holdNewJobs }
        // The folder appears with its first record in it (JobRecorder.create), before the job is listed.
        switch recorder.create(job) {
        case .success(let json): job.recordJSON = json
        case .failure(let error):
            let (_, status, message) = Self.describe(error)
            log("job \(id): \(message)")
            return .failure(IPPResponseError(status, message))
        }
        let subscribed = status.withLock { state in
            state.jobs[id] = job
            state.jobOrder.append(id)
            let subscribed = subscribeToNewJob(id, context: context)
            publish(.jobCreated, job: job)
            return subscribed
        }
        log("job \(id) created by \(context.user) from \(context.client.address): \(name)")
        return .success(CreatedJob(job: job, subscribed: subscribed))
    }

    /// Applies a change to a job under the lock and rewrites its record; the closure throws to refuse.
    ///
    /// - Parameter durable: the caller answers a client on the strength of this change (an acknowledgement):
    ///   the record is synced to the disk before this returns, outside the lock, and a failure to store it is
    ///   returned as server-error-internal-error.
    func updateJob(
        _ id: Int, durable: Bool = false, _ change: (inout Job) throws(IPPResponseError) -> Void
    ) -> Result<Job, IPPResponseError> {
        restoring.wait()  // jobs of an earlier run are there once taken over
        let result = updateJobUnderLock(id, change)
        guard durable, case .success(let job) = result else { return result }
        return syncRecord(of: job)
    }

    /// Syncs a job's record and folder to the disk (JobRecorder.sync): the job, or the error to answer with.
    func syncRecord(of job: Job) -> Result<Job, IPPResponseError> {
        guard job.recordJSON != nil else {
            return .failure(IPPResponseError(.serverErrorInternalError, "Job \(job.id) could not be recorded."))
        }
        do {
            try recorder.sync(job.id)
        } catch {
            let (_, status, message) = Self.describe(error)
            log("job \(job.id): \(message)")
            return .failure(IPPResponseError(status, message))
        }
        return .success(job)
    }

    private func updateJobUnderLock(_ id: Int, _ change: (inout Job) throws(IPPResponseError) -> Void)
        -> Result<Job, IPPResponseError>
    {
        status.withLock { state in
            guard var job = state.jobs[id] else {
                return .failure(IPPResponseError(.clientErrorNotFound, "Job \(id) does not exist."))
            }
            do throws(IPPResponseError) {
                try change(&job)
            } catch {
                return .failure(error)
            }
            let before = state.jobs[id]
            state.jobs[id] = job
            let queued = job.state == .pending && job.reasons == ["job-queued"]
            if queued && !state.queue.contains(id) {
                state.queue.append(id)
                scheduler.enqueue { [self] in processNext() }
            } else if !queued {
                state.queue.removeAll { $0 == id }
            }
            let written = recorder.write(job)
            if let failure = written.failure { log(failure) }
            state.jobs[id]?.recordJSON = written.json
            job.recordJSON = written.json
            if before?.state != job.state || before?.reasons != job.reasons {
                publish(.jobStateChanged, job: job)
            } else if before?.impressions.count != job.impressions.count {
                publish(.jobProgress, job: job)
            }
            if state.noteStateChange(at: WallClock.now()) {
                publishPrinterState(state.lastState, reasons: state.reasons, accepting: state.acceptsJobs)
            }
            return .success(job)
        }
    }

    /// A job-uuid unique to the printer, job and time.
    static func jobUUID(printerUUID: String, jobID: Int, time: Double) -> String {
        PrinterConfiguration.uuid(forName: "\(printerUUID) job \(jobID) \(time)")
    }
}

/// A job just created, and what came of the subscriptions its request asked for (nil: none were).
struct CreatedJob: Sendable {
    let job: Job
    let subscribed: SubscriptionOutcome?
}

extension Printer {
    /// The answer to a request that created or changed a job: the job's status attributes on success (after
    /// the ignored attributes of `checked`, before the answers to the subscriptions it asked for), the error
    /// otherwise.
    func jobResponse(
        _ result: Result<Job, IPPResponseError>, checked: CheckedJobRequest? = nil,
        subscribed: SubscriptionOutcome? = nil, context: IPPRequestContext
    ) -> IPPResponse {
        switch result {
        case .success(let job):
            var response = checked?.response() ?? IPPResponse()
            response.groups.append(jobStatusGroup(job, context: context))
            subscribed?.answer(&response, jobCreated: true)
            return response
        case .failure(let error):
            return error.response
        }
    }

    /// Publishes a job event.
    func publish(_ kind: PrinterEvent.Kind, job: Job) {
        recordForSubscriptions(
            events.publish(
                PrinterEvent(
                    kind: kind, sequence: 0, time: WallClock.now(), printerName: configuration.name, jobID: job.id,
                    state: job.state.keyword, reasons: job.reasons, message: job.message, jobOwner: job.user)))
    }

    /// Publishes a printer state change.
    func publishPrinterState(_ state: PrinterStateValue, reasons: [PrinterStateReason], accepting: Bool) {
        recordForSubscriptions(
            events.publish(
                PrinterEvent(
                    kind: .printerStateChanged, sequence: 0, time: WallClock.now(), printerName: configuration.name,
                    jobID: nil, state: state.keyword, reasons: PrinterStateReason.keywords(of: reasons), message: nil,
                    acceptingJobs: accepting)))
    }
}
