import HTTPServer
import IPP
import PrintModel

/// How far the printer goes to fetch the document of Print-URI and Send-URI (its size is bounded by
/// `PrinterConfiguration.maximumDocumentSize`, as an uploaded document's is).
enum DocumentURILimits {
    /// Seconds a fetch may take in all, redirects included; the request waits for it.
    static let timeout: Double = 60
    /// Redirects followed.
    static let maximumRedirects = 5
}

/// Print-URI and Send-URI (RFC 8011 sections 4.2.2 and 4.3.2), offered only by printers whose profile lists them
/// (`Printer.perform` refuses an operation missing from operations-supported): the printer fetches the document
/// named by document-uri itself, over ftp, http or https only, streamed into the job's folder as an uploaded one is.
/// The fetch runs before the answer: a document that cannot be fetched aborts its job with job-state-reasons
/// document-access-error, and the request is answered client-error-document-access-error with the job's status.
extension Printer {
    /// Print-URI: Print-Job with the document at document-uri.
    func printURI(_ context: IPPRequestContext) -> IPPResponse {
        let uri: String
        switch documentURI(context) {
        case .success(let value): uri = value
        case .failure(let error): return error.response
        }
        let checked: CheckedJobRequest
        switch checkJobRequest(context, forDocument: true) {
        case .success(let value): checked = value
        case .failure(let error): return error.response
        }
        let ignored = checked.ignoredAttributes(context: context, printer: cache)
        switch createJobRecord(context, ticket: checked.ticket.accepted, ignored: ignored) {
        case .success(let created):
            return fetchDocument(
                uri, jobID: created.job.id, number: 1, last: true, context: context, checked: checked,
                subscribed: created.subscribed)
        case .failure(let error):
            return error.response
        }
    }

    /// Send-URI: Send-Document with the document at document-uri.
    func sendURI(_ context: IPPRequestContext) -> IPPResponse {
        guard let jobID = context.jobID else {
            return .error(.clientErrorBadRequest, "Send-URI needs job-id or job-uri.")
        }
        guard case .boolean(let last)? = context.attribute("last-document")?.value else {
            return .error(.clientErrorBadRequest, "Send-URI needs the boolean last-document.")
        }
        let uri: String
        switch documentURI(context) {
        case .success(let value): uri = value
        case .failure(let error): return error.response
        }
        var checked: CheckedJobRequest
        switch checkDocumentAttributes(context) {
        case .success(let value): checked = value
        case .failure(let error): return error.response
        }
        checked.ticket = JobTicketValidator.Result()
        restoring.wait()
        switch nextDocumentNumber(of: jobID) {
        case .success(let number):
            return fetchDocument(uri, jobID: jobID, number: number, last: last, context: context, checked: checked)
        case .failure(let error):
            return error.response
        }
    }

    /// The document-uri operation attribute: one uri, ftp, http or https (reference-uri-schemes-supported).
    func documentURI(_ context: IPPRequestContext) -> Result<String, IPPResponseError> {
        guard let attribute = context.attribute("document-uri") else {
            return .failure(IPPResponseError(.clientErrorBadRequest, "\(context.operation) needs document-uri."))
        }
        guard attribute.values.count == 1, case .uri(let uri)? = attribute.value else {
            var error = IPPResponseError(.clientErrorBadRequest, "document-uri must be one uri value.")
            error.unsupported = [attribute]
            return .failure(error)
        }
        guard DocumentDownload.isFetchable(uri) else {
            var error = IPPResponseError(
                .clientErrorURISchemeNotSupported,
                "The printer fetches \(DocumentDownload.schemes.joined(separator: " and ")) URIs only, not \(uri).")
            error.unsupported = [attribute]
            return .failure(error)
        }
        return .success(uri)
    }

    /// Fetches the document into the job's folder and records it as `finishDocument` records an uploaded one;
    /// a fetch that fails aborts the job with document-access-error.
    func fetchDocument(
        _ uri: String, jobID: Int, number: Int, last: Bool, context: IPPRequestContext, checked: CheckedJobRequest,
        subscribed: SubscriptionOutcome? = nil
    ) -> IPPResponse {
        let writer = DocumentWriter(
            folder: recorder.folder(of: jobID), number: number, declaredFormat: checked.documentFormat,
            compression: checked.compression,
            name: context.attribute("document-name")?.value?.stringValue ?? uri,
            maximumSize: configuration.maximumDocumentSize, floor: configuration.diskFloor)
        let limits = DocumentDownload.Limits(
            maximumBytes: configuration.maximumDocumentSize, timeout: DocumentURILimits.timeout,
            maximumRedirects: DocumentURILimits.maximumRedirects)
        var storing: DocumentError?
        let fetched = DocumentDownload.fetch(uri, limits: limits, policy: configuration.fetchPolicy) { bytes in
            do throws(DocumentError) {
                try writer.write(bytes)
                counters.bytesReceived.add(bytes.count, ordering: .relaxed)
                return true
            } catch {
                storing = error
                return false
            }
        }
        let result: Result<DocumentRecord, DocumentError>
        switch fetched {
        case .success:
            result = Result { () throws(DocumentError) in try writer.finish() }
        case .failure(.refusedBySink) where storing != nil:
            writer.discard()
            result = .failure(storing ?? .transfer("the document could not be stored"))
        case .failure(let failure):
            writer.discard()
            return documentAccessError(jobID: jobID, message: "Cannot fetch \(uri): \(failure).", context: context)
        }
        log("job \(jobID): document \(number) fetched from \(uri)")
        return finishDocument(
            jobID: jobID, result: result, last: last, context: context, unsupported: checked, subscribed: subscribed)
    }

    /// Aborts a job whose document could not be fetched: job-state-reasons document-access-error.
    func documentAccessError(jobID: Int, message: String, context: IPPRequestContext) -> IPPResponse {
        log("job \(jobID): \(message)")
        let job = try? updateJob(jobID, durable: true) { (job: inout Job) throws(IPPResponseError) in
            _ = try? job.apply(.aborted(reason: "document-access-error", message: message), at: WallClock.now())
        }.get()
        var response = IPPResponse.error(.clientErrorDocumentAccessError, message)
        if let job { response.groups.append(jobStatusGroup(job, context: context)) }
        return response
    }
}
