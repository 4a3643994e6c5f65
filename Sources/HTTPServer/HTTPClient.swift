import Glibc

/// A minimal blocking HTTP/1.1 client for the command line (`vprinter wait`, `vprinter clone`): one GET or POST
/// per connection, `Connection: close`, bodies framed by Content-Length or by the close. `https://` URLs go over
/// TLS without a check of the certificate (the printers it talks to are test printers with self-signed ones), and
/// `user:password@` in a URL is sent as HTTP Basic credentials.
public enum HTTPClient {
    /// The largest response body accepted.
    public static let maximumResponseBytes = 64 << 20

    /// A response: status code and body.
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// GETs `url` (`http://host:port/path?query`, or https) with `headers` (`Name: value` lines), waiting at most
    /// `timeout` seconds for the whole exchange.
    /// With a `policy`, only to an address it allows (`FetchPolicy`).
    public static func get(
        _ url: String, headers: [String] = [], timeout: Double, maximumBytes: Int = maximumResponseBytes,
        policy: FetchPolicy? = nil
    ) throws(HTTPServerError) -> Response {
        try exchange(
            url, method: "GET", headers: headers, body: [], timeout: timeout, maximumBytes: maximumBytes,
            policy: policy)
    }

    /// GETs `url` as `get` does, but hands the body to `sink` as it arrives (never held whole; `sink` returns false
    /// to stop) once the head says `status` 200; returns the status and Content-Type. An answer other than 200 is
    /// returned without its body.
    public static func stream(
        _ url: String, headers: [String] = [], timeout: Double, policy: FetchPolicy? = nil,
        into sink: (UnsafeRawBufferPointer) -> Bool
    ) throws(HTTPServerError) -> (status: Int, contentType: String?) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        let socket = try send(url, method: "GET", headers: headers, body: [], deadline: deadline, policy: policy)
        var reader = DocumentDownload.BodyReader(socket: socket, deadline: deadline, timeout: timeout)
        let head: DocumentDownload.ResponseHead
        switch reader.readHead() {
        case .success(let read): head = read
        case .failure(.timedOut): throw .timedOut
        case .failure(let failure): throw .malformedRequest(reason: "\(failure)")
        }
        guard head.status == 200 else { return (head.status, head.contentType) }
        switch reader.streamBody(of: head, limit: Int.max, into: sink) {
        case .success: return (head.status, head.contentType)
        case .failure(.timedOut): throw .timedOut
        case .failure: throw .connectionClosed
        }
    }

    /// POSTs `body` as `contentType` to `url` (an IPP request to `http://host:port/ipp/print`, or https, with
    /// `user:password@` as Basic credentials), waiting at most `timeout` seconds for the whole exchange. The body is
    /// sent with Content-Length.
    public static func post(_ url: String, contentType: String, body: [UInt8], timeout: Double) throws(HTTPServerError)
        -> Response
    {
        try exchange(
            url, method: "POST", headers: ["Content-Type: \(contentType)", "Content-Length: \(body.count)"], body: body,
            timeout: timeout)
    }

    private static func exchange(
        _ url: String, method: String, headers: [String], body: [UInt8], timeout: Double,
        maximumBytes: Int = maximumResponseBytes, policy: FetchPolicy? = nil
    ) throws(HTTPServerError) -> Response {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        let socket = try send(url, method: method, headers: headers, body: body, deadline: deadline, policy: policy)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard try socket.waitReadable(until: deadline) else { throw .timedOut }
            let read: Result<Int, HTTPServerError> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(HTTPServerError) in try socket.receive(into: raw) }
            }
            let count = try read.get()
            if count == 0 { break }
            received += buffer[0..<count]
            guard received.count <= maximumBytes else { throw .bodyTooLarge }
            // A server may keep the connection open despite `Connection: close` (CUPS does): stop at the end of
            // a body framed by Content-Length or chunked coding.
            if isComplete(received) { break }
        }
        return try parse(received)
    }

    /// Connects to `url`'s server and sends the request; the socket to read the answer from.
    private static func send(
        _ url: String, method: String, headers: [String], body: [UInt8], deadline: ContinuousClock.Instant,
        policy: FetchPolicy? = nil
    ) throws(HTTPServerError) -> Socket {
        var secure = false
        var target = url
        if url.hasPrefix("https://") {
            secure = true
            target = "http://" + url.dropFirst("https://".count)
        }
        let credentials = userInfo(of: target)
        if let credentials { target = "http://" + target.dropFirst("http://".count + credentials.count + 1) }
        guard let (host, port, path) = split(target), target.utf8.allSatisfy(DocumentDownload.isRequestTargetByte)
        else {
            throw .malformedRequest(reason: "not an http URL: \(url)")
        }
        let socket = try open(host: host, port: port, secure: secure, deadline: deadline, policy: policy)
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(hostHeader)", "Connection: close"]
        if let credentials { lines.append("Authorization: Basic \(Base64.encode(percentDecoded(credentials)))") }
        let head = (lines + headers).joined(separator: "\r\n") + "\r\n\r\n"
        try socket.send(Array(head.utf8) + body)
        return socket
    }

    /// The `user:password` of an `http://user:password@host/` URL, as written (percent-encoded), or nil.
    static func userInfo(of url: String) -> String? {
        guard url.hasPrefix("http://") else { return nil }
        let authority = url.dropFirst("http://".count).prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return String(authority[..<at])
    }

    /// The bytes of percent-encoded text (RFC 3986 section 2.1); a `%` without two hex digits stays as it is.
    static func percentDecoded(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            {
                output.append(UInt8(high * 16 + low))
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    static func split(_ url: String) -> (host: String, port: UInt16, path: String)? {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash == rest.endIndex ? "/" : String(rest[slash...])
        var host = String(authority)
        var port: UInt16 = 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { guard let p = UInt16(after.dropFirst()) else { return nil }; port = p }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let p = UInt16(authority[authority.index(after: colon)...]) else { return nil }
            port = p
        }
        return host.isEmpty ? nil : (host, port, path)
    }

    /// A connection to `host:port`, with TLS when `secure` (no certificate check), whose connect and sends give
    /// up at `deadline`; with a `policy`, only to an address it allows (`FetchPolicy`).
    static func open(
        host: String, port: UInt16, secure: Bool, deadline: ContinuousClock.Instant, policy: FetchPolicy? = nil
    ) throws(HTTPServerError) -> Socket {
        let socket = try connect(host: host, port: port, deadline: deadline, policy: policy)
        let seconds = max(1, Double(ContinuousClock.now.duration(to: deadline).components.seconds))
        try socket.setTimeout(SO_SNDTIMEO, seconds: seconds)
        if secure {
            guard let client = TLSClientContext.shared else { throw .tls(reason: "no TLS client context") }
            let session = try TLSSession(sslContext: client.context, descriptor: socket.descriptor, timeout: seconds)
            try session.handshake(until: deadline, unlessReadable: -1)
            socket.tls = session
        }
        return socket
    }

    /// A TCP connection to the first address of `host` that accepts one before `deadline`, skipping (with a
    /// `policy`) those it refuses; when it refuses every one, the refusal of the first.
    static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, policy: FetchPolicy? = nil
    ) throws(HTTPServerError) -> Socket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .invalidAddress(host)
        }
        defer { freeaddrinfo(list) }
        var lastError = HTTPServerError.connectionClosed
        var refusal: FetchRefusal?
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            if let policy, let resolved = current.pointee.ai_addr {
                let address = SocketAddress(copying: resolved, length: current.pointee.ai_addrlen)
                if let refused = policy.check(host: host, address: address) {
                    refusal = refusal ?? refused
                    continue
                }
            }
            let descriptor = socket(
                current.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if descriptor < 0 { continue }
            let socket = Socket(descriptor: descriptor)
            do throws(HTTPServerError) {
                try connect(
                    descriptor, to: current.pointee.ai_addr, length: current.pointee.ai_addrlen, deadline: deadline)
                return socket
            } catch .timedOut {
                throw .timedOut
            } catch {
                lastError = error
            }
        }
        if let refusal, case .connectionClosed = lastError { throw .destinationRefused(refusal) }
        throw lastError
    }

    /// Connects `descriptor` without blocking past `deadline` (a blackholed address would otherwise hold the
    /// caller for the kernel's SYN retries, about two minutes): `timedOut` when it passes.
    private static func connect(
        _ descriptor: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t, deadline: ContinuousClock.Instant
    ) throws(HTTPServerError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system(call: "fcntl", errno: errno)
        }
        if Glibc.connect(descriptor, address, length) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { throw .system(call: "connect", errno: errno) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            while true {
                let timeout = Socket.milliseconds(until: deadline)
                guard timeout > 0 else { throw .timedOut }
                let ready = poll(&poller, 1, timeout)
                if ready > 0 { break }
                if ready < 0 && errno != EINTR { throw .system(call: "poll", errno: errno) }
            }
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else {
                throw .system(call: "getsockopt", errno: errno)
            }
            guard failure == 0 else { throw .system(call: "connect", errno: failure) }
        }
        guard fcntl(descriptor, F_SETFL, flags) == 0 else { throw .system(call: "fcntl", errno: errno) }
    }

    static func parse(_ bytes: [UInt8]) throws(HTTPServerError) -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard
            let headEnd = bytes.indices.first(where: { i in
                i + 4 <= bytes.count && Array(bytes[i..<(i + 4)]) == separator
            })
        else { throw .malformedRequest(reason: "response without a complete head") }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .malformedRequest(reason: "bad status line")
        }
        var body = Array(bytes[(headEnd + 4)...])
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let value = pair[1].trimmingCharacters(in: " \t").lowercased()
            if pair[0].lowercased() == "content-length", let length = Int(value), length <= body.count {
                body = Array(body.prefix(length))
            } else if pair[0].lowercased() == "transfer-encoding", value.hasSuffix("chunked") {
                body = try dechunk(body)
            }
        }
        return Response(status: status, body: body)
    }
}

extension HTTPClient {
    /// True when `bytes` hold a whole response whose body has a Content-Length or chunked framing.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return false }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
        let body = bytes.count - headEnd - 4
        for line in head.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let value = pair[1].trimmingCharacters(in: " \t")
            if pair[0] == "content-length", let length = Int(value) { return body >= length }
            if pair[0] == "transfer-encoding", value.hasSuffix("chunked") {
                var decoder = ChunkedDecoder(maximumBodyBytes: maximumResponseBytes)
                var output = [UInt8](repeating: 0, count: max(1, body))
                let tail = Array(bytes[(headEnd + 4)...])
                _ = tail.withUnsafeBytes { input in
                    output.withUnsafeMutableBytes { out in try? decoder.decode(input, into: out) }
                }
                return decoder.isFinished
            }
        }
        return false
    }

    /// The data of a chunked body (RFC 9112 section 7.1).
    static func dechunk(_ body: [UInt8]) throws(HTTPServerError) -> [UInt8] {
        var decoder = ChunkedDecoder(maximumBodyBytes: maximumResponseBytes)
        var output = [UInt8](repeating: 0, count: body.count)
        let produced: Result<Int, HTTPServerError> = body.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                Result { () throws(HTTPServerError) in try decoder.decode(input, into: out).produced }
            }
        }
        return Array(output.prefix(try produced.get()))
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
