import Foundation
import Synchronization

/// Hands out job ids unique across every printer of one process, continuing after the highest id already
/// recorded in the output folder, so that ids survive a restart.
public final class JobIDAllocator: Sendable {
    private let next: Mutex<Int>

    /// Scans `<outputDirectory>/jobs` for numbered job folders.
    public init(outputDirectory: String) {
        let jobs = (outputDirectory as NSString).appendingPathComponent("jobs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
        let highest = names.compactMap { Int($0) }.filter { $0 > 0 }.max() ?? 0
        next = Mutex(highest + 1)
    }

    /// The next id.
    public func allocate() -> Int {
        next.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
