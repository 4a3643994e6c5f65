import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Job+StateMachine for a stopped device: processing -> processing-stopped(printer-stopped) -> processing, and the
/// events that may not follow.
@Suite struct DeviceJobStateTests {
    /// A job that a worker is printing.
    func printingJob() throws -> Job {
        var job = Job(
            id: 3, uuid: "urn:uuid:y", printerName: "t", printerURI: "ipp://h/ipp/print", name: "n", user: "u",
            templateAttributes: [], client: ClientInfo(address: "127.0.0.1", userAgent: nil), now: 10,
            printerStartTime: 0)
        job.documents.append(
            DocumentRecord(
                number: 1, name: nil, format: "application/pdf", detectedFormat: "application/pdf",
                compression: "none", size: 4, sha256: "", file: "document-1.pdf", pages: nil))
        try job.apply(.documentsComplete, at: 11)
        try job.apply(.processingStarted, at: 12)
        return job
    }

    @Test func printerStoppedStopsAProcessingJobWithPrinterStopped() throws {
        var job = try printingJob()
        try job.apply(.printerStopped, at: 13)
        #expect(job.state == .processingStopped)
        #expect(job.reasons == ["printer-stopped"])
        #expect(
            job.history.last
                == JobHistoryEntry(
                    time: 13, state: .processingStopped, reasons: ["printer-stopped"], message: "The printer stopped."))
    }

    @Test func printerResumedGoesBackToProcessingAndKeepsTheFirstProcessingTime() throws {
        var job = try printingJob()
        try job.apply(.printerStopped, at: 13)
        try job.apply(.printerResumed, at: 20)
        #expect(job.state == .processing)
        #expect(job.reasons == ["job-printing"])
        #expect(job.timeProcessing == 12)
        #expect(job.history.map(\.state) == [.pending, .pending, .processing, .processingStopped, .processing])
    }

    @Test func stoppedJobCanStillFinishOrBeCanceled() throws {
        var job = try printingJob()
        try job.apply(.printerStopped, at: 13)
        var finished = job
        try finished.apply(.processingFinished, at: 14)
        #expect(finished.state == .completed)
        try job.apply(.canceled(byUser: true), at: 14)
        #expect(job.state == .canceled)
    }

    @Test func printerStoppedNeedsAProcessingJob() throws {
        var job = try printingJob()
        try job.apply(.printerStopped, at: 13)
        #expect(throws: JobTransitionError.notPossible(from: .processingStopped, event: .printerStopped)) {
            try job.apply(.printerStopped, at: 14)
        }
        var queued = try printingJob()
        try queued.apply(.processingFinished, at: 13)
        #expect(throws: JobTransitionError.jobEnded(.completed)) { try queued.apply(.printerStopped, at: 14) }
    }

    @Test func printerResumedDoesNotResumeASuspendedJob() throws {
        var job = try printingJob()
        try job.apply(.suspended, at: 13)
        #expect(throws: JobTransitionError.notPossible(from: .processingStopped, event: .printerResumed)) {
            try job.apply(.printerResumed, at: 14)
        }
        #expect(job.reasons == ["job-suspended"])
    }

    @Test func printerResumedNeedsAStoppedJob() throws {
        var job = try printingJob()
        #expect(throws: JobTransitionError.notPossible(from: .processing, event: .printerResumed)) {
            try job.apply(.printerResumed, at: 13)
        }
    }
}
