/// The body of a request, read as a stream (Content-Length or chunked, RFC 9112 section 6).
///
/// `Expect: 100-continue` is answered lazily, on the first read: a handler that answers from the head alone
/// (404, 405, 413...) never asks the client for the body, and the server then closes the connection instead
/// of reading it. A handler can also take the answer in hand (`sendsContinueOnRead = false`, then
/// `sendContinue()`), to read what the client sends before waiting: CUPS clients write the IPP attributes
/// right after the head and wait for `100 Continue` only before the document (RFC 8010 section 4).
/// After the first error every read throws the same error again.
public struct HTTPRequestBody: ~Copyable {
    private enum Source {
        case connection(ConnectionInput)
        case memory([UInt8])
    }

    private enum Remaining {
        case length(Int)
        case chunked(ChunkedDecoder)
    }

    private let source: Source
    private var remaining: Remaining
    private var offset = 0
    private var continuePending: Bool
    /// Whether `100 Continue` was sent.
    private(set) var continueSent = false
    /// The error a read failed with, if one did.
    private(set) var failure: HTTPServerError?
    /// Whether the whole body was read.
    public private(set) var isComplete: Bool
    /// Whether the first read sends the `100 Continue` an `Expect: 100-continue` client waits for (the
    /// default). When false, reads take only what the client sends unasked, and block for the rest until
    /// `sendContinue()` or the client's own wait for 100 ends (1 second for CUPS and curl).
    public var sendsContinueOnRead = true
    /// While set, every read must end by this instant, however steadily bytes arrive; past it a read throws
    /// `timedOut` (and the server answers 408). Nil (the default): each read may wait `slowClientTimeout`.
    public var deadline: ContinuousClock.Instant?

    /// A body held in memory, for testing handlers without a socket.
    public init(bytes: [UInt8]) {
        source = .memory(bytes)
        remaining = .length(bytes.count)
        continuePending = false
        isComplete = bytes.isEmpty
    }

    /// The body of a request arriving on a connection.
    init(input: ConnectionInput, framing: HTTPBodyFraming, expectsContinue: Bool, maximumBodyBytes: Int) {
        source = .connection(input)
        switch framing {
        case .length(let length):
            remaining = .length(length)
            isComplete = length == 0
        case .chunked:
            remaining = .chunked(ChunkedDecoder(maximumBodyBytes: maximumBodyBytes))
            isComplete = false
        }
        continuePending = expectsContinue && !isComplete
    }

    /// For a handler that reads before answering `100 Continue` (`sendsContinueOnRead = false`): waits up to
    /// `seconds` for the client to start sending, and sends `100 Continue` if nothing came. Clients that send part of
    /// the body first (CUPS: the IPP attributes) are not asked; clients that wait for the interim answer get it
    /// without waiting out their own time-out.
    public mutating func sendContinueUnlessDataArrives(within seconds: Double) throws(HTTPServerError) {
        guard continuePending, case .connection(let input) = source, input.buffered.isEmpty else { return }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, seconds) * 1000))
        let readable: Bool
        do throws(HTTPServerError) {
            readable = try input.socket.waitReadable(until: min(deadline, self.deadline ?? deadline))
        } catch {
            throw record(error)
        }
        if !readable { try sendContinue() }
    }

    /// Sends `100 Continue` now if the client asked for it and it was not sent yet; otherwise does nothing.
    public mutating func sendContinue() throws(HTTPServerError) {
        guard continuePending, case .connection(let input) = source else { return }
        continuePending = false
        do throws(HTTPServerError) {
            try input.socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        } catch {
            throw record(error)
        }
        continueSent = true
    }

    /// Reads up to `maximum` bytes; an empty array means the body ended.
    public mutating func read(maximum: Int) throws(HTTPServerError) -> [UInt8] {
        var capacity = max(0, maximum)
        if case .length(let length) = remaining { capacity = min(capacity, length) }
        var failure: HTTPServerError?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            do throws(HTTPServerError) {
                count = try read(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads the whole rest of the body; more than `maximum` bytes is `bodyTooLarge` (and the server then
    /// answers 413 whatever the handler returns).
    public mutating func readAll(maximum: Int) throws(HTTPServerError) -> [UInt8] {
        var bytes: [UInt8] = []
        if case .length(let length) = remaining {
            guard length <= maximum else { throw record(.bodyTooLarge) }
            bytes.reserveCapacity(length)
        }
        while true {
            let chunk = try read(maximum: 64 * 1024)
            if chunk.isEmpty { return bytes }
            guard bytes.count + chunk.count <= maximum else { throw record(.bodyTooLarge) }
            bytes += chunk
        }
    }

    /// Reads up to `buffer.count` bytes into `buffer` and returns how many; 0 means the body ended.
    /// A peer that closes early is `connectionClosed`, a slow one `timedOut`, bad chunking `badChunk`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPServerError) -> Int {
        if let failure { throw failure }
        if isComplete || buffer.isEmpty { return 0 }
        do throws(HTTPServerError) {
            let count = try readFromSource(into: buffer)
            isComplete = count == 0 || sourceEnded
            return count
        } catch {
            throw record(error)
        }
    }

    /// Reads and discards up to `limit` bytes; true when the body then ended.
    mutating func drain(limit: Int) -> Bool {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
        defer { scratch.deallocate() }
        var drained = 0
        while !isComplete {
            let allowance = min(scratch.count, limit - drained)
            guard allowance > 0,
                let count = try? read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<allowance]))
            else { return false }
            drained += count
        }
        return true
    }

    /// Whether the framing says the body ended, so that a handler reading exactly the body leaves nothing
    /// to drain.
    private var sourceEnded: Bool {
        switch remaining {
        case .length(let length): length == 0
        case .chunked(let decoder): decoder.isFinished
        }
    }

    /// When the next read from the connection must end: the read timeout from now, or `deadline` if sooner.
    private func readDeadline(_ input: ConnectionInput) -> ContinuousClock.Instant {
        let timeout = ContinuousClock.now + .seconds(input.readTimeout)
        guard let deadline else { return timeout }
        return min(deadline, timeout)
    }

    /// Remembers the first error so that later reads repeat it.
    private mutating func record(_ error: HTTPServerError) -> HTTPServerError {
        if failure == nil { failure = error }
        return failure ?? error
    }

    /// Reads from the memory or the connection, per the framing; 0 only at the end of the body.
    private mutating func readFromSource(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPServerError) -> Int {
        switch source {
        case .memory(let bytes):
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count]))
            }
            offset += count
            remaining = .length(bytes.count - offset)
            return count
        case .connection(let input):
            if sendsContinueOnRead { try sendContinue() }
            switch remaining {
            case .length(let length):
                if length == 0 { return 0 }
                let count = try input.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(length)), until: readDeadline(input))
                guard count > 0 else { throw .connectionClosed }
                remaining = .length(length - count)
                return count
            case .chunked(var decoder):
                defer { remaining = .chunked(decoder) }
                while true {
                    let (consumed, produced) = try decoder.decode(input.buffered, into: buffer)
                    input.consume(consumed)
                    if produced > 0 || decoder.isFinished { return produced }
                    guard try input.fill(until: readDeadline(input)) else { throw .connectionClosed }
                }
            }
        }
    }
}
