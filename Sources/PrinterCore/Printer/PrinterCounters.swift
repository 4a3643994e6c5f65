import Synchronization

/// Monotonic counts of one printer for `GET /metrics`: lock-free, so that counting costs the request and job
/// paths one atomic add.
public final class PrinterCounters: Sendable {
    /// Impressions (printed sides) and media sheets of completed jobs, copies included.
    let impressions = Atomic<Int>(0)
    let sheets = Atomic<Int>(0)
    /// Document bytes received (as sent, before decompression).
    package let bytesReceived = Atomic<Int>(0)
    /// Faults that fired.
    let faultsFired = Atomic<Int>(0)

    init() {}

    /// Counts what a job printed once it ended by processing (completed).
    func jobEnded(_ job: Job) {
        guard job.state == .completed else { return }
        // As the record counts them: job-impressions and job-media-sheets, copies included.
        impressions.add(job.impressions.count * job.copies, ordering: .relaxed)
        sheets.add((job.impressions.map(\.sheet).max() ?? 0) * job.copies, ordering: .relaxed)
    }
}
