import Dispatch
import Foundation
import PrintModel
import Synchronization

/// Reads the job records of an output folder at start-up, in parallel, so that a restart lists the jobs of
/// earlier runs, and clears away what a killed run left half-made: folders still being made (`.new-<id>`),
/// temporary files of interrupted writes, and, in the folders of jobs that had not ended, documents and page
/// images their record does not list.
public enum JobArchive {
    /// The records found: jobs (oldest first), the records that could not be read, and how many half-made
    /// files and folders were removed.
    public struct Contents: Sendable {
        public var jobs: [Job]
        public var problems: [String]
        public var leftoversRemoved = 0
    }

    /// Name endings of files written under a temporary name and renamed when whole: job.json.tmp,
    /// document-<n>.partial, page-<NNNN>.png.part.
    static let temporarySuffixes = [".tmp", ".partial", ".part"]

    /// Loads the records of jobs numbered below `firstNewID` (the first id of this run: folders at or above it
    /// belong to jobs this run is making, and are left alone).
    public static func load(outputDirectory: String, before firstNewID: Int = .max, printerStartTime: Double)
        -> Contents
    {
        let folder = outputDirectory + "/jobs"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var leftovers = 0
        for name in names {
            // A folder a killed run was making: its job was never listed or answered, so it goes.
            let staging = name.hasPrefix(JobRecorder.newFolderPrefix)
            let probe = name.hasPrefix(".write-test-") && name != ".write-test-\(getpid())"
            guard staging || probe, (JobIDAllocator.jobID(ofFolder: name) ?? 0) < firstNewID else { continue }
            if (try? FileManager.default.removeItem(atPath: "\(folder)/\(name)")) != nil { leftovers += 1 }
        }
        let ids = names.compactMap(Int.init).filter { $0 > 0 && $0 < firstNewID }.sorted()
        let results = LoadResults(count: ids.count)
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let jobFolder = "\(folder)/\(ids[index])"
            var removed = unlink("\(jobFolder)/\(JobRecorder.temporaryRecordName)") == 0 ? 1 : 0
            let path = "\(jobFolder)/job.json"
            guard let data = FileManager.default.contents(atPath: path) else {
                results.set(index, .failure("\(path): missing"), removed: removed)
                return
            }
            guard let record = try? JobRecord.decode(data), record.jobID == ids[index] else {
                results.set(index, .failure("\(path): not a job record of this version"), removed: removed)
                return
            }
            var job = Job(record: record, printerStartTime: printerStartTime)
            if let kept = JobPasswordFile.load(folder: jobFolder) {
                job.jobPassword = kept.password
                job.jobPasswordEncryption = kept.encryption
            }
            if !job.state.isTerminal { removed += tidy(jobFolder, keeping: job) }
            job.recordJSON = Array(data)
            results.set(index, .success(job), removed: removed)
        }
        var contents = Contents(jobs: [], problems: [], leftoversRemoved: leftovers + results.removed)
        for result in results.values {
            switch result {
            case .success(let job)?: contents.jobs.append(job)
            case .failure(let problem)?: contents.problems.append(problem)
            case nil: break
            }
        }
        return contents
    }

    /// Removes from the folder of a job that had not ended what its record does not list: temporary files,
    /// documents whose arrival was never recorded, page images the record does not name and their text files.
    /// Returns how many.
    static func tidy(_ folder: String, keeping job: Job) -> Int {
        let documents = Set(job.documents.map(\.file))
        let pages = Set(job.impressions.map(\.file))
        var removed = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let temporary = temporarySuffixes.contains { name.hasSuffix($0) }
            let strayDocument = name.hasPrefix("document-") && !documents.contains(name)
            let strayPage = name.hasPrefix("page-") && name.hasSuffix(".png") && !pages.contains(name)
            // A side's text (page-NNNN.txt) goes with its image.
            let strayText =
                name.hasPrefix("page-") && name.hasSuffix(".txt") && !pages.contains(name.dropLast(4) + ".png")
            if temporary || strayDocument || strayPage || strayText, unlink("\(folder)/\(name)") == 0 { removed += 1 }
        }
        return removed
    }
}

/// One slot per record, each written by exactly one iteration of `concurrentPerform` and read after it
/// returns; the lock makes the hand-over explicit.
private final class LoadResults: Sendable {
    enum Outcome: Sendable {
        case success(Job)
        case failure(String)
    }

    private let slots: Mutex<(outcomes: [Outcome?], removed: Int)>

    init(count: Int) {
        slots = Mutex(([Outcome?](repeating: nil, count: count), 0))
    }

    func set(_ index: Int, _ outcome: Outcome, removed: Int) {
        slots.withLock {
            $0.outcomes[index] = outcome
            $0.removed += removed
        }
    }

    var values: [Outcome?] { slots.withLock { $0.outcomes } }
    var removed: Int { slots.withLock { $0.removed } }
}
