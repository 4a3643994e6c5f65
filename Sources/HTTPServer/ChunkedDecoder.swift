/// A pure, incremental decoder of the chunked transfer coding (RFC 9112 section 7.1).
///
/// It copies chunk data from the input to the output and consumes the framing around it. Chunk extensions
/// are skipped and trailer fields discarded (section 7.1.2 lets a recipient do so). A size line or trailer
/// field that breaks the grammar, or grows past `maximumLineBytes`, is `badChunk`; data past
/// `maximumBodyBytes` is `bodyTooLarge`. A bare LF is accepted where CRLF is expected, as section 2.2 allows.
struct ChunkedDecoder: Sendable {
    /// Longest chunk extension or trailer field accepted, in bytes.
    static let maximumLineBytes = 4096
    /// Most hexadecimal digits in a chunk size (15 digits keep the size within `Int`).
    static let maximumSizeDigits = 15

    private enum State: Equatable {
        case size, sizeExtension, sizeLF
        case data(remaining: Int)
        case dataCR, dataLF
        case trailerLineStart, trailerLine, trailerLF, finalLF
        case done
    }

    private let maximumBodyBytes: Int
    private var state = State.size
    private var size = 0
    private var sizeDigits = 0
    private var lineBytes = 0
    /// Body bytes decoded so far.
    private(set) var decodedBytes = 0

    /// Creates a decoder that fails once the decoded body grows past `maximumBodyBytes`.
    init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Whether the last chunk and the trailer section have been consumed; the bytes after belong to the
    /// next request.
    var isFinished: Bool { state == .done }

    /// Decodes as much of `input` as fits into `output`; returns the bytes consumed from the input and the
    /// data bytes written to the output. Stops at the end of the body, leaving later bytes unconsumed.
    mutating func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(HTTPServerError) -> (consumed: Int, produced: Int) {
        var consumed = 0
        var produced = 0
        while consumed < input.count && state != .done {
            if case .data(let remaining) = state {
                let count = min(remaining, input.count - consumed, output.count - produced)
                if count == 0 { break }
                UnsafeMutableRawBufferPointer(rebasing: output[produced..<produced + count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: input[consumed..<consumed + count]))
                consumed += count
                produced += count
                state = remaining == count ? .dataCR : .data(remaining: remaining - count)
                continue
            }
            try step(input[consumed])
            consumed += 1
        }
        return (consumed, produced)
    }

    /// Advances the framing state machine by one byte.
    private mutating func step(_ byte: UInt8) throws(HTTPServerError) {
        switch state {
        case .size:
            if let digit = ASCII.hexValue(byte) {
                sizeDigits += 1
                guard sizeDigits <= Self.maximumSizeDigits else { throw .badChunk }
                size = size << 4 | digit
            } else if sizeDigits == 0 {
                throw .badChunk
            } else if byte == ASCII.semicolon || ASCII.isWhitespace(byte) {
                lineBytes = 1
                state = .sizeExtension
            } else if byte == ASCII.cr {
                state = .sizeLF
            } else if byte == ASCII.lf {
                try endSizeLine()
            } else {
                throw .badChunk
            }
        case .sizeExtension:
            if byte == ASCII.cr {
                state = .sizeLF
            } else if byte == ASCII.lf {
                try endSizeLine()
            } else {
                try countLineByte(byte)
            }
        case .sizeLF:
            guard byte == ASCII.lf else { throw .badChunk }
            try endSizeLine()
        case .dataCR:
            if byte == ASCII.cr {
                state = .dataLF
            } else if byte == ASCII.lf {
                state = .size
            } else {
                throw .badChunk
            }
        case .dataLF:
            guard byte == ASCII.lf else { throw .badChunk }
            state = .size
        case .trailerLineStart:
            if byte == ASCII.cr {
                state = .finalLF
            } else if byte == ASCII.lf {
                state = .done
            } else {
                lineBytes = 0
                try countLineByte(byte)
                state = .trailerLine
            }
        case .trailerLine:
            if byte == ASCII.cr {
                state = .trailerLF
            } else if byte == ASCII.lf {
                state = .trailerLineStart
            } else {
                try countLineByte(byte)
            }
        case .trailerLF:
            guard byte == ASCII.lf else { throw .badChunk }
            state = .trailerLineStart
        case .finalLF:
            guard byte == ASCII.lf else { throw .badChunk }
            state = .done
        case .data, .done:
            break
        }
    }

    /// Counts one byte of an extension or trailer line; control characters and overlong lines are bad.
    private mutating func countLineByte(_ byte: UInt8) throws(HTTPServerError) {
        lineBytes += 1
        guard lineBytes <= Self.maximumLineBytes, byte >= 0x20 || byte == ASCII.tab, byte != 0x7F else {
            throw .badChunk
        }
    }

    /// Ends a chunk-size line: a zero size starts the trailer section, any other starts the data.
    private mutating func endSizeLine() throws(HTTPServerError) {
        if size == 0 {
            state = .trailerLineStart
        } else {
            guard size <= maximumBodyBytes - decodedBytes else { throw .bodyTooLarge }
            decodedBytes += size
            state = .data(remaining: size)
        }
        size = 0
        sizeDigits = 0
        lineBytes = 0
    }
}
