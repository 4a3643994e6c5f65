import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// A printer started again on the output folder of a killed one (JobArchive, Printer+Restore): accepted jobs go on
/// in their old order, half-made files go, ids are never handed out twice. The earlier run's state is written as
/// it would be on disk (records made by JobRecorder, leftover files where a kill leaves them).
@Suite struct PrinterRestartTests {
    let operations = PrinterServiceJobOperationsTests()

    /// Starts a printer again on `folder`, as `vprinter` does: ids after the folders there, the earlier jobs read
    /// and taken over. With `paused`, queued jobs wait (for a look at the queue) until `resume(_:)`.
    func restart(
        on folder: TemporaryFolder, policy: RestartPolicy = .requeue, paused: Bool = false
    ) throws -> PrinterHarness {
        let harness = try PrinterHarness(reusing: folder)
        if paused { harness.printer.updatePrinter { $0.paused = true } }
        harness.printer.beginRestore()
        let archive = JobArchive.load(
            outputDirectory: folder.path, before: harness.printer.jobIDs.first, printerStartTime: 0)
        #expect(archive.problems.isEmpty)
        harness.printer.restore(archive.jobs, policy: policy)
        return harness
    }

    func resume(_ harness: PrinterHarness) {
        harness.printer.updatePrinter { $0.paused = false }
    }

    /// A job as an earlier run recorded it, its folder made by JobRecorder; `change` moves it along.
    @discardableResult
    func recorded(
        _ id: Int, in folder: TemporaryFolder, operation: String = "Print-Job", files: [String] = [],
        _ change: (inout Job) throws -> Void = { _ in }
    ) throws -> Job {
        try FileManager.default.createDirectory(atPath: folder.path + "/jobs", withIntermediateDirectories: true)
        var job = Job(
            id: id, uuid: "urn:uuid:00000000-0000-5000-8000-00000000000\(id)", printerName: "t",
            printerURI: "ipp://localhost:631/ipp/print", name: "job \(id)", user: "alice", templateAttributes: [],
            client: ClientInfo(address: "127.0.0.1", userAgent: nil), now: 1_700_000_000, printerStartTime: 0)
        job.creationOperation = operation
        try change(&job)
        _ = try JobRecorder(outputDirectory: folder.path).create(job).get()
        for file in files {
            #expect(FileManager.default.createFile(atPath: "\(folder.path)/jobs/\(id)/\(file)", contents: Data()))
        }
        return job
    }

    let document = DocumentRecord(
        number: 1, name: nil, format: "application/pdf", detectedFormat: "application/pdf", compression: "none",
        size: 0, sha256: "", file: "document-1.pdf", pages: nil)

    func queue(_ job: inout Job) throws {
        job.documents = [document]
        try job.apply(.documentsComplete, at: 1_700_000_001)
    }

    func start(_ job: inout Job, at time: Double) throws {
        try queue(&job)
        try job.apply(.processingStarted, at: time)
        job.impressions = [
            PrintedSide(
                number: 1, file: "page-0001.png", sheet: 1, side: .front, width: 1, height: 1, dpi: 72, color: false)
        ]
    }

    /// Jobs 1 queued, 2 and 3 printing (3 started first), 4 completed, 5 held.
    func killedRun(in folder: TemporaryFolder) throws {
        try recorded(1, in: folder, files: ["document-1.pdf"]) { try queue(&$0) }
        try recorded(2, in: folder, files: ["document-1.pdf", "page-0001.png", "page-0002.png.part"]) {
            try start(&$0, at: 1_700_000_020)
        }
        try recorded(3, in: folder, files: ["document-1.pdf", "page-0001.png", "page-0001.txt", "page-0002.png"]) {
            try start(&$0, at: 1_700_000_010)
        }
        try recorded(4, in: folder, files: ["document-1.pdf", "page-0001.png"]) {
            try start(&$0, at: 1_700_000_005)
            try $0.apply(.processingFinished, at: 1_700_000_006)
        }
        try recorded(5, in: folder, files: ["document-1.pdf"]) {
            try queue(&$0)
            try $0.apply(.held, at: 1_700_000_002)
        }
    }

    @Test func queuedAndPrintingJobsAreQueuedAgainInTheirOldOrderAndPrinted() throws {
        let folder = try TemporaryFolder()
        try killedRun(in: folder)
        let completedRecord = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/jobs/4/job.json"))
        let harness = try restart(on: folder, paused: true)
        // Those that had started printing first, in the order they started, then the queued ones.
        #expect(harness.printer.status.withLock { $0.queue } == [3, 2, 1])
        #expect(harness.folder.contents(of: "jobs/2") == ["document-1.pdf", "job.json"], "old page images go")
        #expect(harness.folder.contents(of: "jobs/3") == ["document-1.pdf", "job.json"], "and their text files")
        let requeued = try #require(harness.printer.job(2))
        #expect(requeued.state == .pending && requeued.impressions.isEmpty)
        #expect(requeued.history.map(\.state) == [.pending, .pending, .processing, .pending])
        #expect(try harness.record(2)["job-state-reasons"] as? [String] == ["job-queued"])
        #expect(harness.printer.job(5)?.state == .pendingHeld)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/jobs/4/job.json")) == completedRecord)
        resume(harness)
        for id in [1, 2, 3] { #expect(harness.ended(id)?.state == .completed) }
        #expect(harness.printer.job(5)?.state == .pendingHeld, "a held job stays held")
        let history = try #require(try harness.record(3)["history"] as? [[String: Any]])
        #expect(
            history.map { $0["job-state"] as? String } == [
                "pending", "pending", "processing", "pending", "processing", "completed",
            ])
    }

    @Test func theAbortPolicyEndsEveryUnfinishedJobAborted() throws {
        let folder = try TemporaryFolder()
        try killedRun(in: folder)
        let harness = try restart(on: folder, policy: .abort)
        for id in [1, 2, 3, 5] {
            #expect(harness.printer.job(id)?.state == .aborted)
            #expect(try harness.record(id)["job-state-reasons"] as? [String] == ["aborted-by-system"])
        }
        #expect(harness.printer.job(4)?.state == .completed)
        #expect(harness.printer.status.withLock { $0.queue }.isEmpty)
        #expect(harness.folder.contents(of: "jobs/2") == ["document-1.pdf", "job.json", "page-0001.png"])
    }

    @Test func aPrintJobCutOffWhileItsDocumentArrivedIsAbortedAndItsPartialFileRemoved() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder, files: ["document-1.partial", "job.json.tmp"])
        // The document was renamed into place but the record never named it: not acknowledged either.
        try recorded(2, in: folder, files: ["document-1.pdf"])
        let harness = try restart(on: folder)
        for id in [1, 2] {
            let job = try #require(harness.printer.job(id))
            #expect(job.state == .aborted)
            #expect(job.reasons == ["aborted-by-system", "submission-interrupted"])
            #expect(try harness.record(id)["job-state"] as? String == "aborted")
            #expect(harness.folder.contents(of: "jobs/\(id)") == ["job.json"])
        }
    }

    @Test func aCreateJobWaitingForDocumentsTakesTheRestAfterARestart() throws {
        let earlier = try PrinterHarness()
        let id = try operations.createJob(earlier)
        let first = try operations.sendDocument(
            earlier, job: id, last: false, data: PrinterServicePrintJobTests.pdfBytes)
        #expect(first.status == .successfulOK)
        let harness = try restart(on: earlier.folder)
        let waiting = try #require(harness.printer.job(id))
        #expect(waiting.isReceiving && waiting.state == .pending && waiting.reasons == ["job-incoming"])
        let last = try operations.sendDocument(
            harness, job: id, last: true, data: PrinterServicePrintJobTests.jpegBytes)
        #expect(last.status == .successfulOK)
        let job = try #require(harness.ended(id))
        #expect(job.state == .completed)
        #expect(job.documents.map(\.file) == ["document-1.pdf", "document-2.jpg"])
        #expect(try operations.printJob(harness) == id + 1, "ids go on after the earlier run's")
    }

    @Test func aSuspendedJobStaysSuspendedAndResumeJobPrintsItFromTheStart() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder, files: ["document-1.pdf", "page-0001.png"]) {
            try start(&$0, at: 1_700_000_010)
            try $0.apply(.suspended, at: 1_700_000_011)
        }
        let harness = try restart(on: folder)
        #expect(harness.printer.job(1)?.state == .processingStopped)
        #expect(harness.printer.job(1)?.reasons == ["job-suspended"])
        let resumed = try harness.send(operations.jobOperation(.resumeJob, 1))
        #expect(resumed.status == .successfulOK)
        #expect(harness.ended(1)?.state == .completed)
        #expect(!harness.folder.contents(of: "jobs/1").contains("page-0001.png"))
    }

    @Test func idsAreNeverHandedOutTwiceWhenTheNewestFolderWasStillBeingMade() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder) { try queue(&$0) }
        try FileManager.default.createDirectory(
            atPath: folder.path + "/jobs/.new-2", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.path + "/jobs/.new-2/job.json.tmp", contents: Data()))
        let harness = try restart(on: folder)
        #expect(harness.folder.contents(of: "jobs") == ["1"], "the folder being made is removed")
        #expect(try operations.printJob(harness) == 3)
    }

    @Test func foldersOfTheNewRunAreLeftAlone() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder, files: ["document-1.partial"])
        try recorded(2, in: folder, files: ["document-1.partial"])
        try FileManager.default.createDirectory(
            atPath: folder.path + "/jobs/.new-3", withIntermediateDirectories: true)
        let archive = JobArchive.load(outputDirectory: folder.path, before: 2, printerStartTime: 0)
        #expect(archive.jobs.map(\.id) == [1])
        #expect(archive.leftoversRemoved == 1)
        #expect(folder.contents(of: "jobs") == [".new-3", "1", "2"])
        #expect(folder.contents(of: "jobs/2") == ["document-1.partial", "job.json"])
    }

    @Test func aTemporaryRecordBesideAnEndedJobIsRemovedAndTheRecordKept() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder, files: ["document-1.pdf", "job.json.tmp"]) {
            try queue(&$0)
            try $0.apply(.canceled(byUser: true), at: 1_700_000_003)
        }
        let archive = JobArchive.load(outputDirectory: folder.path, printerStartTime: 0)
        #expect(archive.jobs.map(\.state) == [.canceled])
        #expect(archive.leftoversRemoved == 1)
        #expect(folder.contents(of: "jobs/1") == ["document-1.pdf", "job.json"])
    }

    @Test func aCreateJobCutOffWhileItsSecondDocumentArrivedWaitsWithTheFirst() throws {
        let folder = try TemporaryFolder()
        // document-2.partial was arriving; document-2.pdf was renamed into place but its Send-Document was never
        // answered (the record does not name it).
        try recorded(
            1, in: folder, operation: "Create-Job", files: ["document-1.pdf", "document-2.partial", "document-2.pdf"]
        ) { $0.documents = [document] }
        let harness = try restart(on: folder)
        let job = try #require(harness.printer.job(1))
        #expect(job.state == .pending && job.isReceiving && job.reasons == ["job-incoming"])
        #expect(job.documents.map(\.file) == ["document-1.pdf"])
        #expect(harness.folder.contents(of: "jobs/1") == ["document-1.pdf", "job.json"])
    }

    /// What earlier versions, which wrote records in place, could leave: an empty job.json, a truncated one, a
    /// folder holding only a temporary record. They are reported and kept (they may hold documents someone wants),
    /// never taken for jobs; the other jobs are taken over and no id is handed out again.
    @Test func recordsThatCannotBeReadAreReportedAndKeptAndTheOthersTakenOver() throws {
        let folder = try TemporaryFolder()
        try recorded(1, in: folder) { try queue(&$0) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/jobs/1/job.json"))
        let leftovers: [(folder: String, file: String, bytes: Data)] = [
            ("2", "job.json", Data()), ("3", "job.json", whole.prefix(whole.count / 2)),
            ("4", JobRecorder.temporaryRecordName, whole.prefix(10)),
        ]
        for leftover in leftovers {
            let path = "\(folder.path)/jobs/\(leftover.folder)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: "\(path)/\(leftover.file)", contents: leftover.bytes))
        }
        let harness = try PrinterHarness(reusing: folder)
        harness.printer.beginRestore()
        let archive = JobArchive.load(
            outputDirectory: folder.path, before: harness.printer.jobIDs.first, printerStartTime: 0)
        #expect(archive.jobs.map(\.id) == [1])
        #expect(
            archive.problems.sorted() == [
                "\(folder.path)/jobs/2/job.json: not a job record of this version",
                "\(folder.path)/jobs/3/job.json: not a job record of this version",
                "\(folder.path)/jobs/4/job.json: missing",
            ])
        #expect(archive.leftoversRemoved == 1)
        harness.printer.restore(archive.jobs)
        #expect(harness.ended(1)?.state == .completed)
        #expect(folder.contents(of: "jobs") == ["1", "2", "3", "4"])
        #expect(folder.contents(of: "jobs/4").isEmpty, "the temporary record is removed")
        #expect(try operations.printJob(harness) == 5)
    }
}
