import Glibc

/// A source of bytes read front to back, such as a file or a buffer in memory.
public protocol ByteInput: AnyObject {
    /// Reads at most `buffer.count` bytes into `buffer`; returns how many were read, 0 at the end of the data.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RasterError) -> Int
}

/// Bytes held in memory (tests, fuzzing, small documents).
public final class MemoryInput: ByteInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Reads `bytes` from the first to the last.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(RasterError) -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }
}

/// A file read with plain `read(2)` calls; owns the descriptor and closes it in `deinit`.
public final class FileInput: ByteInput {
    private let descriptor: Int32
    private let path: String

    /// Opens `path` for reading.
    public init(path: String) throws(RasterError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(RasterError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw .io(path: path, operation: "read", errno: errno) }
        }
    }
}
