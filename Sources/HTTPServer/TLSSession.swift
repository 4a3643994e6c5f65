import COpenSSL
import Glibc

/// One TLS connection (an OpenSSL `SSL`) over a connected socket, owned by the thread that serves it.
///
/// The socket is non-blocking from the handshake on: every read, write and handshake step that OpenSSL
/// cannot finish waits with `poll` against a deadline, so a client that stalls in the handshake or in a
/// record costs its own connection only, and at most the slow-client time.
final class TLSSession {
    /// The owned `SSL`.
    private let ssl: OpaquePointer
    private let descriptor: Int32
    /// How long one read or write may wait for the peer, in seconds.
    private let timeout: Double
    /// Set after a fatal error: OpenSSL must then not be asked to send close_notify.
    private var failed = false
    private var closed = false

    /// Creates a session for an accepted socket and makes the socket non-blocking.
    convenience init(context: TLSContext, descriptor: Int32, timeout: Double) throws(HTTPServerError) {
        try self.init(sslContext: context.context, descriptor: descriptor, timeout: timeout)
    }

    /// Creates a session of an `SSL_CTX` (server or client) for a connected socket, made non-blocking.
    init(sslContext: OpaquePointer, descriptor: Int32, timeout: Double) throws(HTTPServerError) {
        ERR_clear_error()
        guard let ssl = SSL_new(sslContext) else {
            throw .tls(reason: "cannot create a TLS session: \(TLSContext.lastError())")
        }
        self.ssl = ssl
        self.descriptor = descriptor
        self.timeout = timeout
        guard SSL_set_fd(ssl, descriptor) == 1 else {
            failed = true
            throw .tls(reason: "cannot attach the socket: \(TLSContext.lastError())")
        }
        let flags = try Syscall.run("fcntl") { fcntl(descriptor, F_GETFL) }
        _ = try Syscall.run("fcntl") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    deinit {
        SSL_free(ssl)
    }

    /// The negotiated protocol, `TLSv1.3`.
    var version: String {
        String(cString: SSL_get_version(ssl))
    }

    /// Whether OpenSSL holds received bytes not yet returned by `read` (a wait on the socket would miss them).
    var hasPendingInput: Bool {
        SSL_has_pending(ssl) == 1
    }

    /// Runs the server side of the handshake (the client side for a session of `TLSClientContext`) until it
    /// completes, `deadline` passes (`timedOut`), the peer fails it (`tls`, `connectionClosed`) or
    /// `interruptDescriptor` becomes readable (`stopped`).
    func handshake(until deadline: ContinuousClock.Instant, unlessReadable interruptDescriptor: Int32)
        throws(HTTPServerError)
    {
        while true {
            ERR_clear_error()
            let result = SSL_is_server(ssl) == 1 ? SSL_accept(ssl) : SSL_connect(ssl)
            if result == 1 { return }
            try waitToRetry(result, until: deadline, interrupt: interruptDescriptor)
        }
    }

    /// Reads decrypted bytes into `buffer`; 0 means the peer closed (close_notify or end of stream).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPServerError) -> Int {
        guard buffer.count > 0 else { return 0 }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while true {
            ERR_clear_error()
            var count = 0
            let result = SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count)
            if result == 1 { return count }
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_ZERO_RETURN:
                return 0
            case SSL_ERROR_SYSCALL where errno == 0 || errno == ECONNRESET || errno == EPIPE:
                failed = true
                return 0
            default:
                try waitToRetry(result, until: deadline, interrupt: -1)
            }
        }
    }

    /// Encrypts and sends every byte; a peer that reads nothing for the timeout is `timedOut`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(HTTPServerError) {
        var offset = 0
        var deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while offset < bytes.count {
            ERR_clear_error()
            var written = 0
            let result = SSL_write_ex(ssl, bytes.baseAddress! + offset, bytes.count - offset, &written)
            if result == 1 {
                offset += written
                deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
                continue
            }
            try waitToRetry(result, until: deadline, interrupt: -1)
        }
    }

    /// Sends close_notify once (unless the session failed); what the peer answers is read by the caller.
    func close() {
        guard !failed, !closed else { return }
        closed = true
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    /// After a call that did not succeed: waits for the socket when OpenSSL wants to read or write, else
    /// throws what went wrong.
    private func waitToRetry(_ result: Int32, until deadline: ContinuousClock.Instant, interrupt: Int32)
        throws(HTTPServerError)
    {
        let code = SSL_get_error(ssl, result)
        let events: Int16
        switch code {
        case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
        case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
        case SSL_ERROR_ZERO_RETURN:
            throw .connectionClosed
        case SSL_ERROR_SYSCALL:
            failed = true
            let number = errno
            if number == EINTR { return }
            if number == 0 || number == ECONNRESET || number == EPIPE || number == ETIMEDOUT {
                throw .connectionClosed
            }
            throw .system(call: "TLS", errno: number)
        default:
            failed = true
            throw .tls(reason: TLSContext.lastError())
        }
        var descriptors = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let milliseconds = Socket.milliseconds(until: deadline)
            let count = try Syscall.run("poll") { poll(&descriptors, interrupt >= 0 ? 2 : 1, milliseconds) }
            if interrupt >= 0 && descriptors[1].revents != 0 { throw .stopped }
            if count > 0 { return }
            if milliseconds == 0 { throw .timedOut }
        }
    }
}
