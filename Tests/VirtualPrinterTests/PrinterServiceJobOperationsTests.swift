import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Create-Job, Send-Document, Close-Job, Cancel-Job, Get-Jobs and multiple-operation-time-out, in process.
@Suite(.timeLimit(.minutes(1))) struct PrinterServiceJobOperationsTests {
    static let pdf = PrinterServicePrintJobTests.pdfBytes

    func createJob(_ harness: PrinterHarness, user: String = "alice") throws -> Int {
        let response = try harness.send(
            ippRequest(.createJob, [IPPAttribute("requesting-user-name", .name(user))]))
        #expect(response.status == .successfulOK)
        #expect(response.attribute("job-state-reasons", in: .jobAttributes)?.value == .keyword("job-incoming"))
        return try #require(response.jobID)
    }

    func sendDocument(_ harness: PrinterHarness, job: Int, last: Bool, data: [UInt8]) throws -> IPPMessage {
        try harness.send(
            ippRequest(
                .sendDocument,
                [
                    IPPAttribute("job-id", .integer(Int32(job))), IPPAttribute("last-document", .boolean(last)),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ]), data: data)
    }

    func printJob(_ harness: PrinterHarness, user: String = "alice") throws -> Int {
        let response = try harness.send(
            ippRequest(
                .printJob,
                [
                    IPPAttribute("requesting-user-name", .name(user)),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ]), data: Self.pdf)
        return try #require(response.jobID)
    }

    func jobOperation(_ operation: IPPOperation, _ job: Int, _ extra: [IPPAttribute] = []) -> IPPMessage {
        ippRequest(operation, [IPPAttribute("job-id", .integer(Int32(job)))] + extra)
    }

    @Test func createJobWithTwoDocumentsRecordsBoth() throws {
        let harness = try PrinterHarness()
        let id = try createJob(harness)
        let first = try sendDocument(harness, job: id, last: false, data: Self.pdf)
        #expect(first.status == .successfulOK)
        #expect(harness.printer.job(id)?.state == .pending)
        #expect(harness.printer.job(id)?.isReceiving == true)
        let second = try sendDocument(harness, job: id, last: true, data: PrinterServicePrintJobTests.jpegBytes)
        #expect(second.status == .successfulOK)
        let job = try #require(harness.ended(id))
        #expect(job.state == .completed)
        #expect(job.documents.map(\.file) == ["document-1.pdf", "document-2.jpg"])
        #expect(harness.folder.contents(of: "jobs/\(id)") == ["document-1.pdf", "document-2.jpg", "job.json"])
        #expect((try harness.record(id)["documents"] as? [Any])?.count == 2)
    }

    @Test func sendDocumentAfterTheLastDocumentIsNotPossible() throws {
        let harness = try PrinterHarness()
        let id = try createJob(harness)
        _ = try sendDocument(harness, job: id, last: true, data: Self.pdf)
        let again = try sendDocument(harness, job: id, last: true, data: Self.pdf)
        #expect(again.status == .clientErrorNotPossible)
    }

    @Test func sendDocumentToAMissingJobIsNotFound() throws {
        let harness = try PrinterHarness()
        #expect(try sendDocument(harness, job: 99, last: true, data: Self.pdf).status == .clientErrorNotFound)
    }

    @Test func sendDocumentWithoutLastDocumentIsABadRequest() throws {
        let harness = try PrinterHarness()
        let id = try createJob(harness)
        #expect(try harness.send(jobOperation(.sendDocument, id), data: Self.pdf).status == .clientErrorBadRequest)
    }

    @Test func closeJobQueuesAJobWithDocuments() throws {
        let harness = try PrinterHarness()
        let id = try createJob(harness)
        _ = try sendDocument(harness, job: id, last: false, data: Self.pdf)
        let closed = try harness.send(jobOperation(.closeJob, id))
        #expect(closed.status == .successfulOK)
        #expect(harness.ended(id)?.state == .completed)
        #expect(try harness.send(jobOperation(.closeJob, id)).status == .clientErrorNotPossible)
    }

    @Test func closeJobWithoutDocumentsAbortsTheJob() throws {
        let harness = try PrinterHarness()
        let id = try createJob(harness)
        #expect(try harness.send(jobOperation(.closeJob, id)).status == .successfulOK)
        let job = try #require(harness.printer.job(id))
        #expect(job.state == .aborted)
        #expect(job.reasons == ["aborted-by-system"])
    }

    @Test func cancelJobCancelsAWaitingJobAndRefusesAnEndedOne() throws {
        let harness = try PrinterHarness()
        let waiting = try createJob(harness)
        #expect(try harness.send(jobOperation(.cancelJob, waiting)).status == .successfulOK)
        #expect(harness.printer.job(waiting)?.state == .canceled)
        #expect(try harness.record(waiting)["job-state"] as? String == "canceled")
        #expect(try harness.send(jobOperation(.cancelJob, waiting)).status == .clientErrorNotPossible)

        let printed = try printJob(harness)
        #expect(harness.ended(printed)?.state == .completed)
        let refused = try harness.send(jobOperation(.cancelJob, printed))
        #expect(refused.status == .clientErrorNotPossible)
        #expect(harness.printer.job(printed)?.state == .completed)
    }

    @Test func cancelJobOfAMissingJobIsNotFound() throws {
        let harness = try PrinterHarness()
        #expect(try harness.send(jobOperation(.cancelJob, 5)).status == .clientErrorNotFound)
    }

    @Test func getJobAttributesReportsTheJob() throws {
        let harness = try PrinterHarness()
        let id = try printJob(harness)
        _ = harness.ended(id)
        let response = try harness.send(jobOperation(.getJobAttributes, id))
        #expect(response.status == .successfulOK)
        #expect(response.attribute("job-state", in: .jobAttributes)?.value == .enumValue(JobState.completed.rawValue))
        #expect(response.attribute("job-originating-user-name", in: .jobAttributes)?.value == .name("alice"))
        let described = try harness.send(
            jobOperation(
                .getJobAttributes, id, [IPPAttribute("requested-attributes", .keyword("job-description"))]))
        #expect(described.attribute("job-state", in: .jobAttributes) != nil)
        #expect(try harness.send(jobOperation(.getJobAttributes, 77)).status == .clientErrorNotFound)
    }

    /// The job ids Get-Jobs returns.
    func getJobs(_ harness: PrinterHarness, user: String = "alice", _ extra: [IPPAttribute]) throws -> [Int] {
        let response = try harness.send(
            ippRequest(.getJobs, [IPPAttribute("requesting-user-name", .name(user))] + extra))
        #expect(response.status == .successfulOK)
        return response.groups.filter { $0.tag == .jobAttributes }.compactMap {
            $0["job-id"]?.value?.integerValue.map(Int.init)
        }
    }

    @Test func getJobsSelectsByStateOwnerAndWindow() throws {
        let harness = try PrinterHarness()
        let done1 = try printJob(harness, user: "alice")
        let done2 = try printJob(harness, user: "bob")
        let done3 = try printJob(harness, user: "alice")
        for id in [done1, done2, done3] { #expect(harness.ended(id)?.state == .completed) }
        let open1 = try createJob(harness, user: "alice")
        let open2 = try createJob(harness, user: "bob")

        #expect(try getJobs(harness, []) == [open1, open2], "not-completed by default, oldest first")
        #expect(try getJobs(harness, [IPPAttribute("which-jobs", .keyword("completed"))]) == [done3, done2, done1])
        #expect(
            try getJobs(
                harness, [IPPAttribute("which-jobs", .keyword("completed")), IPPAttribute("my-jobs", .boolean(true))])
                == [done3, done1])
        #expect(try getJobs(harness, user: "bob", [IPPAttribute("my-jobs", .boolean(true))]) == [open2])
        #expect(
            try getJobs(
                harness, [IPPAttribute("which-jobs", .keyword("completed")), IPPAttribute("limit", .integer(2))])
                == [done3, done2])
        #expect(
            try getJobs(
                harness,
                [
                    IPPAttribute("which-jobs", .keyword("completed")), IPPAttribute("first-index", .integer(2)),
                    IPPAttribute("limit", .integer(1)),
                ]) == [done2])
        #expect(
            try getJobs(
                harness, [IPPAttribute("which-jobs", .keyword("completed")), IPPAttribute("first-index", .integer(9))]
            )
            .isEmpty)
    }

    @Test func getJobsRefusesBadSelectors() throws {
        let harness = try PrinterHarness()
        let which = try harness.send(ippRequest(.getJobs, [IPPAttribute("which-jobs", .keyword("fetchable"))]))
        #expect(which.status == .clientErrorAttributesOrValuesNotSupported)
        #expect(which.attribute("which-jobs", in: .unsupportedAttributes) != nil)
        #expect(
            try harness.send(ippRequest(.getJobs, [IPPAttribute("limit", .integer(0))])).status
                == .clientErrorBadRequest)
        #expect(
            try harness.send(ippRequest(.getJobs, [IPPAttribute("first-index", .integer(0))])).status
                == .clientErrorBadRequest)
    }

    /// A printer whose multiple-operation-time-out is one second (the least it takes), with an action.
    func shortTimeOutHarness(action: String = "process-job") throws -> PrinterHarness {
        let attributes = replacing(
            try duplexLaserAttributes(),
            with: [
                IPPAttribute("multiple-operation-time-out", .integer(1)),
                IPPAttribute("multiple-operation-time-out-action", .keyword(action)),
            ])
        let harness = try PrinterHarness(attributes: attributes)
        #expect(harness.printer.multipleOperationTimeout == 1)
        #expect(harness.printer.multipleOperationTimeoutAction == action)
        return harness
    }

    /// Calls expireIdleJobs until the job is no longer receiving, for at most ten seconds.
    func expire(_ harness: PrinterHarness, _ id: Int) -> Job? {
        for _ in 0..<100 {
            harness.printer.expireIdleJobs()
            if let job = harness.printer.job(id), !job.isReceiving { return job }
            usleep(100_000)
        }
        return harness.printer.job(id)
    }

    @Test func multipleOperationTimeOutAbortsAJobWithoutDocuments() throws {
        let harness = try shortTimeOutHarness()
        let id = try createJob(harness)
        harness.printer.expireIdleJobs()
        #expect(harness.printer.job(id)?.isReceiving == true, "a fresh job is not expired")
        let job = try #require(expire(harness, id))
        #expect(job.state == .aborted)
        #expect(job.reasons == ["aborted-by-system"])
        #expect(try harness.record(id)["job-state"] as? String == "aborted")
    }

    @Test func multipleOperationTimeOutAbortJobAbortsAJobWithDocuments() throws {
        let harness = try shortTimeOutHarness(action: "abort-job")
        let id = try createJob(harness)
        _ = try sendDocument(harness, job: id, last: false, data: Self.pdf)
        let job = try #require(expire(harness, id))
        #expect(job.state == .aborted && job.reasons == ["aborted-by-system"])
    }

    @Test func multipleOperationTimeOutProcessJobPrintsAJobWithDocuments() throws {
        let harness = try shortTimeOutHarness(action: "process-job")
        let id = try createJob(harness)
        _ = try sendDocument(harness, job: id, last: false, data: Self.pdf)
        _ = expire(harness, id)
        let job = try #require(harness.ended(id))
        #expect(job.state == .completed)
        #expect(job.documents.count == 1)
        #expect(try sendDocument(harness, job: id, last: true, data: Self.pdf).status == .clientErrorNotPossible)
    }
}
