import IPP
import PrintModel

/// Document operations (PWG 5100.5): Validate-Document, Cancel-Document, Get-Document-Attributes, Get-Documents,
/// Set-Document-Attributes.
extension Printer {
    /// Validate-Document (PWG 5100.5 section 7.1): the document attributes of a Send-Document, without data.
    func validateDocument(_ context: IPPRequestContext) -> IPPResponse {
        switch checkDocumentAttributes(context) {
        case .success(let checked): return checked.response()
        case .failure(let error): return error.response
        }
    }

    /// The document a document operation targets (job-id and document-number).
    func targetDocument(_ context: IPPRequestContext) -> Result<(Job, Int), IPPResponseError> {
        let job: Job
        switch targetJob(context) {
        case .success(let value): job = value
        case .failure(let error): return .failure(error)
        }
        guard case .integer(let number)? = context.attribute("document-number")?.value else {
            return .failure(IPPResponseError(.clientErrorBadRequest, "\(context.operation) needs document-number."))
        }
        guard let index = job.documents.firstIndex(where: { $0.number == Int(number) }) else {
            return .failure(IPPResponseError(.clientErrorNotFound, "Job \(job.id) has no document \(number)."))
        }
        return .success((job, index))
    }

    /// Cancel-Document (PWG 5100.5 section 7.2): a document of a job that has not ended. A job that has not
    /// started prints without it. In a job being printed the job's documents print together (one render), so
    /// canceling its last document not yet canceled cancels the job as Cancel-Job does, and the render stops;
    /// canceling one of several documents being printed together is refused.
    func cancelDocument(_ context: IPPRequestContext) -> IPPResponse {
        let (job, index): (Job, Int)
        switch targetDocument(context) {
        case .success(let value): (job, index) = value
        case .failure(let error): return error.response
        }
        var cancelsJob = false
        let result = updateJob(job.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            let number = job.documents[index].number
            guard !job.state.isTerminal, !job.documents[index].isCanceled else {
                throw IPPResponseError(.clientErrorNotPossible, "Document \(number) can no longer be canceled.")
            }
            if job.state != .pending && job.state != .pendingHeld {
                let others = job.documents.indices.filter { $0 != index && !job.documents[$0].isCanceled }
                guard others.isEmpty else {
                    throw IPPResponseError(
                        .clientErrorNotPossible,
                        "Document \(number) is printing together with the job's other documents; Cancel-Job stops "
                            + "them all.")
                }
                cancelsJob = true
            }
            job.documents[index].isCanceled = true
        }
        if case .failure(let error) = result { return error.response }
        if cancelsJob, case .failure(let error) = cancel(job.id) { return error.response }
        return IPPResponse()
    }

    /// Get-Document-Attributes (PWG 5100.5 section 7.4).
    func getDocumentAttributes(_ context: IPPRequestContext) -> IPPResponse {
        switch targetDocument(context) {
        case .success(let (job, index)):
            var response = IPPResponse()
            response.groups.append(
                documentAttributes(
                    job, job.documents[index],
                    requested: RequestedAttributes(context.attribute("requested-attributes")),
                    context: context))
            return response
        case .failure(let error):
            return error.response
        }
    }

    /// Get-Documents (PWG 5100.5 section 7.5): every document of a job.
    func getDocuments(_ context: IPPRequestContext) -> IPPResponse {
        switch targetJob(context) {
        case .success(let job):
            let requested = RequestedAttributes(
                context.attribute("requested-attributes"),
                default: ["document-number", "document-state", "last-document"])
            var response = IPPResponse()
            for document in job.documents {
                response.groups.append(documentAttributes(job, document, requested: requested, context: context))
            }
            return response
        case .failure(let error):
            return error.response
        }
    }

    /// Set-Document-Attributes (PWG 5100.5 section 7.6): document-name before the job prints.
    func setDocumentAttributes(_ context: IPPRequestContext) -> IPPResponse {
        let (job, index): (Job, Int)
        switch targetDocument(context) {
        case .success(let value): (job, index) = value
        case .failure(let error): return error.response
        }
        let changes = context.message[group: .documentAttributes]?.attributes ?? []
        let refused = changes.filter { attribute in
            guard attribute.name == "document-name", attribute.values.count == 1 else { return true }
            switch attribute.value {
            case .name?, .nameWithLanguage?: return false
            default: return true
            }
        }
        guard refused.isEmpty else {
            var error = IPPResponseError(.clientErrorAttributesOrValuesNotSupported, "Only document-name can be set.")
            error.unsupported = refused
            return error.response
        }
        let result = updateJob(job.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            guard !job.state.isTerminal else {
                throw IPPResponseError(.clientErrorNotPossible, "Job \(job.id) has ended.")
            }
            if let name = changes.first?.value?.stringValue { job.documents[index].name = name }
        }
        if case .failure(let error) = result { return error.response }
        return IPPResponse()
    }

    /// The attributes of one document (PWG 5100.5 section 8).
    func documentAttributes(
        _ job: Job, _ document: DocumentRecord, requested: RequestedAttributes, context: IPPRequestContext
    )
        -> IPPAttributeGroup
    {
        var group = IPPAttributeGroup(tag: .documentAttributes)
        func add(_ name: String, _ values: [IPPValue]) {
            if requested.includesJobAttribute(name) { group.append(IPPAttribute(name: name, values: values)) }
        }
        let state: JobState = document.isCanceled ? .canceled : job.state
        add("document-number", [.integer(Int32(document.number))])
        add("document-job-id", [.integer(Int32(clamping: job.id))])
        add("document-job-uri", [.uri(jobURI(job, context: context))])
        add("document-printer-uri", [.uri(job.printerURI)])
        add("document-state", [.enumValue(state == .pendingHeld ? JobState.pending.rawValue : state.rawValue)])
        add("document-state-reasons", [.keyword(document.isCanceled ? "canceled-by-user" : "none")])
        // PWG 5100.5 section 8.3: the job's last document, once the job takes no more.
        add("last-document", [.boolean(!job.isReceiving && job.documents.last?.number == document.number)])
        add("document-format", [.mimeMediaType(document.format.rawValue)])
        if let detected = document.detectedFormat {
            add("document-format-detected", [.mimeMediaType(detected.rawValue)])
        }
        add("compression", [.keyword(document.compression)])
        add("document-name", [.name(document.name ?? document.file)])
        add("k-octets", [.integer(Int32(clamping: (document.size + 1023) / 1024))])
        if let pages = document.pages { add("pages", [.integer(Int32(clamping: pages))]) }
        add(
            "impressions",
            [
                .integer(
                    Int32(
                        clamping: job.impressions.filter {
                            $0.pages?.contains { $0.document == document.number } ?? false
                        }.count))
            ])
        return group
    }
}
