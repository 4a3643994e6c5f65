/// The writer a `.stream` response body gets: it sends content as the handler produces it.
///
/// Writes collect in a buffer; `flush` sends them as one chunk (RFC 9112 section 7.1), or as plain bytes to
/// an HTTP/1.0 client, whose body then ends when the connection closes. A client that went away makes
/// `write` or `flush` throw `connectionClosed`, which ends the stream.
public final class HTTPResponseStream {
    /// Buffered bytes beyond this many are flushed by `write` on its own.
    static let flushThreshold = 32 * 1024

    private let socket: Socket
    private let chunked: Bool
    private let context: ServerContext
    private var pending: [UInt8] = []

    init(socket: Socket, chunked: Bool, context: ServerContext) {
        self.socket = socket
        self.chunked = chunked
        self.context = context
    }

    /// Whether the server is stopping; a long stream (server-sent events) should end soon when it is.
    public var isServerStopping: Bool {
        context.isStopping
    }

    /// Appends bytes to the stream.
    public func write(_ bytes: [UInt8]) throws(HTTPServerError) {
        pending += bytes
        if pending.count >= Self.flushThreshold { try flush() }
    }

    /// Appends UTF-8 text to the stream.
    public func write(_ text: String) throws(HTTPServerError) {
        try write(Array(text.utf8))
    }

    /// Sends everything written so far.
    public func flush() throws(HTTPServerError) {
        guard !pending.isEmpty else { return }
        var output: [UInt8] = []
        if chunked {
            output.reserveCapacity(pending.count + 20)
            HTTPResponse.appendChunkSize(pending.count, to: &output)
            output += pending
            output += Array("\r\n".utf8)
        } else {
            output = pending
        }
        pending.removeAll(keepingCapacity: true)
        try socket.send(output)
    }

    /// Flushes and ends the body: the zero-size last chunk when chunked.
    func finish() throws(HTTPServerError) {
        try flush()
        if chunked { try socket.send(Array("0\r\n\r\n".utf8)) }
    }
}
