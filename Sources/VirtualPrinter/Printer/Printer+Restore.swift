import Foundation

extension Printer {
    /// Takes in the jobs of an earlier run; jobs that had not ended (the process was killed) are aborted with
    /// aborted-by-system and their records rewritten. Ends a `beginRestore()`.
    public func restore(_ restored: [Job]) {
        let now = Clock.now()
        var rewritten: [Job] = []
        let wasPending = status.withLock { state in
            defer { state.restorePending = false }
            for var job in restored where state.jobs[job.id] == nil {
                if !job.state.isTerminal {
                    let was = job.state.keyword
                    if (try? job.apply(
                        .aborted(reason: "aborted-by-system", message: "The printer stopped while the job was \(was)."),
                        at: now)) != nil
                    {
                        rewritten.append(job)
                    }
                }
                state.jobs[job.id] = job
            }
            state.jobOrder = state.jobs.keys.sorted()
            // Records are rewritten before readers are let in, so that the API and the disk agree.
            for job in rewritten {
                let written = recorder.write(job)
                if let failure = written.failure { log(failure) }
                state.jobs[job.id]?.recordJSON = written.json
            }
            return state.restorePending
        }
        if wasPending { restoring.leave() }
        for job in rewritten {
            log("job \(job.id) was unfinished when the printer stopped: aborted")
        }
        pruneJobs()
    }

    /// Keeps at most `configuration.maximumJobs` jobs: the oldest ended jobs and their folders go first.
    func pruneJobs() {
        guard let limit = configuration.maximumJobs else { return }
        let dropped: [Int] = status.withLock { state in
            var excess = state.jobOrder.count - limit
            guard excess > 0 else { return [] }
            var dropped: [Int] = []
            for id in state.jobOrder where excess > 0 {
                if let job = state.jobs[id], job.state.isTerminal {
                    dropped.append(id)
                    excess -= 1
                }
            }
            let droppedSet = Set(dropped)
            state.jobOrder.removeAll { droppedSet.contains($0) }
            for id in dropped { state.jobs[id] = nil }
            return dropped
        }
        for id in dropped { try? FileManager.default.removeItem(atPath: recorder.folder(of: id)) }
    }
}
