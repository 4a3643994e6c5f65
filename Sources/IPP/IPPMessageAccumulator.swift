/// Collects the bytes of a message as they arrive and decodes it once its attributes are complete.
///
/// The bytes held never exceed `limits.maximumMessageBytes` plus one chunk: past that the message is refused
/// with `IPPDecodingError.messageTooLarge`.
public struct IPPMessageAccumulator: Sendable {
    private let decoder: IPPDecoder
    private var buffer: [UInt8] = []
    /// Where the last attempt stopped, so that the next one resumes instead of decoding the buffer again.
    private var checkpoint: IPPDecoder.Checkpoint?

    public init(limits: IPPLimits = .default) {
        decoder = IPPDecoder(limits: limits)
    }

    /// The number of bytes held so far.
    public var count: Int { buffer.count }

    /// Adds a chunk; returns the message and the bytes after end-of-attributes once the attributes are complete,
    /// or nil when more bytes are needed.
    public mutating func append(_ chunk: some Collection<UInt8>) throws(IPPDecodingError)
        -> (message: IPPMessage, remainder: ArraySlice<UInt8>)?
    {
        buffer.append(contentsOf: chunk)
        switch try decoder.decode(buffer, resumingFrom: checkpoint) {
        case .complete(let message, let dataOffset):
            return (message, buffer[dataOffset...])
        case .incomplete(let next):
            checkpoint = next
            if buffer.count > decoder.limits.maximumMessageBytes {
                throw .messageTooLarge(limit: decoder.limits.maximumMessageBytes)
            }
            return nil
        }
    }

    /// Called at the end of the input: throws the truncation error if the message is incomplete.
    public func finish() throws(IPPDecodingError) -> (message: IPPMessage, remainder: ArraySlice<UInt8>) {
        let (message, dataOffset) = try decoder.decode(buffer)
        return (message, buffer[dataOffset...])
    }
}
