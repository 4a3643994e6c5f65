import Foundation

/// The journal's JSON lines file: one entry per line, appended; when the file passes `rotationBytes`, it becomes
/// `NAME.1` (`NAME.1` becomes `NAME.2`, and so on; the oldest beyond `rotatedFiles` is removed) and a new file
/// starts. Used from one queue at a time. A write that fails (a full disk) loses that line only and is counted.
final class JournalFile: @unchecked Sendable {
    // @unchecked: every use is on the journal's serial write queue (Journal.writes).

    /// The smallest rotation size allowed, so that one entry always fits a file.
    static let minimumRotationBytes = 64 << 10

    let path: String
    let rotationBytes: Int
    let rotatedFiles: Int
    private var handle: FileHandle?
    private var size = 0
    /// Lines that could not be written.
    private(set) var lostLines = 0
    /// The JSON of the last line's attribute groups, reused while a client repeats its request.
    private var groupsCache = JSONLineWriter.GroupsCache()

    init(path: String, rotationBytes: Int, rotatedFiles: Int) {
        self.path = path
        self.rotationBytes = rotationBytes
        self.rotatedFiles = rotatedFiles
    }

    deinit {
        try? handle?.close()
    }

    /// Appends the entries' lines, rotating first when they would take the file past `rotationBytes`.
    func append(_ entries: [JournalEntry]) {
        var lines: [UInt8] = []
        var count = 0
        for entry in entries {
            let line = entry.jsonLine(reusing: &groupsCache)
            if size + lines.count + line.count > rotationBytes, size + lines.count > 0 {
                write(lines, count: count)
                (lines, count) = ([], 0)
                do { try rotate() } catch { try? handle?.close(); handle = nil }
            }
            lines += line
            count += 1
        }
        write(lines, count: count)
    }

    private func write(_ lines: [UInt8], count: Int) {
        guard !lines.isEmpty else { return }
        do {
            let handle = try openHandle()
            try handle.write(contentsOf: lines)
            size += lines.count
        } catch {
            lostLines += count
            try? handle?.close()
            handle = nil
        }
    }

    private func openHandle() throws -> FileHandle {
        if let handle { return handle }
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            try manager.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard manager.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        }
        let opened = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        size = Int(try opened.seekToEnd())
        handle = opened
        return opened
    }

    private func rotate() throws {
        try handle?.close()
        handle = nil
        let manager = FileManager.default
        if rotatedFiles == 0 {
            try? manager.removeItem(atPath: path)
        } else {
            try? manager.removeItem(atPath: "\(path).\(rotatedFiles)")
            for number in stride(from: rotatedFiles - 1, through: 1, by: -1)
            where manager.fileExists(atPath: "\(path).\(number)") {
                try manager.moveItem(atPath: "\(path).\(number)", toPath: "\(path).\(number + 1)")
            }
            try manager.moveItem(atPath: path, toPath: "\(path).1")
        }
        size = 0
    }
}
