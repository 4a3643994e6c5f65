import Foundation
import Synchronization

/// Numbers scan jobs across the printers of a process that share an output folder: one after the highest
/// `scans/<number>` folder found there when the first scan job of the process is made, so that a restarted
/// printer never writes over an earlier scan's record.
enum ScanNumbers {
    private static let last = Mutex<[String: Int]>([:])

    /// The next number for the scans folder `folder`.
    static func next(in folder: String) -> Int {
        last.withLock { last in
            let previous =
                last[folder]
                ?? ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { Int($0) }.max()
                ?? 0
            last[folder] = previous + 1
            return previous + 1
        }
    }
}
