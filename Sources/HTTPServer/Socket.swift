import Glibc

/// A connected TCP socket, owned by the one thread that serves it; the descriptor closes on deinit.
///
/// Reads wait with `poll` against a deadline; sends block, bounded by `SO_SNDTIMEO`, and use
/// `MSG_NOSIGNAL` so a vanished peer is an error, never a `SIGPIPE`. Once `tls` is set (after a handshake),
/// every read and send goes through it instead.
final class Socket {
    /// The file descriptor.
    let descriptor: Int32
    /// The TLS session the connection speaks from its handshake on; nil for plain HTTP.
    var tls: TLSSession?

    /// Takes ownership of a connected descriptor.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        Syscall.close(descriptor)
    }

    /// What a wait for the next request ended with.
    enum WaitResult {
        /// Bytes (or the end of the stream) can be read.
        case readable
        /// The deadline passed first.
        case timedOut
        /// The other descriptor watched (the server's stop signal) became readable first.
        case interrupted
    }

    /// Waits until the socket is readable, the deadline passes, or `interruptDescriptor` is readable.
    func waitReadable(
        until deadline: ContinuousClock.Instant,
        unlessReadable interruptDescriptor: Int32
    ) throws(HTTPServerError) -> WaitResult {
        if let tls, tls.hasPendingInput { return .readable }
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let timeout = Self.milliseconds(until: deadline)
            let count = try Syscall.run("poll") { poll(&descriptors, 2, timeout) }
            if descriptors[1].revents != 0 { return .interrupted }
            if count > 0 { return .readable }
            if timeout == 0 { return .timedOut }
        }
    }

    /// POLLRDHUP: the peer closed its side (Linux's <poll.h>, defined only under _GNU_SOURCE, so Glibc's
    /// Swift module lacks it).
    static let peerHangUp: Int16 = 0x2000

    /// Waits without reading until the peer closes or resets the connection, the deadline passes,
    /// `interruptDescriptor` is readable, or `ended` returns true (asked every
    /// `HTTPServerLimits.silenceCheckInterval`). Bytes that arrive are left unread: the wait is for the peer's
    /// hang-up alone (POLLRDHUP), so that unread input costs no CPU.
    func waitForClose(
        until deadline: ContinuousClock.Instant, unlessReadable interruptDescriptor: Int32,
        orWhen ended: (@Sendable () -> Bool)?
    ) {
        var descriptors = [
            pollfd(fd: descriptor, events: Self.peerHangUp, revents: 0),
            pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let check = Int32(clamping: HTTPServerLimits.silenceCheckInterval.components.seconds * 1000)
        while true {
            let timeout = min(Self.milliseconds(until: deadline), check)
            guard let count = try? Syscall.run("poll", { poll(&descriptors, 2, timeout) }) else { return }
            if count > 0 { return }  // hung up, reset, or the server stops
            if timeout == 0 || ended?() == true { return }
        }
    }

    /// Waits until the socket is readable; false when the deadline passed first.
    func waitReadable(until deadline: ContinuousClock.Instant) throws(HTTPServerError) -> Bool {
        if let tls, tls.hasPendingInput { return true }
        var descriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let timeout = Self.milliseconds(until: deadline)
            if try Syscall.run("poll", { poll(&descriptor, 1, timeout) }) > 0 { return true }
            if timeout == 0 { return false }
        }
    }

    /// Reads what is available into `buffer`; 0 means the peer closed its side. A reset is
    /// `connectionClosed`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPServerError) -> Int {
        if let tls { return try tls.read(into: buffer) }
        do throws(HTTPServerError) {
            return try Syscall.run("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
        } catch  where error.hasErrno(ECONNRESET, ETIMEDOUT) {
            throw .connectionClosed
        }
    }

    /// Sends every byte; a peer that stops reading for longer than the send timeout is `timedOut`, one that
    /// went away is `connectionClosed`.
    func send(_ bytes: UnsafeRawBufferPointer) throws(HTTPServerError) {
        if let tls { return try tls.write(bytes) }
        var offset = 0
        while offset < bytes.count {
            do throws(HTTPServerError) {
                offset += try Syscall.run("send") {
                    Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
            } catch {
                throw Self.sendError(error)
            }
        }
    }

    /// Sends every byte of an array.
    func send(_ bytes: [UInt8]) throws(HTTPServerError) {
        try bytes.withBytes { (raw) throws(HTTPServerError) in try send(raw) }
    }

    /// Sends `count` bytes of an open file from its start, without copying them through user space.
    func sendFile(_ file: Int32, count: Int) throws(HTTPServerError) {
        if let tls { return try Self.sendFile(file, count: count, through: tls) }
        var offset = off_t(0)
        while offset < count {
            let sent: Int
            do throws(HTTPServerError) {
                sent = try Syscall.run("sendfile") { sendfile(descriptor, file, &offset, count - Int(offset)) }
            } catch {
                throw Self.sendError(error)
            }
            if sent == 0 { throw .connectionClosed }
        }
    }

    /// Sets an integer socket option.
    func setOption(level: Int32, name: Int32, value: Int32) throws(HTTPServerError) {
        var value = value
        _ = try Syscall.run("setsockopt") {
            setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Bounds how long one blocking `send` (`SO_SNDTIMEO`) or `recv` (`SO_RCVTIMEO`) may wait.
    func setTimeout(_ option: Int32, seconds: Double) throws(HTTPServerError) {
        let whole = seconds.rounded(.down)
        var value = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
        _ = try Syscall.run("setsockopt") {
            setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Ends the sending side (a FIN) while still reading: the first half of a lingering close.
    func shutdownOutput() {
        tls?.close()
        _ = try? Syscall.run("shutdown") { shutdown(descriptor, Int32(SHUT_WR)) }
    }

    /// The bytes of a file read in this size to be encrypted (sendfile cannot encrypt).
    static let tlsFileChunkBytes = 64 * 1024

    /// Sends `count` bytes of a file from its start through a TLS session, one chunk at a time.
    private static func sendFile(_ file: Int32, count: Int, through tls: TLSSession) throws(HTTPServerError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: tlsFileChunkBytes, alignment: 16)
        defer { chunk.deallocate() }
        var offset = 0
        while offset < count {
            let read = try Syscall.run("pread") {
                pread(file, chunk.baseAddress, min(chunk.count, count - offset), off_t(offset))
            }
            if read == 0 { throw .connectionClosed }
            try tls.write(UnsafeRawBufferPointer(rebasing: chunk[0..<read]))
            offset += read
        }
    }

    /// Maps errno of a send to the module's meaning of it.
    private static func sendError(_ error: HTTPServerError) -> HTTPServerError {
        if error.hasErrno(EAGAIN, EWOULDBLOCK) { return .timedOut }
        if error.hasErrno(EPIPE, ECONNRESET, ENOTCONN, ETIMEDOUT) { return .connectionClosed }
        return error
    }

    /// Milliseconds from now to the deadline for `poll`, rounded up, 0 once it passed.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
