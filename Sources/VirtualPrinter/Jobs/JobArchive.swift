import Dispatch
import Foundation
import Synchronization

/// Reads the job records of an output folder at start-up, in parallel, so that a restart lists the jobs of
/// earlier runs.
public enum JobArchive {
    /// The records found: jobs (oldest first) and the records that could not be read.
    public struct Contents: Sendable {
        public var jobs: [Job]
        public var problems: [String]
    }

    public static func load(outputDirectory: String, printerStartTime: Double) -> Contents {
        let folder = outputDirectory + "/jobs"
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap(Int.init).sorted()
        let results = LoadResults(count: ids.count)
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let path = "\(folder)/\(ids[index])/job.json"
            guard let data = FileManager.default.contents(atPath: path) else {
                results.set(index, .failure("\(path): missing"))
                return
            }
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                var job = Job(record: object, printerStartTime: printerStartTime), job.id == ids[index]
            else {
                results.set(index, .failure("\(path): not a job record of this version"))
                return
            }
            job.recordJSON = Array(data)
            results.set(index, .success(job))
        }
        var contents = Contents(jobs: [], problems: [])
        for result in results.values {
            switch result {
            case .success(let job)?: contents.jobs.append(job)
            case .failure(let problem)?: contents.problems.append(problem)
            case nil: break
            }
        }
        return contents
    }
}

/// One slot per record, each written by exactly one iteration of `concurrentPerform` and read after it
/// returns; the lock makes the hand-over explicit.
private final class LoadResults: Sendable {
    enum Outcome: Sendable {
        case success(Job)
        case failure(String)
    }

    private let slots: Mutex<[Outcome?]>

    init(count: Int) {
        slots = Mutex([Outcome?](repeating: nil, count: count))
    }

    func set(_ index: Int, _ outcome: Outcome) {
        slots.withLock { $0[index] = outcome }
    }

    var values: [Outcome?] { slots.withLock { $0 } }
}
