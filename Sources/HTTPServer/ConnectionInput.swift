/// The receiving side of a connection: the socket and one read buffer, reused for every request.
///
/// Bytes read past the end of one request (pipelining) stay buffered for the next. Request bodies are
/// copied out of the buffer, or received straight into the caller's memory when it is large and the
/// buffer is empty.
final class ConnectionInput {
    /// Size of the read buffer of every connection.
    static let bufferSize = 64 * 1024

    /// The connection's socket.
    let socket: Socket
    /// How long one read of the head or the body may wait, in seconds.
    let readTimeout: Double
    private let storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    /// Wraps a socket; the buffer holds at least `minimumCapacity` bytes (the head limit) so a head that
    /// fits the limit always fits the buffer.
    init(socket: Socket, readTimeout: Double, minimumCapacity: Int) {
        self.socket = socket
        self.readTimeout = readTimeout
        storage = .allocate(byteCount: max(Self.bufferSize, minimumCapacity + 1), alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes received and not consumed yet.
    var buffered: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[start..<end])
    }

    /// Marks `count` buffered bytes as consumed.
    func consume(_ count: Int) {
        start += count
        if start == end {
            start = 0
            end = 0
        }
    }

    /// Receives more bytes after the buffered ones, waiting until `deadline` (nil: the caller knows bytes
    /// are waiting); false when the peer closed. A deadline that passes is `timedOut`.
    func fill(until deadline: ContinuousClock.Instant?) throws(HTTPServerError) -> Bool {
        if end == storage.count {
            guard start > 0 else { throw .headTooLarge }
            UnsafeMutableRawBufferPointer(rebasing: storage[0..<end - start])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<end]))
            end -= start
            start = 0
        }
        if let deadline {
            guard try socket.waitReadable(until: deadline) else { throw .timedOut }
        }
        let count = try socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
        end += count
        return count > 0
    }

    /// Copies up to `destination.count` body bytes, from the buffer first, else from the socket (straight
    /// into `destination` when it holds half a buffer or more), waiting for them until `deadline`. Returns 0
    /// only when the peer closed.
    func read(
        into destination: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant
    ) throws(HTTPServerError) -> Int {
        if start == end && destination.count >= Self.bufferSize / 2 {
            guard try socket.waitReadable(until: deadline) else { throw .timedOut }
            return try socket.receive(into: destination)
        }
        if start == end {
            guard try fill(until: deadline) else { return 0 }
        }
        let count = min(destination.count, end - start)
        UnsafeMutableRawBufferPointer(rebasing: destination[0..<count])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<start + count]))
        consume(count)
        return count
    }
}

extension ConnectionInput {
    /// Receives what is available now, after a wait said there is something; false when the peer closed.
    func receiveAvailable() throws(HTTPServerError) -> Bool {
        try fill(until: nil)
    }

    /// Reads and throws away input until the peer closes, `limit` bytes were read, or `deadline` passes:
    /// the second half of a lingering close, so that unread request bytes do not turn the close into a
    /// reset that could destroy the response before the client read it.
    func discardUntilClosed(limit: Int, deadline: ContinuousClock.Instant) {
        var discarded = 0
        while discarded <= limit {
            discarded += buffered.count
            consume(buffered.count)
            guard (try? fill(until: deadline)) == true else { return }
        }
    }
}
