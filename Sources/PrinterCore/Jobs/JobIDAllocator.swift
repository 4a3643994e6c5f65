import Foundation
import PrintModel
import Synchronization

/// Hands out job ids unique across every printer of one process, continuing after the highest id already
/// recorded in the output folder, so that ids survive a restart; in a slice of a fleet served by several processes,
/// only the slice's own ids (`FleetShard`), so that they are unique across the fleet too.
public final class JobIDAllocator: Sendable {
    private let next: Mutex<Int>
    private let shard: FleetShard
    /// The first id this allocator hands out: every job of an earlier run has a smaller one.
    public let first: Int

    /// Scans `<outputDirectory>/jobs` for numbered job folders, and for folders a killed run was still making
    /// (`.new-<id>`), so that no id an earlier run handed out is handed out again.
    public init(outputDirectory: String, shard: FleetShard = .whole) {
        let jobs = (outputDirectory as NSString).appendingPathComponent("jobs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
        let highest = names.compactMap(Self.jobID(ofFolder:)).filter { $0 > 0 }.max() ?? 0
        self.shard = shard
        first = shard.firstJobID(above: highest)
        next = Mutex(first)
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
            defer { value += shard.count }
            return value
        }
    }
}
