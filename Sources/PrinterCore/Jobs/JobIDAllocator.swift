import Foundation
import PrintModel
import Synchronization

/// Hands out job ids unique across every printer of one process, continuing after the highest id already
/// recorded in the output folder, so that ids survive a restart.
public final class JobIDAllocator: Sendable {
    private let next: Mutex<Int>
    /// The first id this allocator hands out: every job of an earlier run has a smaller one.
    public let first: Int

    /// Scans `<outputDirectory>/jobs` for numbered job folders, and for folders a killed run was still making
    /// (`.new-<id>`), so that no id an earlier run handed out is handed out again.
    public init(outputDirectory: String) {
        let jobs = (outputDirectory as NSString).appendingPathComponent("jobs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
        let highest = names.compactMap(Self.jobID(ofFolder:)).filter { $0 > 0 }.max() ?? 0
        first = highest + 1
        next = Mutex(highest + 1)
    }

    /// The job id a folder name of `jobs/` stands for: `<id>`, or `.new-<id>` while it is being made.
    static func jobID(ofFolder name: String) -> Int? {
        if let id = Int(name) { return id }
        guard name.hasPrefix(JobRecorder.newFolderPrefix) else { return nil }
        return Int(name.dropFirst(JobRecorder.newFolderPrefix.count))
    }

    /// The next id.
    public func allocate() -> Int {
        next.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
