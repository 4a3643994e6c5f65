import IPP

extension Printer {
    /// The job's URI as seen by the client of this request.
    func jobURI(_ job: Job, context: IPPRequestContext) -> String {
        "\(context.uriScheme)://\(context.uriAuthority)\(configuration.resourcePath)/\(job.id)"
    }

    /// The attributes every job creation response carries (RFC 8011 section 4.2.1.2).
    func jobStatusGroup(_ job: Job, context: IPPRequestContext) -> IPPAttributeGroup {
        var group = IPPAttributeGroup(tag: .jobAttributes)
        group.append("job-id", .integer(Int32(clamping: job.id)))
        group.append("job-uri", .uri(jobURI(job, context: context)))
        group.append("job-state", .enumValue(job.state.rawValue))
        group.append(IPPAttribute(name: "job-state-reasons", values: job.reasons.map { .keyword($0) }))
        group.append("job-state-message", .text(job.message))
        return group
    }

    /// Every attribute of a job, filtered by requested-attributes (RFC 8011 section 4.3.4, PWG 5100.12).
    func jobAttributes(_ job: Job, requested: RequestedAttributes, context: IPPRequestContext) -> IPPAttributeGroup {
        var group = IPPAttributeGroup(tag: .jobAttributes)
        func add(_ name: String, _ values: [IPPValue]) {
            if requested.includesJobAttribute(name) { group.append(IPPAttribute(name: name, values: values)) }
        }
        func time(_ t: Double?) -> IPPValue { t.map { .integer(upTime(of: $0)) } ?? .outOfBand(.noValue) }
        func date(_ t: Double?) -> IPPValue {
            t.map { .dateTime(IPPDateTime(secondsSince1970: $0)) } ?? .outOfBand(.noValue)
        }
        let impressions = Int32(clamping: job.impressions.count * job.copies)
        let sheets = Int32(clamping: (job.impressions.map(\.sheet).max() ?? 0) * job.copies)
        let size = job.documents.reduce(0) { $0 + $1.size }
        add("job-id", [.integer(Int32(clamping: job.id))])
        add("job-uri", [.uri(jobURI(job, context: context))])
        add("job-uuid", [.uri(job.uuid)])
        add("job-name", [.name(job.name)])
        add("job-originating-user-name", [.name(job.user)])
        add("job-printer-uri", [.uri(job.printerURI)])
        add("job-printer-up-time", [.integer(upTime(at: WallClock.now()))])
        add("job-state", [.enumValue(job.state.rawValue)])
        add("job-state-reasons", job.reasons.map { .keyword($0) })
        add("job-state-message", [.text(job.message)])
        add("time-at-creation", [time(job.timeCreated)])
        add("time-at-processing", [time(job.timeProcessing)])
        add("time-at-completed", [time(job.timeCompleted)])
        add("date-time-at-creation", [date(job.timeCreated)])
        add("date-time-at-processing", [date(job.timeProcessing)])
        add("date-time-at-completed", [date(job.timeCompleted)])
        add("job-impressions", [.integer(impressions)])
        add("job-impressions-completed", [.integer(Int32(clamping: job.impressionsCompleted))])
        add("job-media-sheets", [.integer(sheets)])
        add("job-media-sheets-completed", [.integer(Int32(clamping: job.sheetsCompleted))])
        add("job-pages", [.integer(Int32(clamping: job.documents.compactMap(\.pages).reduce(0, +)))])
        add("job-k-octets", [.integer(Int32(clamping: (size + 1023) / 1024))])
        add("number-of-documents", [.integer(Int32(clamping: job.documents.count))])
        add("job-more-info", [.uri("\(context.webScheme)://\(context.uriAuthority)/jobs/\(job.id)")])
        if let format = job.documents.last?.format { add("document-format", [.mimeMediaType(format.rawValue)]) }
        for attribute in job.templateAttributes {
            add(attribute.name, attribute.values)
        }
        return group
    }

    /// Get-Job-Attributes (RFC 8011 section 4.3.4).
    func getJobAttributes(_ context: IPPRequestContext) -> IPPResponse {
        guard let jobID = context.jobID else {
            return .error(.clientErrorBadRequest, "Get-Job-Attributes needs job-id or job-uri.")
        }
        guard let job = job(jobID) else { return .error(.clientErrorNotFound, "Job \(jobID) does not exist.") }
        var response = IPPResponse()
        response.groups.append(
            jobAttributes(
                job, requested: RequestedAttributes(context.attribute("requested-attributes")), context: context))
        return response
    }

    /// Get-Jobs (RFC 8011 section 4.2.6): which-jobs, my-jobs, limit, first-index, requested-attributes.
    func getJobs(_ context: IPPRequestContext) -> IPPResponse {
        var which = "not-completed"
        if let attribute = context.attribute("which-jobs") {
            let supported =
                cache["which-jobs-supported"]?.values.compactMap(\.stringValue) ?? ["completed", "not-completed"]
            guard case .keyword(let value)? = attribute.value, supported.contains(value) else {
                var error = IPPResponseError(
                    .clientErrorAttributesOrValuesNotSupported, "which-jobs must be one of \(supported).")
                error.unsupported = [attribute]
                return error.response
            }
            which = value
        }
        var myJobs = false
        if case .boolean(let value)? = context.attribute("my-jobs")?.value { myJobs = value }
        var limit = Int.max
        if let attribute = context.attribute("limit") {
            guard case .integer(let value)? = attribute.value, value > 0 else {
                var error = IPPResponseError(.clientErrorBadRequest, "limit must be a positive integer.")
                error.unsupported = [attribute]
                return error.response
            }
            limit = Int(value)
        }
        var firstIndex = 1
        if let attribute = context.attribute("first-index") {
            guard case .integer(let value)? = attribute.value, value > 0 else {
                var error = IPPResponseError(.clientErrorBadRequest, "first-index must be a positive integer.")
                error.unsupported = [attribute]
                return error.response
            }
            firstIndex = Int(value)
        }
        let requested = RequestedAttributes(
            context.attribute("requested-attributes"), default: ["job-id", "job-uri"])
        let selected = jobs.filter { job in
            let matchesState: Bool
            switch which {
            case "completed": matchesState = job.state.isTerminal
            case "not-completed": matchesState = !job.state.isTerminal
            case "all": matchesState = true
            case "pending": matchesState = job.state == .pending
            case "processing": matchesState = job.state == .processing
            case "processing-stopped": matchesState = job.state == .processingStopped
            case "pending-held": matchesState = job.state == .pendingHeld
            case "aborted": matchesState = job.state == .aborted
            case "canceled": matchesState = job.state == .canceled
            case "proof-print": matchesState = job.state == .completed && job.template("proof-print") != nil
            case "saved":
                // Stored jobs that have printed and are kept to print again; an owner-only one to its owner.
                let access = Self.storageAccess(of: job)
                matchesState =
                    job.state == .completed && access != nil && (access != "owner" || job.user == context.user)
            case "stored-owner":
                matchesState = Self.storageAccess(of: job) == "owner" && job.user == context.user
            case "stored-group": matchesState = Self.storageAccess(of: job) == "group"
            case "stored-public": matchesState = Self.storageAccess(of: job) == "public"
            default: matchesState = false
            }
            return matchesState && (!(myJobs || context.seesOwnJobsOnly) || job.user == context.user)
        }
        // Newest first for completed jobs, oldest first otherwise (as CUPS lists them).
        let ordered = which == "completed" ? selected.reversed() : selected
        var response = IPPResponse()
        for job in ordered.dropFirst(firstIndex - 1).prefix(limit) {
            response.groups.append(jobAttributes(job, requested: requested, context: context))
        }
        return response
    }
}
