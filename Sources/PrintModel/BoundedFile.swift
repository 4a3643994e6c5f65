#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a small file a name points at (a profile, a scenario) without trusting what is there: only a regular
/// file, its size checked before anything is read, and never more than the limit read. A FIFO would block the
/// reader forever, `/dev/zero` would fill its memory, a folder is no file.
public enum BoundedFile {
    /// Why a file was not read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        /// A folder, a device, a FIFO, a socket.
        case notRegular
        case tooLarge(maximum: Int)
        case unreadable(errno: Int32)

        public var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegular: "not a regular file"
            case .tooLarge(let maximum): "larger than \(maximum) bytes"
            case .unreadable(let code): "cannot be read (\(String(cString: strerror(code))))"
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `maximum` of them.
    public static func contents(of path: String, maximum: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then tells what it is.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegular }
        guard status.st_size <= maximum else { throw .tooLarge(maximum: maximum) }
        var bytes = [UInt8](repeating: 0, count: maximum + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(errno: errno) }
            if got == 0 { break }
            count += got
        }
        // The file grew after fstat: still no more than the limit.
        guard count <= maximum else { throw .tooLarge(maximum: maximum) }
        return Array(bytes[..<count])
    }
}
