#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened for writing, written with `write(2)` and retried on EINTR and short writes.
///
/// The one owner of the descriptor: closed by `close()` or in deinit.
final class FileOutput {
    let path: String
    private var descriptor: Int32

    /// Creates (or truncates) the file with mode 0644.
    init(creating path: String) throws(DocumentError) {
        self.path = path
        descriptor = retryingEINTR { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        if descriptor < 0 { throw .storage(path: path, errno: errno) }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Writes every byte, or throws.
    func write(_ bytes: UnsafeRawBufferPointer) throws(DocumentError) {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let written = retryingEINTR { Glibc.write(descriptor, base + offset, bytes.count - offset) }
            if written < 0 { throw .storage(path: path, errno: errno) }
            offset += written
        }
    }

    /// Flushes the file's data to the disk (fsync), so that it survives a crash of the machine, not only of the
    /// process.
    func sync() throws(DocumentError) {
        guard descriptor >= 0 else { return }
        if retryingEINTR({ fsync(descriptor) }) < 0 { throw .storage(path: path, errno: errno) }
    }

    /// Closes the file, reporting a deferred write error.
    func close() throws(DocumentError) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result < 0 && errno != EINTR { throw .storage(path: path, errno: errno) }
    }
}

/// Calls a syscall until it does not fail with EINTR.
func retryingEINTR<T: FixedWidthInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
