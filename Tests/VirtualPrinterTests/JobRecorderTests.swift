import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

#if canImport(Glibc)
    import Glibc
#endif

/// JobRecorder: job.json is valid JSON with DESIGN.md's keys, written atomically (no temporary file left); a job
/// folder never exists without its record; a write that fails keeps the last record whole.
@Suite(.timeLimit(.minutes(1))) struct JobRecorderTests {
    func sampleJob() throws -> Job {
        var job = Job(
            id: 3, uuid: "urn:uuid:00000000-0000-5000-8000-000000000003", printerName: "t",
            printerURI: "ipp://localhost:631/ipp/print", name: "Report", user: "alice",
            templateAttributes: [
                IPPAttribute("copies", .integer(2)), IPPAttribute("sides", .keyword("two-sided-long-edge")),
                IPPAttribute("orientation-requested", .enumValue(3)),
                IPPAttribute(
                    "media-col",
                    .collection([
                        IPPAttribute(
                            "media-size",
                            .collection([
                                IPPAttribute("x-dimension", .integer(21000)),
                                IPPAttribute("y-dimension", .integer(29700)),
                            ]))
                    ])),
            ],
            client: ClientInfo(address: "127.0.0.1", userAgent: "CUPS/2.4.2"), now: 1_700_000_000,
            printerStartTime: 1_699_999_000)
        job.documents.append(
            DocumentRecord(
                number: 1, name: "r.pdf", format: "application/pdf", detectedFormat: "application/pdf",
                compression: "gzip", size: 1234, sha256: String(repeating: "a", count: 64), file: "document-1.pdf",
                pages: 3))
        try job.apply(.documentsComplete, at: 1_700_000_001)
        try job.apply(.processingStarted, at: 1_700_000_002)
        job.impressions = [
            PrintedSide(
                number: 1, file: "page-0001.png", sheet: 1, side: .front, width: 1275, height: 1650, dpi: 150,
                color: false),
            PrintedSide(
                number: 2, file: "page-0002.png", sheet: 1, side: .back, width: 1275, height: 1650, dpi: 150,
                color: false),
            PrintedSide(
                number: 3, file: "page-0003.png", sheet: 2, side: .front, width: 1275, height: 1650, dpi: 150,
                color: false),
        ]
        try job.apply(.processingFinished, at: 1_700_000_003)
        return job
    }

    func writtenRecord(of job: Job, in folder: TemporaryFolder) throws -> [String: Any] {
        let recorder = JobRecorder(outputDirectory: folder.path)
        if folder.contents(of: "jobs").contains(String(job.id)) {
            #expect(recorder.write(job).failure == nil)
        } else {
            try FileManager.default.createDirectory(atPath: folder.path + "/jobs", withIntermediateDirectories: true)
            _ = try recorder.create(job).get()
        }
        #expect(folder.contents(of: "jobs") == [String(job.id)], "no folder being made is left")
        #expect(folder.contents(of: "jobs/\(job.id)") == ["job.json"], "no temporary file is left")
        try recorder.sync(job.id)
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/jobs/\(job.id)/job.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theRecordHasEveryKeyOfTheDesign() throws {
        let folder = try TemporaryFolder()
        let record = try writtenRecord(of: try sampleJob(), in: folder)
        for key in [
            "schema", "printer-name", "job-id", "job-uuid", "job-name", "job-originating-user-name", "job-state",
            "job-state-reasons", "job-state-message", "attributes", "documents", "impressions", "sheets", "copies",
            "job-impressions", "job-media-sheets", "times", "client",
        ] {
            #expect(record[key] != nil, "missing \(key)")
        }
        #expect(record["schema"] as? Int == 1)
        #expect(record["job-id"] as? Int == 3)
        #expect(record["job-state"] as? String == "completed")
        #expect(record["job-state-reasons"] as? [String] == ["job-completed-successfully"])
        #expect(record["job-originating-user-name"] as? String == "alice")
    }

    @Test func attributesMapToJSONAsTheDesignSays() throws {
        let folder = try TemporaryFolder()
        let record = try writtenRecord(of: try sampleJob(), in: folder)
        let attributes = try #require(record["attributes"] as? [String: Any])
        #expect(attributes["copies"] as? Int == 2)
        #expect(attributes["sides"] as? String == "two-sided-long-edge")
        #expect(attributes["orientation-requested"] as? String == "portrait")
        let mediaCol = try #require(attributes["media-col"] as? [String: Any])
        let size = try #require(mediaCol["media-size"] as? [String: Any])
        #expect(size["x-dimension"] as? Int == 21000)
        #expect(size["y-dimension"] as? Int == 29700)
    }

    @Test func documentsImpressionsAndCountsAreRecorded() throws {
        let folder = try TemporaryFolder()
        let record = try writtenRecord(of: try sampleJob(), in: folder)
        let documents = try #require(record["documents"] as? [[String: Any]])
        #expect(documents.count == 1)
        #expect(documents[0]["document-number"] as? Int == 1)
        #expect(documents[0]["document-format-detected"] as? String == "application/pdf")
        #expect(documents[0]["compression"] as? String == "gzip")
        #expect(documents[0]["size"] as? Int == 1234)
        #expect(documents[0]["file"] as? String == "document-1.pdf")
        #expect(documents[0]["pages"] as? Int == 3)
        let impressions = try #require(record["impressions"] as? [[String: Any]])
        #expect(impressions.map { $0["file"] as? String } == ["page-0001.png", "page-0002.png", "page-0003.png"])
        #expect(impressions[1]["side"] as? String == "back")
        #expect(record["sheets"] as? Int == 2)
        #expect(record["copies"] as? Int == 2)
        #expect(record["job-impressions"] as? Int == 6)
        #expect(record["job-media-sheets"] as? Int == 4)
    }

    @Test func timesAreISO8601AndClientIsRecorded() throws {
        let folder = try TemporaryFolder()
        let record = try writtenRecord(of: try sampleJob(), in: folder)
        let times = try #require(record["times"] as? [String: String])
        #expect(times["created"] == "2023-11-14T22:13:20Z")
        #expect(times["processing"] == "2023-11-14T22:13:22Z")
        #expect(times["completed"] == "2023-11-14T22:13:23Z")
        let client = try #require(record["client"] as? [String: String])
        #expect(client == ["address": "127.0.0.1", "user-agent": "CUPS/2.4.2"])
        let history = try #require(record["history"] as? [[String: Any]])
        #expect(history.map { $0["job-state"] as? String } == ["pending", "pending", "processing", "completed"])
    }

    @Test func anUnknownDetectedFormatIsNull() throws {
        var job = try sampleJob()
        job.documents[0].detectedFormat = nil
        let folder = try TemporaryFolder()
        let documents = try #require(try writtenRecord(of: job, in: folder)["documents"] as? [[String: Any]])
        #expect(documents[0]["document-format-detected"] is NSNull)
    }

    @Test func rewritingReplacesTheRecordWhole() throws {
        let folder = try TemporaryFolder()
        var job = try sampleJob()
        _ = try writtenRecord(of: job, in: folder)
        job.name = "Second"
        let record = try writtenRecord(of: job, in: folder)
        #expect(record["job-name"] as? String == "Second")
    }

    @Test func aMissingFolderIsReportedNotThrown() throws {
        let recorder = JobRecorder(outputDirectory: "/nonexistent-vprinter-output")
        let written = recorder.write(try sampleJob())
        #expect(written.failure?.contains("job.json") == true)
        #expect(written.json == nil)
    }

    /// A queued job with nothing printed yet, numbered `id`.
    func plainJob(_ id: Int) -> Job {
        Job(
            id: id, uuid: "urn:uuid:00000000-0000-5000-8000-\(String(format: "%012d", id))", printerName: "t",
            printerURI: "ipp://localhost:631/ipp/print", name: "job \(id)", user: "alice", templateAttributes: [],
            client: ClientInfo(address: "127.0.0.1", userAgent: nil), now: 1_700_000_000, printerStartTime: 0)
    }

    func jobsFolder(_ folder: TemporaryFolder) throws -> String {
        let jobs = folder.path + "/jobs"
        try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
        return jobs
    }

    static func parsedRecord(_ path: String) -> [String: Any]? {
        FileManager.default.contents(atPath: path).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            as? [String: Any]
    }

    @Test func aJobFolderIsMadeWithItsRecordWhenJobsIsMissing() throws {
        let folder = try TemporaryFolder()
        let json = try JobRecorder(outputDirectory: folder.path).create(plainJob(1)).get()
        #expect(folder.contents(of: "jobs") == ["1"])
        #expect(folder.contents(of: "jobs/1") == ["job.json"])
        #expect(FileManager.default.contents(atPath: folder.path + "/jobs/1/job.json").map(Array.init) == json)
    }

    /// A watcher lists jobs/ over and over while jobs are made: every job folder it sees already holds its
    /// job.json (a folder made in place and then given its record would be seen without one).
    @Test func aJobFolderNeverAppearsWithoutItsRecord() throws {
        let folder = try TemporaryFolder()
        let jobs = try jobsFolder(folder)
        let recorder = JobRecorder(outputDirectory: folder.path)
        let watcher = BackgroundLoop { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
            let bare = names.filter { Int($0) != nil && access("\(jobs)/\($0)/job.json", F_OK) != 0 }
            return bare.isEmpty ? nil : "jobs/\(bare) without job.json"
        }
        let count = 200
        for id in 1...count { _ = try recorder.create(plainJob(id)).get() }
        let (looks, problems) = watcher.stop()
        #expect(problems.first == nil, "and \(problems.count - 1) more")
        #expect(looks > 0)
        #expect(folder.contents(of: "jobs").count == count, "no .new- folder is left")
        #expect(folder.contents(of: "jobs").allSatisfy { Int($0) != nil })
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: DurableFilesTests.fullDevice)))
    func aFirstRecordThatCannotBeWrittenLeavesNoJobFolder() throws {
        let folder = try TemporaryFolder()
        let jobs = try jobsFolder(folder)
        // The disk fills up while the first record is written.
        try FileManager.default.createDirectory(atPath: jobs + "/.new-3", withIntermediateDirectories: false)
        #expect(symlink(DurableFilesTests.fullDevice, jobs + "/.new-3/job.json.tmp") == 0)
        let created = JobRecorder(outputDirectory: folder.path).create(plainJob(3))
        #expect(throws: DocumentError.storage(path: jobs + "/.new-3/job.json.tmp", errno: ENOSPC)) {
            try created.get()
        }
        #expect(folder.contents(of: "jobs").isEmpty, "neither jobs/3 nor jobs/.new-3")
    }

    @Test func aJobFolderWhoseNameIsTakenIsAFailureAndNothingIsReplaced() throws {
        let folder = try TemporaryFolder()
        let jobs = try jobsFolder(folder)
        try FileManager.default.createDirectory(atPath: jobs + "/3", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: jobs + "/3/document-1.pdf", contents: Data("%PDF".utf8)))
        let created = JobRecorder(outputDirectory: folder.path).create(plainJob(3))
        #expect {
            try created.get()
        } throws: { error in
            guard case DocumentError.storage(let path, _) = error else { return false }
            return path == jobs + "/3"
        }
        #expect(folder.contents(of: "jobs") == ["3"], "the folder being made is removed")
        #expect(folder.contents(of: "jobs/3") == ["document-1.pdf"])
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: DurableFilesTests.fullDevice)))
    func aRewriteThatCannotBeWrittenKeepsTheLastRecordWhole() throws {
        let folder = try TemporaryFolder()
        let recorder = JobRecorder(outputDirectory: folder.path)
        var job = plainJob(4)
        _ = try recorder.create(job).get()
        let folderOfJob = recorder.folder(of: 4)
        #expect(symlink(DurableFilesTests.fullDevice, folderOfJob + "/" + JobRecorder.temporaryRecordName) == 0)
        job.name = "renamed"
        let written = recorder.write(job)
        #expect(written.json == nil)
        #expect(written.failure?.contains("job.json") == true)
        #expect(Self.parsedRecord(folderOfJob + "/job.json")?["job-name"] as? String == "job 4")
        #expect(folder.contents(of: "jobs/4") == ["job.json"], "the temporary file is removed")
    }

    /// Pages the rewrite test adds one by one, rewriting the record each time.
    static let pagesRewritten = 100

    /// A reader parses job.json over and over while the printer rewrites it once per rendered page: every read is
    /// a whole record, and the pages it lists never go back.
    @Test func aRecordReadWhileItIsRewrittenIsAlwaysWholeAndNeverGoesBack() throws {
        let folder = try TemporaryFolder()
        let recorder = JobRecorder(outputDirectory: folder.path)
        var job = plainJob(5)
        _ = try recorder.create(job).get()
        let path = recorder.folder(of: 5) + "/job.json"
        // `last`: the number of pages the previous read listed.
        let reader = BackgroundLoop { last in
            guard let record = Self.parsedRecord(path), let impressions = record["impressions"] as? [Any] else {
                return "a read that is not a whole record"
            }
            defer { last = impressions.count }
            return impressions.count < last ? "\(impressions.count) pages read after \(last)" : nil
        }
        for number in 1...Self.pagesRewritten {
            job.impressions.append(
                PrintedSide(
                    number: number, file: String(format: "page-%04d.png", number), sheet: number, side: .front,
                    width: 1275, height: 1650, dpi: 150, color: false))
            #expect(recorder.write(job).failure == nil)
        }
        let (reads, problems) = reader.stop()
        #expect(problems.first == nil, "and \(problems.count - 1) more, in \(reads) reads")
        #expect(reads > 0)
        #expect((Self.parsedRecord(path)?["impressions"] as? [Any])?.count == Self.pagesRewritten)
    }

    @Test func syncingAJobWhoseFolderIsGoneIsAnError() throws {
        let folder = try TemporaryFolder()
        let recorder = JobRecorder(outputDirectory: folder.path)
        _ = try recorder.create(plainJob(6)).get()
        try recorder.sync(6)
        try FileManager.default.removeItem(atPath: recorder.folder(of: 6))
        #expect(throws: DocumentError.storage(path: recorder.folder(of: 6) + "/job.json", errno: ENOENT)) {
            try recorder.sync(6)
        }
    }
}
