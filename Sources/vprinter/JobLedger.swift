import Dispatch
import Foundation
import PrinterCore
import Synchronization

/// The jobs of one `vprinter exec` run, each as it was last seen, followed through the printers' events: a job
/// the command deleted through the API (the pytest plugin resets the jobs before each test), or whose printer it
/// deleted, still counts in the summary and the JUnit file, as it last stood.
final class JobLedger: Sendable {
    private let seen = Mutex<[Int: Job]>([:])
    private let subscription: EventSubscription
    private let firstJobID: Int
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Follows the jobs numbered from `firstJobID` (this run's) of the printers of `registry`, from now on.
    init(events: EventHub, registry: PrinterRegistry, firstJobID: Int) {
        subscription = events.subscribe()
        self.firstJobID = firstJobID
        Thread.detachNewThread { [self] in follow(registry) }
    }

    /// Stops following, and returns every job of the run, oldest first: as its printer has it now, else as last
    /// seen.
    func finish(printers: [Printer]) -> [Job] {
        stopped.store(true, ordering: .sequentiallyConsistent)
        subscription.cancel()
        ended.wait()
        var jobs = seen.withLock { $0 }
        for printer in printers {
            for job in printer.jobs where job.id >= firstJobID { jobs[job.id] = job }
        }
        return jobs.values.sorted { $0.id < $1.id }
    }

    private func follow(_ registry: PrinterRegistry) {
        defer { ended.signal() }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            // nil: the follower fell behind and lost events (those jobs are still on their printers, or lost to
            // the ledger only if deleted meanwhile), or it was cancelled.
            guard let events = subscription.next(timeout: Self.pollSeconds) else { continue }
            for event in events {
                guard let id = event.jobID, id >= firstJobID,
                    let job = registry.printer(named: event.printerName)?.printer.job(id)
                else { continue }
                seen.withLock { $0[id] = job }
            }
        }
    }

    /// How long the follower waits for events before it looks whether it should stop, in seconds.
    static let pollSeconds = 0.5
}
