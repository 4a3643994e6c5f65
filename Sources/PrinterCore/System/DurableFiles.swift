#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations that an acknowledgement relies on: replacing a file atomically (write a temporary file,
/// rename it over the old one) and making files and renames survive a crash of the machine (fsync of the file,
/// then of the folder that names it). A process killed at any moment leaves the old file or the new one, never a
/// torn one; the temporary file it may leave has a known name, for the next start to remove.
enum DurableFiles {
    /// Writes `bytes` to `temporaryPath`, then renames it to `path`. Nothing is synced: `sync(file:)` and
    /// `sync(folder:)` do that where an answer to a client depends on it.
    static func replace(_ path: String, with bytes: [UInt8], through temporaryPath: String) throws(DocumentError) {
        let file = try FileOutput(creating: temporaryPath)
        do throws(DocumentError) {
            let written: Result<Void, DocumentError> = bytes.withUnsafeBytes { raw in
                Result { () throws(DocumentError) in try file.write(raw) }
            }
            try written.get()
            try file.close()
        } catch {
            unlink(temporaryPath)
            throw error
        }
        if rename(temporaryPath, path) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw .storage(path: path, errno: code)
        }
    }

    /// Flushes a file's data, found by its path, to the disk.
    static func sync(file path: String) throws(DocumentError) {
        try syncOpened(path, flags: O_RDONLY | O_CLOEXEC)
    }

    /// Flushes a folder's entries (the names of files created or renamed in it) to the disk.
    static func sync(folder path: String) throws(DocumentError) {
        try syncOpened(path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    private static func syncOpened(_ path: String, flags: Int32) throws(DocumentError) {
        let descriptor = retryingEINTR { open(path, flags) }
        if descriptor < 0 { throw .storage(path: path, errno: errno) }
        defer { _ = close(descriptor) }
        if retryingEINTR({ fsync(descriptor) }) < 0 { throw .storage(path: path, errno: errno) }
    }
}
