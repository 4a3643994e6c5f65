import Foundation
import RequestJournal

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

    /// The request journal's file in the output folder.
    static let journalFileName = "requests.jsonl"

    /// The request journal the options ask for: nil with `--journal-size 0`; its file is OUTPUT/requests.jsonl
    /// unless `--journal-file-size 0`.
    static func journal(options: CommandLineOptions) -> Journal? {
        guard options.journalSize > 0 else { return nil }
        let file = options.journalFileSize > 0 ? options.outputDirectory + "/" + journalFileName : nil
        return Journal(
            settings: Journal.Settings(
                capacity: options.journalSize, filePath: file, rotationBytes: options.journalFileSize,
                pollInterval: options.pollInterval))
    }
}
