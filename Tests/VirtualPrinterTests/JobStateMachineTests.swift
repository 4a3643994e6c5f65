import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Job+StateMachine: every transition of DESIGN.md's lifecycle, every refused one, times and history.
@Suite struct JobStateMachineTests {
    func newJob(at time: Double = 100) -> Job {
        Job(
            id: 7, uuid: "urn:uuid:x", printerName: "t", printerURI: "ipp://h/ipp/print", name: "n", user: "u",
            templateAttributes: [], client: ClientInfo(address: "127.0.0.1", userAgent: nil), now: time,
            printerStartTime: 0)
    }

    /// A job that received one document and is queued.
    func queuedJob() throws -> Job {
        var job = newJob()
        job.documents.append(sampleDocument)
        try job.apply(.documentsComplete, at: 101)
        return job
    }

    let sampleDocument = DocumentRecord(
        number: 1, name: nil, format: "application/pdf", detectedFormat: "application/pdf", compression: "none",
        size: 4, sha256: "", file: "document-1.pdf", pages: nil)

    @Test func newJobIsPendingIncomingWithOneHistoryEntry() {
        let job = newJob()
        #expect(job.state == .pending)
        #expect(job.reasons == ["job-incoming"])
        #expect(job.isReceiving)
        #expect(
            job.history == [
                JobHistoryEntry(
                    time: 100, state: .pending, reasons: ["job-incoming"], message: "Waiting for documents.")
            ])
        #expect(job.timeProcessing == nil && job.timeCompleted == nil)
    }

    @Test func documentsCompleteQueuesTheJobAndStopsReceiving() throws {
        var job = newJob()
        let transition = try job.apply(.documentsComplete, at: 101)
        #expect(transition.enqueue)
        #expect(job.state == .pending)
        #expect(job.reasons == ["job-queued"])
        #expect(!job.isReceiving)
        #expect(
            job.history.last
                == JobHistoryEntry(time: 101, state: .pending, reasons: ["job-queued"], message: "Job queued."))
    }

    @Test func fullLifecycleStampsProcessingAndCompletedTimes() throws {
        var job = try queuedJob()
        let started = try job.apply(.processingStarted, at: 102)
        #expect(!started.enqueue)
        #expect(job.state == .processing && job.reasons == ["job-printing"])
        #expect(job.timeProcessing == 102)
        #expect(job.timeCompleted == nil)
        try job.apply(.processingFinished, at: 105)
        #expect(job.state == .completed)
        #expect(job.reasons == ["job-completed-successfully"])
        #expect(job.timeProcessing == 102)
        #expect(job.timeCompleted == 105)
        #expect(job.history.map(\.state) == [.pending, .pending, .processing, .completed])
        #expect(job.history.map(\.time) == [100, 101, 102, 105])
    }

    @Test func processingFinishedIsAllowedFromProcessingStopped() throws {
        var job = try queuedJob()
        job.state = .processingStopped
        try job.apply(.processingFinished, at: 110)
        #expect(job.state == .completed)
    }

    @Test(arguments: [true, false])
    func cancelEndsAJobInAnyNonTerminalState(byUser: Bool) throws {
        let reason = byUser ? "job-canceled-by-user" : "job-canceled-by-operator"
        var receiving = newJob()
        try receiving.apply(.canceled(byUser: byUser), at: 103)
        #expect(receiving.state == .canceled && receiving.reasons == [reason])
        #expect(!receiving.isReceiving)
        #expect(receiving.timeCompleted == 103)

        var processing = try queuedJob()
        try processing.apply(.processingStarted, at: 102)
        try processing.apply(.canceled(byUser: byUser), at: 104)
        #expect(processing.state == .canceled && processing.timeCompleted == 104)
    }

    @Test func abortCarriesTheReasonAndMessage() throws {
        var job = try queuedJob()
        try job.apply(.processingStarted, at: 102)
        try job.apply(.aborted(reason: "document-format-error", message: "bad PDF"), at: 103)
        #expect(job.state == .aborted)
        #expect(job.reasons == ["document-format-error"])
        #expect(job.message == "bad PDF")
        #expect(job.timeCompleted == 103)
        #expect(
            job.history.last
                == JobHistoryEntry(time: 103, state: .aborted, reasons: ["document-format-error"], message: "bad PDF"))
    }

    @Test func timeOutWithoutDocumentsAbortsBySystem() throws {
        var job = newJob()
        let transition = try job.apply(.timedOut(action: "process-job"), at: 160)
        #expect(!transition.enqueue)
        #expect(job.state == .aborted && job.reasons == ["aborted-by-system"])
        #expect(!job.isReceiving)
        #expect(job.timeCompleted == 160)
    }

    @Test func timeOutWithDocumentsAndAbortJobAbortsIt() throws {
        var job = newJob()
        job.documents.append(sampleDocument)
        let transition = try job.apply(.timedOut(action: "abort-job"), at: 160)
        #expect(!transition.enqueue)
        #expect(job.state == .aborted && job.reasons == ["aborted-by-system"])
    }

    @Test func timeOutWithDocumentsAndHoldJobHoldsIt() throws {
        var job = newJob()
        job.documents.append(sampleDocument)
        let transition = try job.apply(.timedOut(action: "hold-job"), at: 160)
        #expect(!transition.enqueue)
        #expect(job.state == .pendingHeld && !job.isReceiving && job.holdUntil == "indefinite")
        try job.apply(.released, at: 170)
        #expect(job.state == .pending && job.reasons == ["job-queued"])
    }

    @Test func timeOutWithDocumentsAndProcessJobQueuesTheJob() throws {
        var job = newJob()
        job.documents.append(sampleDocument)
        let transition = try job.apply(.timedOut(action: "process-job"), at: 160)
        #expect(transition.enqueue)
        #expect(job.state == .pending && job.reasons == ["job-queued"])
        #expect(!job.isReceiving)
        #expect(job.timeCompleted == nil)
    }

    @Test func processingCannotStartWhileDocumentsArrive() {
        var job = newJob()
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .processingStarted)) {
            try job.apply(.processingStarted, at: 101)
        }
        #expect(job.history.count == 1)
        #expect(job.state == .pending && job.reasons == ["job-incoming"])
    }

    @Test func processingCannotFinishBeforeItStarted() throws {
        var job = try queuedJob()
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .processingFinished)) {
            try job.apply(.processingFinished, at: 102)
        }
    }

    @Test func processingCannotStartTwice() throws {
        var job = try queuedJob()
        try job.apply(.processingStarted, at: 102)
        #expect(throws: JobTransitionError.notPossible(from: .processing, event: .processingStarted)) {
            try job.apply(.processingStarted, at: 103)
        }
        #expect(job.timeProcessing == 102)
    }

    @Test func documentsCannotCompleteTwiceNorAfterTimeOut() throws {
        var job = try queuedJob()
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .documentsComplete)) {
            try job.apply(.documentsComplete, at: 102)
        }
        #expect(throws: JobTransitionError.notPossible(from: .pending, event: .timedOut(action: "abort-job"))) {
            try job.apply(.timedOut(action: "abort-job"), at: 102)
        }
    }

    static let everyEvent: [JobEvent] = [
        .documentsComplete, .processingStarted, .processingFinished,
        .aborted(reason: "aborted-by-system", message: "m"), .canceled(byUser: true), .timedOut(action: "abort-job"),
        .printerRestarted, .submissionInterrupted,
    ]

    @Test(arguments: everyEvent)
    func anEndedJobRefusesEveryEventAndKeepsItsRecord(event: JobEvent) throws {
        var completed = try queuedJob()
        try completed.apply(.processingStarted, at: 102)
        try completed.apply(.processingFinished, at: 103)
        var canceled = newJob()
        try canceled.apply(.canceled(byUser: false), at: 101)
        var aborted = newJob()
        try aborted.apply(.timedOut(action: "abort-job"), at: 101)
        for var job in [completed, canceled, aborted] {
            let before = (job.state, job.reasons, job.history, job.timeCompleted)
            #expect(throws: JobTransitionError.jobEnded(job.state)) { try job.apply(event, at: 200) }
            #expect(job.state == before.0 && job.reasons == before.1)
            #expect(job.history == before.2 && job.timeCompleted == before.3)
        }
    }

    @Test func transitionDoesNotChangeTheJob() throws {
        let job = try queuedJob()
        let next = try job.transition(for: .processingStarted)
        #expect(next.state == .processing)
        #expect(job.state == .pending)
        #expect(job.history.count == 2)
    }

    @Test func jobStateKeywordsRoundTripAndOnlyEndedStatesAreTerminal() {
        for state in JobState.allCases {
            #expect(JobState(keyword: state.keyword) == state)
        }
        #expect(JobState(keyword: "printing") == nil)
        #expect(JobState.allCases.filter(\.isTerminal) == [.canceled, .aborted, .completed])
        #expect(JobState.processingStopped.keyword == "processing-stopped")
    }
}
