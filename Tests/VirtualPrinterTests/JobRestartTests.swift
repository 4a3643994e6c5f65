import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Job+Restart: what a start on the same output folder does to each kind of job an earlier run left, under
/// `--on-restart requeue` (the default) and `--on-restart abort`; the printerRestarted and submissionInterrupted
/// transitions.
@Suite struct JobRestartTests {
    static let restart: Double = 500

    func job(_ operation: String = "Print-Job") -> Job {
        var job = Job(
            id: 4, uuid: "urn:uuid:x", printerName: "t", printerURI: "ipp://h/ipp/print", name: "n", user: "u",
            templateAttributes: [], client: ClientInfo(address: "127.0.0.1", userAgent: nil), now: 100,
            printerStartTime: 0)
        job.creationOperation = operation
        return job
    }

    let document = DocumentRecord(
        number: 1, name: nil, format: "application/pdf", detectedFormat: "application/pdf", compression: "none",
        size: 4, sha256: "", file: "document-1.pdf", pages: nil)

    func queued() throws -> Job {
        var job = job()
        job.documents = [document]
        try job.apply(.documentsComplete, at: 101)
        return job
    }

    func printing() throws -> Job {
        var job = try queued()
        try job.apply(.processingStarted, at: 102)
        job.impressions = [
            PrintedSide(
                number: 1, file: "page-0001.png", sheet: 1, side: .front, width: 10, height: 10, dpi: 72,
                color: false)
        ]
        job.impressionsCompleted = 1
        return job
    }

    @Test func aQueuedJobIsQueuedAgainWithTheRestartInItsHistory() throws {
        var job = try queued()
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .requeued(wasPrinting: false))
        #expect(job.state == .pending && job.reasons == ["job-queued"])
        #expect(job.history.last?.time == Self.restart)
        #expect(job.history.last?.message == "The printer restarted; the job is queued again.")
    }

    @Test func aJobBeingPrintedIsPrintedAgainFromTheStart() throws {
        var job = try printing()
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .requeued(wasPrinting: true))
        #expect(job.state == .pending && job.reasons == ["job-queued"])
        #expect(job.impressions.isEmpty && job.impressionsCompleted == 0 && job.timeProcessing == nil)
        #expect(job.documents == [document])
        #expect(job.history.map(\.state) == [.pending, .pending, .processing, .pending])
        #expect(job.history.last?.message?.contains("printed again from the start") == true)
    }

    @Test func aJobStoppedByThePrinterIsPrintedAgain() throws {
        var job = try printing()
        try job.apply(.printerStopped, at: 103)
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .requeued(wasPrinting: true))
        #expect(job.state == .pending)
    }

    @Test func aPrintJobWhoseDocumentWasArrivingIsAbortedAsSubmissionInterrupted() {
        var job = job("Print-Job")
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .aborted)
        #expect(job.state == .aborted)
        #expect(job.reasons == ["aborted-by-system", "submission-interrupted"])
        #expect(job.timeCompleted == Self.restart)
    }

    @Test func aRecordWithoutItsCreationOperationIsTreatedAsAPrintJob() {
        var job = job()
        job.creationOperation = nil
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .aborted)
    }

    @Test func aCreateJobWaitingForDocumentsWaitsAgainFromTheRestart() {
        var job = job("Create-Job")
        job.documents = [document]
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .unchanged)
        #expect(job.state == .pending && job.reasons == ["job-incoming"] && job.isReceiving)
        #expect(job.lastActivity == Self.restart, "multiple-operation-time-out counts from the restart")
    }

    @Test func heldJobsStayHeld() throws {
        var job = try queued()
        try job.apply(.held, at: 103)
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .unchanged)
        #expect(job.state == .pendingHeld && job.history.last?.time == 103)
    }

    @Test func aSuspendedJobStaysSuspendedAndIsMarkedToPrintAgainOnResume() throws {
        var job = try printing()
        try job.apply(.suspended, at: 103)
        #expect(job.takeOver(after: .requeue, at: Self.restart) == .unchanged)
        #expect(job.state == .processingStopped && job.reasons == ["job-suspended"] && job.renderInterrupted)
        try job.apply(.printerRestarted, at: 600)
        #expect(job.state == .pending && job.impressions.isEmpty && !job.renderInterrupted)
    }

    @Test func endedJobsAreNotTouched() throws {
        var completed = try printing()
        try completed.apply(.processingFinished, at: 103)
        let before = completed.history
        #expect(completed.takeOver(after: .requeue, at: Self.restart) == .unchanged)
        #expect(completed.takeOver(after: .abort, at: Self.restart) == .unchanged)
        #expect(completed.history == before && completed.state == .completed)
    }

    @Test func theAbortPolicyAbortsEveryJobThatHadNotEnded() throws {
        var held = try queued()
        try held.apply(.held, at: 103)
        for var job in [try queued(), try printing(), held, job("Create-Job"), job("Print-Job")] {
            let was = job.state.keyword
            #expect(job.takeOver(after: .abort, at: Self.restart) == .aborted)
            #expect(job.state == .aborted && job.reasons == ["aborted-by-system"])
            #expect(job.message == "The printer stopped while the job was \(was).")
        }
    }

    @Test func printerRestartedIsRefusedWhileDocumentsArriveOrTheJobIsHeld() throws {
        var receiving = job("Create-Job")
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .printerRestarted)) {
            try receiving.apply(.printerRestarted, at: 200)
        }
        var held = try queued()
        try held.apply(.held, at: 103)
        #expect(throws: JobTransitionError.notPossible(from: .pendingHeld, event: .printerRestarted)) {
            try held.apply(.printerRestarted, at: 200)
        }
        var closed = try queued()
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .submissionInterrupted)) {
            try closed.apply(.submissionInterrupted, at: 200)
        }
    }

    @Test func aRecordReadBackKnowsWhetherItWasReceivingAndWhatHeldIt() throws {
        var created = job("Create-Job")
        created.templateAttributes = [IPPAttribute("job-hold-until", .keyword("indefinite"))]
        created.holdUntil = "indefinite"
        try created.apply(.held, at: 101)
        let read = Job(record: JobRecord(created), printerStartTime: 0)
        #expect(read.isReceiving && read.state == .pendingHeld)
        #expect(read.creationOperation == "Create-Job")
        #expect(read.holdUntil == "indefinite")
        #expect(read.history.last?.message == "Job held.")
        var closed = try queued()
        try closed.apply(.processingStarted, at: 102)
        #expect(Job(record: JobRecord(closed), printerStartTime: 0).isReceiving == false)
    }

    @Test(arguments: [0.0, 1_700_000_000, 1_798_761_599, 4_102_444_800])
    func recordTimesReadBackAsWritten(time: Double) {
        #expect(Job.parseISO8601(JobRecord.iso8601(time)) == time)
    }

    @Test(arguments: [
        "", "2026-01-01T00:00:00", "2026-1-01T00:00:00Z", "2026-01-01 00:00:00Z", "20a6-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z ", "2026-01-01T00:00:0xZ",
    ])
    func malformedRecordTimesAreNotRead(text: String) {
        #expect(Job.parseISO8601(text) == nil)
    }
}
