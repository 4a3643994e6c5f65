import CZlib

/// Decompresses gzip or deflate document data as it streams in (IPP `compression`, RFC 8011 section 5.4.32).
///
/// The one owner of a zlib stream. `deflate` data is accepted both raw (RFC 1951, as CUPS sends it) and
/// zlib-wrapped (RFC 1950): the first bytes tell which.
final class Inflater {
    /// The IPP compression keywords this type decodes.
    enum Method: String, Sendable {
        case gzip
        case deflate
    }

    private var stream = z_stream()
    private let method: Method
    private var started = false
    private var finished = false
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    /// Leading deflate bytes kept until there are two, enough to tell a zlib header from raw data.
    private var held: [UInt8] = []

    init(method: Method) {
        self.method = method
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    /// True once the compressed stream's end marker was read.
    var isFinished: Bool { finished }

    /// Decompresses a chunk and hands every produced run of bytes to `sink`.
    func inflate(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws(DocumentError) -> Void)
        throws(DocumentError)
    {
        guard input.count > 0 else { return }
        if !started {
            if method == .deflate && held.count + input.count < 2 {
                held += input
                return
            }
            if !held.isEmpty {
                let joined = held + input
                held = []
                let result: Result<Void, DocumentError> = joined.withUnsafeBytes { bytes in
                    Result { () throws(DocumentError) in try inflate(bytes, into: sink) }
                }
                return try result.get()
            }
            try start(peeking: input)
        }
        guard !finished else { return }  // bytes after the end marker are ignored, as zlib's tools do
        guard let base = input.baseAddress else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while stream.avail_in > 0 && !finished {
            let produced: Int
            let status: Int32
            (produced, status) = output.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (out.count - Int(stream.avail_out), status)
            }
            if produced > 0 {
                let delivered: Result<Void, DocumentError> = output.withUnsafeBytes { all in
                    Result { () throws(DocumentError) in try sink(UnsafeRawBufferPointer(rebasing: all[0..<produced])) }
                }
                try delivered.get()
            }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                if produced == 0 && status == Z_BUF_ERROR { return }
            case Z_STREAM_END:
                finished = true
            default:
                throw .compressionError(method: method.rawValue, detail: zlibMessage(status))
            }
        }
    }

    /// Checks that the stream ended properly once all input was given.
    func finish() throws(DocumentError) {
        if (started && !finished) || !held.isEmpty {
            throw .compressionError(method: method.rawValue, detail: "data ends before the compressed stream")
        }
    }

    private func start(peeking input: UnsafeRawBufferPointer) throws(DocumentError) {
        let windowBits: Int32
        switch method {
        case .gzip:
            windowBits = 15 + 16
        case .deflate:
            // A zlib header: CM = 8 in the low nibble, and the 16-bit header a multiple of 31.
            let looksZlib =
                input.count >= 2 && input[0] & 0x0F == 8 && (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0
            windowBits = looksZlib ? 15 : -15
        }
        let status = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw .compressionError(method: method.rawValue, detail: zlibMessage(status))
        }
        started = true
    }

    private func zlibMessage(_ status: Int32) -> String {
        if let message = stream.msg { return String(cString: message) }
        return "zlib status \(status)"
    }
}
