import Foundation
import Synchronization

/// A bounded pool of worker threads that process queued jobs in order, so that the network side never waits
/// on processing and never answers busy because another job is printing.
public final class JobScheduler: Sendable {
    private let queue: Mutex<[@Sendable () -> Void]> = Mutex([])
    private let available = DispatchSemaphore(value: 0)
    public let workerCount: Int

    /// Starts `workers` threads (at least one).
    public init(workers: Int) {
        workerCount = max(1, workers)
        for index in 0..<workerCount {
            let thread = Thread { [self] in run() }
            thread.name = "vprinter-job-\(index)"
            thread.start()
        }
    }

    /// Queues work; a free worker runs it.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(work) }
        available.signal()
    }

    private func run() {
        while true {
            available.wait()
            let work = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            work?()
        }
    }
}
