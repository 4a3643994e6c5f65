import PrintModel
import PrinterCore
import PrinterHTTP

/// Why an embedded printer could not start or a wait failed.
public enum EmbeddedPrinterError: Error, Sendable, Equatable {
    /// The profile could not be found or read; the message says which and why.
    case profile(String)
    /// The output folder could not be created or written.
    case outputDirectory(path: String, reason: String)
    /// The render worker `vprinter-render` was not found beside the test binary nor through `VPRINTER_RENDER`.
    case renderWorkerNotFound
    /// The HTTP server could not listen (port in use, no such address).
    case listen(String)
    /// `waitForJobs` ran out of time; the records of the jobs that had ended are attached.
    case timedOut(ended: [JobRecord], expected: Int)
    /// A wait's count or timeout was out of range (count < 1, timeout negative or above `maximumWaitTimeout`).
    case invalidWait(String)
    /// The printer was stopped.
    case stopped
    /// There is no job with this id.
    case noSuchJob(Int)
    /// A job's record did not decode as a `JobRecord` (a defect: please report it).
    case unreadableRecord(jobID: Int, reason: String)
}
