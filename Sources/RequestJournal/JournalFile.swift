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
    /// Whether the rotated files an earlier run left were given `permissions`.
    private var restrictedRotatedFiles = false

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

    /// The file's mode: the journal holds what clients sent, for its owner alone (rotated files keep it).
    static let permissions: mode_t = 0o600

    /// Opens the file for appending, creating it with `permissions` (never readable by others in between), and
    /// setting them on a file an earlier run left with others.
    private func openHandle() throws -> FileHandle {
        if let handle { return handle }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, Self.permissions)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        guard fchmod(descriptor, Self.permissions) == 0 else {
            close(descriptor)
            throw CocoaError(.fileWriteNoPermission)
        }
        let opened = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        if !restrictedRotatedFiles {
            // Files an earlier run rotated, with the mode it gave them.
            for number in stride(from: 1, through: rotatedFiles, by: 1) {
                _ = chmod("\(path).\(number)", Self.permissions)
            }
            restrictedRotatedFiles = true
        }
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
