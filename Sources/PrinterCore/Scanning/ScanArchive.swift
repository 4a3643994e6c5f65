import Foundation
import Scanner
import Synchronization

/// The scan records of a `scans` folder, read from disk once per process and kept current as the scanners of the
/// process write them: where a scanner made at start or at runtime finds its earlier jobs, and where scan numbers
/// come from (one after the highest `scans/<number>` folder, so that a restarted printer never writes over an
/// earlier scan's record). Printers sharing an output folder share its archive, and a fleet of scanning printers
/// reads the folder once, not once a printer.
enum ScanArchive {
    /// What is known of one folder.
    private struct Folder {
        /// The newest ``ScannerDevice/maximumJobs`` records of each printer, newest first.
        var jobs: [String: [ScanJob]] = [:]
        /// The numbers of each printer's records found on disk beyond those, for its scanner to remove.
        var excess: [String: [Int]] = [:]
        /// The highest scan number used, on disk or since.
        var lastNumber = 0
    }

    private static let folders = Mutex<[String: Folder]>([:])

    /// The newest records of `printer`'s scan jobs in `folder`, newest first, as they were last written.
    static func records(in folder: String, printer: String) -> [ScanJob] {
        folders.withLock { folders in loaded(folder, &folders).jobs[printer] ?? [] }
    }

    /// The number of the next scan job made in `folder`.
    static func nextNumber(in folder: String) -> Int {
        folders.withLock { folders in
            var known = loaded(folder, &folders)
            known.lastNumber += 1
            folders[folder] = known
            return known.lastNumber
        }
    }

    /// Notes a record just written to `folder`, for the scanners made after it.
    static func note(_ job: ScanJob, in folder: String) {
        guard let printer = job.printer else { return }
        folders.withLock { folders in
            var known = loaded(folder, &folders)
            var jobs = known.jobs[printer] ?? []
            if let index = jobs.firstIndex(where: { $0.number == job.number }) {
                jobs[index] = job
            } else {
                jobs.insert(job, at: jobs.firstIndex { $0.number < job.number } ?? jobs.endIndex)
            }
            known.jobs[printer] = jobs
            folders[folder] = known
        }
    }

    /// Forgets records of `printer` its scanner pruned (``Retention``), their folders removed.
    static func forget(_ numbers: Set<Int>, in folder: String, printer: String) {
        guard !numbers.isEmpty else { return }
        folders.withLock { folders in
            var known = loaded(folder, &folders)
            known.jobs[printer]?.removeAll { numbers.contains($0.number) }
            folders[folder] = known
        }
    }

    /// The numbers of `printer`'s records found on disk beyond the newest ``ScannerDevice/maximumJobs``, once: the
    /// scanner made first for the printer removes them.
    static func takeExcess(in folder: String, printer: String) -> [Int] {
        folders.withLock { folders in
            var known = loaded(folder, &folders)
            defer { folders[folder] = known }
            return known.excess.removeValue(forKey: printer) ?? []
        }
    }

    /// The folder's archive, read from disk the first time: every numbered folder counts for the numbers, and
    /// each readable `scan.json` is kept under its printer, newest first, up to ``ScannerDevice/maximumJobs``
    /// (the rest noted as excess: records of an earlier run have all ended). Unreadable records are left out.
    private static func loaded(_ folder: String, _ folders: inout [String: Folder]) -> Folder {
        if let known = folders[folder] { return known }
        var known = Folder()
        let numbers = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { Int($0) }
        known.lastNumber = numbers.max() ?? 0
        for number in numbers.sorted(by: >) {
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(number)/scan.json"),
                let job = try? JSONDecoder().decode(ScanJob.self, from: data), let printer = job.printer
            else { continue }
            if known.jobs[printer, default: []].count < ScannerDevice.maximumJobs {
                known.jobs[printer, default: []].append(job)
            } else {
                known.excess[printer, default: []].append(number)
            }
        }
        folders[folder] = known
        return known
    }
}
