/// A document fetched by its URL, as a printer fetches the document of Print-URI and Send-URI (RFC 8011
/// sections 4.2.2, 4.3.2): `http://`, `https://` or `ftp://` (anonymous, passive: `DocumentDownload+FTP`), streamed
/// into a sink as it arrives (never held whole), within a size, a time and a redirect limit. `https://` is not
/// checked against a certificate authority: the servers a test printer fetches from are test servers.
public enum DocumentDownload {
    /// The schemes fetched (reference-uri-schemes-supported); `file:` and every other scheme are refused.
    public static let schemes = ["ftp", "http", "https"]
    /// The longest response head read, in bytes.
    static let maximumHeadBytes = 16 * 1024
    /// The bytes read from the socket at a time.
    static let readSize = 64 * 1024

    /// How far a download may go.
    public struct Limits: Sendable, Equatable {
        /// The largest document, in bytes.
        public var maximumBytes: Int
        /// Seconds the whole download may take, redirects included.
        public var timeout: Double
        /// Redirects followed (3xx with Location) before giving up.
        public var maximumRedirects: Int

        public init(maximumBytes: Int, timeout: Double, maximumRedirects: Int) {
            self.maximumBytes = maximumBytes
            self.timeout = timeout
            self.maximumRedirects = maximumRedirects
        }
    }

    /// What was fetched.
    public struct Outcome: Sendable, Equatable {
        /// The URL the document came from, after redirects.
        public var url: String
        /// The Content-Type the server gave, if any.
        public var contentType: String?
        /// The document's size in bytes.
        public var bytes: Int
    }

    /// Why a download failed.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The URL's scheme is not http or https.
        case unsupportedScheme(String)
        /// The URL cannot be read (no host, a bad port, a relative redirect that cannot be resolved).
        case badURL(String)
        /// The host could not be reached: name, connection or TLS.
        case unreachable(String)
        /// The server answered with this status (neither 2xx nor a redirect with Location).
        case status(Int)
        /// An FTP server refused a step (its reply).
        case ftpReply(String)
        /// More than `Limits.maximumRedirects` redirects.
        case tooManyRedirects(Int)
        /// The document is larger than `Limits.maximumBytes`.
        case tooLarge(limit: Int)
        /// `Limits.timeout` passed.
        case timedOut(seconds: Double)
        /// The response broke off or breaks HTTP/1.1.
        case broken(String)
        /// The sink refused more bytes (its own write failed; it knows why).
        case refusedBySink
        /// The fetch policy refuses the destination (`FetchPolicy`); nothing was sent to it.
        case refused(FetchRefusal)

        public var description: String {
            switch self {
            case .unsupportedScheme(let url): "\(url): only ftp, http and https URIs are fetched"
            case .badURL(let url): "\(url) is not a URL that can be fetched"
            case .unreachable(let reason): "cannot reach the server: \(reason)"
            case .status(let status): "the server answered HTTP \(status)"
            case .ftpReply(let reply): "the FTP server answered \(reply)"
            case .tooManyRedirects(let count): "more than \(count) redirects"
            case .tooLarge(let limit): "the document is larger than the limit of \(limit) bytes"
            case .timedOut(let seconds): "the download took longer than \(Int(seconds)) s"
            case .broken(let reason): "the response broke off: \(reason)"
            case .refusedBySink: "the document could not be stored"
            case .refused(let refusal): "\(refusal)"
            }
        }
    }

    /// True for an http or https URL (the scheme compared without case).
    public static func isFetchable(_ url: String) -> Bool {
        scheme(of: url).map(schemes.contains) ?? false
    }

    /// The lowercased scheme of a URL, nil when it has none.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), colon > url.startIndex else { return nil }
        return url[..<colon].lowercased()
    }

    /// Fetches `url`, following redirects, from the destinations `policy` allows only, and hands the document's
    /// bytes to `sink` as they arrive; `sink` returns false to stop (`refusedBySink`).
    public static func fetch(
        _ url: String, limits: Limits, policy: FetchPolicy, into sink: (UnsafeRawBufferPointer) -> Bool
    ) -> Result<Outcome, Failure> {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, limits.timeout) * 1000))
        var current = url
        for _ in 0...limits.maximumRedirects {
            switch fetchOnce(current, limits: limits, policy: policy, deadline: deadline, into: sink) {
            case .success(.redirect(let location)):
                guard let next = resolve(location, against: current) else { return .failure(.badURL(location)) }
                guard isFetchable(next) else { return .failure(.unsupportedScheme(next)) }
                current = next
            case .success(.document(let contentType, let bytes)):
                return .success(Outcome(url: current, contentType: contentType, bytes: bytes))
            case .failure(let failure):
                return .failure(failure)
            }
        }
        return .failure(.tooManyRedirects(limits.maximumRedirects))
    }

    /// What one exchange ended with.
    enum Step {
        case redirect(String)
        case document(contentType: String?, bytes: Int)
    }

    /// One GET: a redirect, or the document streamed into `sink`.
    static func fetchOnce(
        _ url: String, limits: Limits, policy: FetchPolicy, deadline: ContinuousClock.Instant,
        into sink: (UnsafeRawBufferPointer) -> Bool
    ) -> Result<Step, Failure> {
        guard isFetchable(url) else { return .failure(.unsupportedScheme(url)) }
        // What goes into the request line and the Host field: visible ASCII only (RFC 9112 section 3.2), so no
        // URL (a client's, or a server's Location) can end the line and start another request.
        guard url.utf8.allSatisfy(isRequestTargetByte) else { return .failure(.badURL(url)) }
        if scheme(of: url) == "ftp" {
            return fetchFTP(url, limits: limits, policy: policy, deadline: deadline, into: sink).map {
                .document(contentType: nil, bytes: $0)
            }
        }
        let secure = scheme(of: url) == "https"
        let plain = "http://" + url.drop { $0 != ":" }.dropFirst("://".count)
        guard let (host, port, path) = HTTPClient.split(secure ? plain.replacingPort(default: 443) : plain) else {
            return .failure(.badURL(url))
        }
        let socket: Socket
        do throws(HTTPServerError) {
            socket = try HTTPClient.open(host: host, port: port, secure: secure, deadline: deadline, policy: policy)
            let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            let head =
                "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: vprinter\r\nAccept: */*\r\n"
                + "Connection: close\r\n\r\n"
            try socket.send(Array(head.utf8))
        } catch .timedOut {
            return .failure(.timedOut(seconds: limits.timeout))
        } catch .destinationRefused(let refusal) {
            return .failure(.refused(refusal))
        } catch {
            return .failure(.unreachable("\(host):\(port): \(error)"))
        }
        var reader = BodyReader(socket: socket, deadline: deadline, timeout: limits.timeout)
        let response: ResponseHead
        switch reader.readHead() {
        case .success(let head): response = head
        case .failure(let failure): return .failure(failure)
        }
        if (300..<400).contains(response.status), let location = response.location {
            return .success(.redirect(location))
        }
        guard (200..<300).contains(response.status) else { return .failure(.status(response.status)) }
        return reader.streamBody(of: response, limit: limits.maximumBytes, into: sink).map {
            .document(contentType: response.contentType, bytes: $0)
        }
    }

    /// Whether a byte may stand in a request target: visible ASCII, no space, no control character.
    static func isRequestTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    /// `location` made absolute against `base`: an absolute URL as it is, an absolute path on the base's origin.
    static func resolve(_ location: String, against base: String) -> String? {
        if scheme(of: location) != nil, location.contains("://") { return location }
        let separator = Array("://".utf8)
        let bytes = Array(base.utf8)
        guard location.hasPrefix("/"), !location.hasPrefix("//"), let schemeEnd = bytes.firstRange(of: separator)
        else { return nil }
        let authorityEnd = bytes[schemeEnd.upperBound...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        return String(decoding: bytes[..<authorityEnd], as: UTF8.self) + location
    }

    /// The status line and the header fields a download needs.
    struct ResponseHead {
        var status: Int
        var contentLength: Int?
        var chunked = false
        var location: String?
        var contentType: String?
    }

    /// Reads a response from a socket: its head, then its body framed by Content-Length, chunked coding or the
    /// close.
    struct BodyReader {
        let socket: Socket
        let deadline: ContinuousClock.Instant
        let timeout: Double
        /// Bytes read past the head.
        var pending: [UInt8] = []

        init(socket: Socket, deadline: ContinuousClock.Instant, timeout: Double) {
            self.socket = socket
            self.deadline = deadline
            self.timeout = timeout
        }

        /// Reads at most `readSize` bytes into `buffer`; 0 at the end of the stream.
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> {
            do throws(HTTPServerError) {
                guard try socket.waitReadable(until: deadline) else { return .failure(.timedOut(seconds: timeout)) }
                return .success(try socket.receive(into: buffer))
            } catch .connectionClosed {
                return .success(0)
            } catch {
                return .failure(.broken("\(error)"))
            }
        }

        mutating func readHead() -> Result<ResponseHead, Failure> {
            var received: [UInt8] = []
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: DocumentDownload.readSize, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                if let end = received.firstRange(of: [13, 10, 13, 10]) {
                    pending = Array(received[end.upperBound...])
                    return ResponseHead.parse(received[..<end.lowerBound])
                }
                guard received.count <= DocumentDownload.maximumHeadBytes else {
                    return .failure(.broken("a response head over \(DocumentDownload.maximumHeadBytes) bytes"))
                }
                switch read(into: buffer) {
                case .success(0): return .failure(.broken("the connection closed before the response head ended"))
                case .success(let count): received += UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                case .failure(let failure): return .failure(failure)
                }
            }
        }

        /// Streams the body into `sink`; the bytes delivered.
        mutating func streamBody(
            of head: ResponseHead, limit: Int, into sink: (UnsafeRawBufferPointer) -> Bool
        ) -> Result<Int, Failure> {
            if let length = head.contentLength, length > limit { return .failure(.tooLarge(limit: limit)) }
            var decoder = head.chunked ? ChunkedDecoder(maximumBodyBytes: limit) : nil
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: DocumentDownload.readSize, alignment: 16)
            let decoded = UnsafeMutableRawBufferPointer.allocate(byteCount: DocumentDownload.readSize, alignment: 16)
            defer {
                buffer.deallocate()
                decoded.deallocate()
            }
            var delivered = 0
            // The bytes read with the head first, then each read straight from the buffer.
            let early = pending
            pending = []
            if !early.isEmpty {
                let outcome: Result<Void, Failure> = early.withUnsafeBytes { deliver(upToLength($0)) }
                if case .failure(let failure) = outcome { return .failure(failure) }
            }
            while true {
                if let length = head.contentLength, delivered >= length { return .success(delivered) }
                if let decoder, decoder.isFinished { return .success(delivered) }
                switch read(into: buffer) {
                case .failure(let failure):
                    return .failure(failure)
                case .success(0):
                    if head.contentLength != nil || decoder != nil {
                        return .failure(.broken("the connection closed after \(delivered) bytes of the document"))
                    }
                    return .success(delivered)
                case .success(let count):
                    let outcome = deliver(upToLength(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
                    if case .failure(let failure) = outcome { return .failure(failure) }
                }
            }

            /// `bytes` without what lies past Content-Length.
            func upToLength(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
                guard let length = head.contentLength else { return bytes }
                return UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, length - delivered)])
            }

            /// Hands `bytes` to the sink, through the chunked decoder when there is one, counting against `limit`.
            func deliver(_ bytes: UnsafeRawBufferPointer) -> Result<Void, Failure> {
                guard var chunks = decoder else {
                    delivered += bytes.count
                    guard delivered <= limit else { return .failure(.tooLarge(limit: limit)) }
                    return sink(bytes) ? .success(()) : .failure(.refusedBySink)
                }
                var offset = 0
                defer { decoder = chunks }
                while offset < bytes.count && !chunks.isFinished {
                    let step: (consumed: Int, produced: Int)
                    do throws(HTTPServerError) {
                        step = try chunks.decode(UnsafeRawBufferPointer(rebasing: bytes[offset...]), into: decoded)
                    } catch .bodyTooLarge {
                        return .failure(.tooLarge(limit: limit))
                    } catch {
                        return .failure(.broken("bad chunked coding"))
                    }
                    offset += step.consumed
                    delivered += step.produced
                    if step.produced > 0, !sink(UnsafeRawBufferPointer(rebasing: decoded[0..<step.produced])) {
                        return .failure(.refusedBySink)
                    }
                }
                return .success(())
            }
        }
    }
}

extension DocumentDownload.ResponseHead {
    /// Reads the status line and header fields (without the blank line).
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<Self, DocumentDownload.Failure> {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
        let status = lines.first?.split(separator: " ") ?? []
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]) else {
            return .failure(.broken("a bad status line"))
        }
        var head = Self(status: code)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else { return .failure(.broken("a bad Content-Length")) }
                head.contentLength = length
            case "transfer-encoding":
                head.chunked = value.lowercased().hasSuffix("chunked")
            case "location": head.location = String(value)
            case "content-type": head.contentType = String(value)
            default: break
            }
        }
        if head.chunked { head.contentLength = nil }  // RFC 9112 section 6.3: chunked framing wins
        return .success(head)
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension String {
    /// An `http://host/path` URL with `:port` added when it names none (https's 443, ftp's 21).
    func replacingPort(default port: UInt16) -> String {
        let rest = dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let hasPort = authority.hasPrefix("[") ? authority.contains("]:") : authority.contains(":")
        return hasPort ? self : "http://\(authority):\(port)" + rest.dropFirst(authority.count)
    }
}
