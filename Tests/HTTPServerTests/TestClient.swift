import COpenSSL
import Glibc

@testable import HTTPServer

/// A deliberately simple blocking HTTP client on a raw socket, so that tests control every byte sent.
final class TestClient {
    /// Seconds a read (or a send into a full socket buffer) waits before the test fails instead of hanging.
    static let readTimeout = 10

    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The TLS session once `startTLS` ran (an OpenSSL `SSL`); reads and sends then go through it.
    private var tls: OpaquePointer?

    /// Connects to `host` (numeric IPv4 or IPv6) on `port`, from the address `source` when given (another
    /// loopback address, 127.0.0.2, to be another client).
    init(port: UInt16, host: String = "127.0.0.1", source: String? = nil) throws {
        let address = try SocketAddress(numeric: host, port: port)
        // Close-on-exec: a child another test starts meanwhile must not keep this connection open.
        descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            let local = try SocketAddress(numeric: source, port: 0)
            guard local.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else {
                throw TestFailure("bind to \(source) failed: errno \(errno)")
            }
        }
        let result = address.withSockaddr { connect(descriptor, $0, $1) }
        if result != 0 { throw TestFailure("connect failed: errno \(errno)") }
    }

    deinit {
        if let tls { SSL_free(tls) }
        close(descriptor)
    }

    /// Runs a TLS client handshake on the connection (from the first byte, or after a 101), accepting any
    /// certificate; `maximumVersion` caps the protocol (TLS1_2_VERSION to allow renegotiation).
    func startTLS(maximumVersion: Int32 = 0) throws {
        guard let ssl = SSL_new(TLSTestSupport.clientContext) else { throw TestFailure("SSL_new failed") }
        tls = ssl
        if maximumVersion != 0 { _ = vp_ssl_set_max_proto_version(ssl, maximumVersion) }
        SSL_set_fd(ssl, descriptor)
        guard SSL_connect(ssl) == 1 else { throw TestFailure("TLS handshake failed: \(TLSContext.lastError())") }
    }

    /// The negotiated TLS version (`TLSv1.3`), nil before `startTLS`.
    var tlsVersion: String? {
        tls.map { String(cString: SSL_get_version($0)) }
    }

    /// Asks the server for a renegotiation (TLS 1.2) and returns whether OpenSSL sent the request.
    func requestRenegotiation() -> Bool {
        guard let tls else { return false }
        return SSL_renegotiate(tls) == 1 && SSL_do_handshake(tls) <= 1
    }

    /// Sends text as UTF-8.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends bytes.
    func send(_ bytes: [UInt8]) throws {
        if let tls {
            let written = bytes.withUnsafeBytes { SSL_write(tls, $0.baseAddress, Int32($0.count)) }
            if written != bytes.count { throw TestFailure("TLS write failed: \(TLSContext.lastError())") }
            return
        }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { throw TestFailure("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; false at end of stream or reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        if let tls {
            let count = chunk.withUnsafeMutableBytes { SSL_read(tls, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { return false }
            buffer += chunk[0..<Int(count)]
            return true
        }
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TestFailure("read timed out") }
        if count <= 0 { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// Reads exactly `count` bytes.
    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw TestFailure("closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Reads one line without its CRLF.
    private func line() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: 0x0A) {
                let line = buffer[0..<index].filter { $0 != 0x0D }
                buffer.removeFirst(index + 1)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw TestFailure("closed in the middle of a line") }
        }
    }

    /// Whether the server closed the connection (end of stream or reset) with nothing more to read.
    func isClosed() throws -> Bool {
        if !buffer.isEmpty { return false }
        return try !fill()
    }

    /// Reads everything until the server closes.
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Reads one response (a 1xx too); nil when the server closed before sending anything.
    func readResponse(toHead: Bool = false) throws -> TestResponse? {
        if buffer.isEmpty, try !fill() { return nil }
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw TestFailure("bad status line \(statusLine)")
        }
        var headers = HTTPHeaders()
        while true {
            let field = try line()
            if field.isEmpty { break }
            guard let colon = field.firstIndex(of: ":") else { throw TestFailure("bad field \(field)") }
            headers.add(String(field[..<colon]), String(field[field.index(after: colon)...].drop { $0 == " " }))
        }
        var body: [UInt8] = []
        if toHead || status < 200 || status == 204 || status == 304 {
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            body = try take(length)
        } else if headers["Transfer-Encoding"] == "chunked" {
            while true {
                guard let size = Int(try line(), radix: 16) else { throw TestFailure("bad chunk size") }
                if size == 0 {
                    while try !line().isEmpty {}
                    break
                }
                body += try take(size)
                _ = try line()
            }
        } else {
            body = try readUntilClosed()
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Reads a response that must be there.
    func response(toHead: Bool = false) throws -> TestResponse {
        guard let response = try readResponse(toHead: toHead) else { throw TestFailure("closed without response") }
        return response
    }
}

/// A response as the test client read it.
struct TestResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A failure of the test scaffolding itself.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
