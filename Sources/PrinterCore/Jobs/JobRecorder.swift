import Foundation
import PrintModel
import Synchronization

/// Writes each job's record, `<output>/jobs/<id>/job.json` (DESIGN.md "Job record"), atomically: the record is
/// written to `job.json.tmp` in the same folder and renamed over the old one, so a reader never sees a torn
/// record, even if the process is killed. A job's folder appears with its first record in it: it is made as
/// `jobs/.new-<id>` and renamed to `jobs/<id>` once the record is there. Nothing is synced to the disk until
/// `sync(_:)`, which the printer calls before it answers a request whose acknowledgement depends on the record
/// (docs/job-record.md "After a crash").
package struct JobRecorder: Sendable {
    let outputDirectory: String
    /// Jobs whose folder was made but whose name in `jobs/` has not been synced yet.
    private let unsyncedFolders = UnsyncedFolders()

    init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }

    /// The name a record is written under before it is renamed to job.json.
    static let temporaryRecordName = "job.json.tmp"
    /// The prefix of a job folder that is being made (`.new-<id>`), before its first record is in it.
    static let newFolderPrefix = ".new-"

    /// The folder of a job.
    package func folder(of jobID: Int) -> String {
        "\(outputDirectory)/jobs/\(jobID)"
    }

    /// The encoded record of a job (PrintModel's JobRecord, the one writer of job.json).
    static func encode(_ job: Job) throws -> [UInt8] {
        try JobRecord(job).encoded()
    }

    /// Makes the job's folder with its first record in it, and returns the record's bytes; the folder never
    /// exists without a record.
    func create(_ job: Job) -> Result<[UInt8], DocumentError> {
        let jobs = "\(outputDirectory)/jobs"
        let staging = "\(jobs)/\(Self.newFolderPrefix)\(job.id)"
        let json: [UInt8]
        do {
            json = try Self.encode(job)
        } catch {
            return .failure(.storage(path: staging, errno: EINVAL))
        }
        do throws(DocumentError) {
            var made = mkdir(staging, 0o755) == 0 || errno == EEXIST
            if !made && errno == ENOENT {
                // jobs/ is missing (removed meanwhile, or never made by an embedding caller): make it.
                try? FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
                made = mkdir(staging, 0o755) == 0
            }
            if !made { throw .storage(path: staging, errno: errno) }
            try DurableFiles.replace(
                "\(staging)/job.json", with: json, through: "\(staging)/\(Self.temporaryRecordName)")
            if let password = job.jobPassword {
                try JobPasswordFile.save(password, encryption: job.jobPasswordEncryption ?? "none", folder: staging)
            }
            if rename(staging, folder(of: job.id)) != 0 { throw .storage(path: folder(of: job.id), errno: errno) }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            return .failure(error)
        }
        unsyncedFolders.insert(job.id)
        return .success(json)
    }

    /// Rewrites the record and returns its bytes (kept by the printer to answer the API without encoding again);
    /// a failure is returned for the caller to log, never thrown into the job.
    func write(_ job: Job) -> (json: [UInt8]?, failure: String?) {
        let folder = folder(of: job.id)
        do {
            let json = try Self.encode(job)
            try DurableFiles.replace(
                "\(folder)/job.json", with: json, through: "\(folder)/\(Self.temporaryRecordName)")
            return (json, nil)
        } catch {
            return (nil, "cannot write \(folder)/job.json: \(error)")
        }
    }

    /// Makes the job's record and files durable: fsync of job.json, of the job's folder (the names of the
    /// documents and of the record) and, the first time, of `jobs/` (the folder's own name). Documents are
    /// synced by their writer before they are renamed.
    func sync(_ jobID: Int) throws(DocumentError) {
        let folder = folder(of: jobID)
        try DurableFiles.sync(file: "\(folder)/job.json")
        try DurableFiles.sync(folder: folder)
        if unsyncedFolders.contains(jobID) {
            try DurableFiles.sync(folder: "\(outputDirectory)/jobs")
            unsyncedFolders.remove(jobID)
        }
    }

    /// The record of a job as JSON bytes: the ones last written, or encoded now.
    package static func json(of job: Job) -> [UInt8] {
        if let cached = job.recordJSON { return cached }
        return (try? encode(job)) ?? Array("{}".utf8)
    }
}

/// The ids of jobs whose folder name is not yet durable; one instance shared by the copies of a recorder.
private final class UnsyncedFolders: Sendable {
    private let ids = Mutex<Set<Int>>([])

    func insert(_ id: Int) { _ = ids.withLock { $0.insert(id) } }
    func remove(_ id: Int) { _ = ids.withLock { $0.remove(id) } }
    func contains(_ id: Int) -> Bool { ids.withLock { $0.contains(id) } }
}
