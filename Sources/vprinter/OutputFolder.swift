import Foundation
import RequestJournal

/// The output folder: created if missing, and checked to be writable before the printer starts.
enum OutputFolder {
    /// Creates `<path>/jobs` and writes a probe file; returns a one-line problem, or nil when usable. A private
    /// folder (credentials are asked for: other users of the machine must not read what was printed) is made
    /// readable by this user only, and so is everything the process and its workers create from then on.
    static func prepare(_ path: String, isPrivate: Bool) -> String? {
        let jobs = path + "/jobs"
        if isPrivate { umask(privateUmask) }
        do {
            try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
            if isPrivate && chmod(path, privateFolderMode) != 0 {
                return "the output folder \(path) cannot be made private (\(String(cString: strerror(errno))))"
            }
            let probe = jobs + "/.write-test-\(getpid())"
            try Data().write(to: URL(fileURLWithPath: probe))
            try FileManager.default.removeItem(atPath: probe)
            return nil
        } catch {
            return
                "the output folder \(path) is not writable (\((error as NSError).localizedDescription)); choose another with --output-dir"
        }
    }

    /// The file mode creation mask of a private output folder: folders 0700, files 0600.
    static let privateUmask: mode_t = 0o077
    /// The output folder's own mode when private.
    static let privateFolderMode: mode_t = 0o700

    /// The request journal's file in the output folder.
    static let journalFileName = "requests.jsonl"

    /// The request journal the options ask for: nil with `--journal-size 0`; its file is OUTPUT/requests.jsonl
    /// unless `--journal-file-size 0`.
    static func journal(options: CommandLineOptions) -> Journal? {
        guard options.journalSize > 0 else { return nil }
        let file = options.journalFileSize > 0 ? options.outputDirectory + "/" + journalFileName : nil
        return Journal(
            settings: Journal.Settings(
                capacity: options.journalSize, byteLimit: options.journalBytes, filePath: file,
                rotationBytes: options.journalFileSize,
                pollInterval: options.pollInterval))
    }
}
