import Foundation

extension Printer {
    /// What the query filters look at in one of this printer's jobs.
    func querySubject(_ job: Job) -> JobQuery.Subject {
        let actual = job.actual ?? actualSettings(ticket: job.templateAttributes)
        let requested =
            (job.template("print-color-mode") ?? cache["print-color-mode-default"])?.value?.stringValue
        return JobQuery.Subject(
            id: job.id, printer: job.printerName, name: job.name, user: job.user, state: job.state.keyword,
            formats: job.documents.map { $0.effectiveFormat.rawValue.lowercased() }, media: actual.media,
            sides: actual.sides, colorModes: [requested, actual.printColorMode].compactMap { $0 },
            created: job.timeCreated)
    }

    /// This printer's jobs that pass `query`, oldest first; the `text` filter reads (and, for raster sides,
    /// recognizes) the sides' text of the jobs that pass the others.
    public func jobs(matching query: JobQuery) -> [Job] {
        let candidates = jobs
        guard !query.isEmpty else { return candidates }
        return candidates.filter { job in
            guard query.matches(querySubject(job)) else { return false }
            guard query.text != nil else { return true }
            return query.matches(text: (sideTexts(jobID: job.id) ?? []).compactMap(\.text))
        }
    }

    /// Forgets the jobs with these ids (API reset with filters): records and folders removed; returns how many
    /// were forgotten. Jobs still printing stop at their next page.
    @discardableResult
    public func forgetJobs(_ ids: Set<Int>) -> Int {
        let removed: [Int] = status.withLock { state in
            let found = state.jobOrder.filter(ids.contains)
            for id in found { state.jobs[id] = nil }
            state.jobOrder.removeAll { ids.contains($0) }
            state.queue.removeAll { ids.contains($0) }
            state.noteStateChange(at: WallClock.now())
            return found
        }
        for id in removed { try? FileManager.default.removeItem(atPath: recorder.folder(of: id)) }
        textStore.forget(removed)
        return removed.count
    }
}
