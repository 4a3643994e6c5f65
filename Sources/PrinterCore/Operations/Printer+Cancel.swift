import IPP

extension Printer {
    /// Cancel-Job (RFC 8011 section 4.3.3): a job that has not ended is canceled; an ended one cannot be.
    func cancelJob(_ context: IPPRequestContext) -> IPPResponse {
        guard let jobID = context.jobID else {
            return .error(.clientErrorBadRequest, "Cancel-Job needs job-id or job-uri.")
        }
        switch cancel(jobID) {
        case .success: return IPPResponse()
        case .failure(let error): return error.response
        }
    }

    /// Cancel-Jobs and Cancel-My-Jobs (PWG 5100.11 sections 5.1, 5.2): the listed jobs, or every job
    /// (Cancel-Jobs) or every job of the requesting user (Cancel-My-Jobs) that has not ended.
    func cancelJobs(_ context: IPPRequestContext) -> IPPResponse {
        let mine = context.operation == .cancelMyJobs
        let current = jobs.filter { !$0.state.isTerminal && (!mine || $0.user == context.user) }
        var targets = current.map(\.id)
        if let listed = context.attribute("job-ids") {
            let ids = listed.values.compactMap(\.integerValue).map(Int.init)
            let refused = ids.filter { id in
                guard let job = job(id) else { return true }
                return job.state.isTerminal || (mine && job.user != context.user)
            }
            guard refused.isEmpty else {
                var error = IPPResponseError(
                    .clientErrorNotPossible,
                    "Jobs \(refused.map(String.init).joined(separator: ", ")) cannot be canceled.")
                error.unsupported = [IPPAttribute(name: "job-ids", values: refused.map { .integer(Int32($0)) })]
                return error.response
            }
            targets = ids
        }
        for id in targets { _ = cancel(id) }
        return IPPResponse()
    }

    /// Cancels one job if it has not ended.
    func cancel(_ jobID: Int) -> Result<Job, IPPResponseError> {
        let result = updateJob(jobID, durable: true) { job throws(IPPResponseError) in
            do {
                try job.apply(.canceled(byUser: true), at: WallClock.now())
            } catch {
                throw IPPResponseError(
                    .clientErrorNotPossible, "Job \(jobID) is \(job.state.keyword) and cannot be canceled.")
            }
        }
        if case .success = result { log("job \(jobID) canceled") }
        return result
    }
}
