import Foundation

extension Printer {
    /// Takes in the jobs of an earlier run (JobArchive) as `policy` says (`Job.takeOver(after:at:)`). With
    /// `.requeue`, jobs that were queued or being printed are queued again, ahead of any job of this run: those
    /// that had started printing first, in the order they started, then the others in the order they came; they
    /// are printed from the start, their old page images removed. With `.abort`, every job that had not ended
    /// is aborted. Changed records are rewritten before readers are let in. Ends a `beginRestore()`.
    public func restore(_ restored: [Job], policy: RestartPolicy = .requeue) {
        let now = WallClock.now()
        var jobs: [Job] = []
        var rewrite: Set<Int> = []
        var requeued: [(startedAt: Double, id: Int)] = []
        for var job in restored.sorted(by: { $0.id < $1.id }) {
            let was = job.state.keyword
            let startedAt = job.timeProcessing ?? .infinity
            switch job.takeOver(after: policy, at: now) {
            case .unchanged:
                break
            case .requeued(let wasPrinting):
                removePageImages(of: job.id)
                requeued.append((wasPrinting ? startedAt : .infinity, job.id))
                rewrite.insert(job.id)
            case .aborted:
                rewrite.insert(job.id)
            }
            if rewrite.contains(job.id) { log("job \(job.id) was \(was) when the printer stopped: \(job.message)") }
            jobs.append(job)
        }
        let queueOrder = requeued.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }.map(\.id)
        let wasPending = status.withLock { state in
            defer { state.restorePending = false }
            for var job in jobs where state.jobs[job.id] == nil {
                if rewrite.contains(job.id) {
                    // Rewritten before readers are let in, so that the API and the disk agree.
                    let written = recorder.write(job)
                    if let failure = written.failure { log(failure) }
                    job.recordJSON = written.json
                }
                state.jobs[job.id] = job
            }
            state.jobOrder = state.jobs.keys.sorted()
            // Ahead of the jobs this run took meanwhile: those were accepted later.
            state.queue = queueOrder + state.queue
            for _ in queueOrder { scheduler.enqueue { [self] in processNext() } }
            return state.restorePending
        }
        if wasPending { restoring.leave() }
        if !rewrite.isEmpty {
            log("\(rewrite.count) jobs of the earlier run had not ended: \(queueOrder.count) queued again")
        }
        pruneJobs()
    }

    /// Keeps at most `configuration.maximumJobs` jobs: the oldest ended jobs and their folders go first.
    func pruneJobs() {
        guard let limit = configuration.maximumJobs else { return }
        let dropped: [Int] = status.withLock { state in
            let dropped = Retention.excess(oldestFirst: state.jobOrder, limit: limit) { id in
                state.jobs[id]?.state.isTerminal == true
            }
            guard !dropped.isEmpty else { return [] }
            let droppedSet = Set(dropped)
            state.jobOrder.removeAll { droppedSet.contains($0) }
            for id in dropped { state.jobs[id] = nil }
            return dropped
        }
        for id in dropped { try? FileManager.default.removeItem(atPath: recorder.folder(of: id)) }
    }
}
