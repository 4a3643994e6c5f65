import Foundation

/// The output folder: created if missing, and checked to be writable before the printer starts.
enum OutputFolder {
    /// Creates `<path>/jobs` and writes a probe file; returns a one-line problem, or nil when usable.
    static func prepare(_ path: String) -> String? {
        let jobs = path + "/jobs"
        do {
            try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
            let probe = jobs + "/.write-test-\(getpid())"
            try Data().write(to: URL(fileURLWithPath: probe))
            try FileManager.default.removeItem(atPath: probe)
            return nil
        } catch {
            return
                "the output folder \(path) is not writable (\((error as NSError).localizedDescription)); choose another with --output-dir"
        }
    }
}
