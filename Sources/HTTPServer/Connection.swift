import Glibc
import Synchronization

/// One client connection, served on its own thread: requests one after the other until either side
/// closes, the connection idles too long, or the server stops.
final class Connection {
    /// Bodies up to this size are sent in the same `send` as the head.
    static let maximumInlineBodyBytes = 16 * 1024
    /// How long a closing connection keeps reading (and discarding) what the client still sends.
    static let lingerDuration: Duration = .seconds(1)
    /// Most bytes read and discarded while lingering.
    static let maximumLingerBytes = 256 * 1024
    /// Connections accepted by every server of the process: each connection's number.
    private static let accepted = Atomic<Int>(0)

    let socket: Socket
    let input: ConnectionInput
    let context: ServerContext
    private let remoteAddress: String
    private let remotePort: UInt16
    /// This connection's number in the process.
    private let number: Int
    private let isLoopback: Bool
    private let localPort: UInt16
    private var parser: HTTPRequestParser
    var date = HTTPDate()
    var output: [UInt8] = []

    private init(socket: Socket, peer: SocketAddress, localPort: UInt16, context: ServerContext) {
        self.socket = socket
        self.context = context
        self.localPort = localPort
        remoteAddress = peer.host
        remotePort = peer.port
        number = Self.accepted.wrappingAdd(1, ordering: .relaxed).newValue
        isLoopback = peer.isLoopback
        input = ConnectionInput(
            socket: socket,
            readTimeout: context.limits.slowClientTimeout,
            minimumCapacity: context.limits.maximumHeadBytes
        )
        parser = HTTPRequestParser(limits: context.limits)
        output.reserveCapacity(4096)
    }

    /// Takes an accepted descriptor: serves it on a new thread, or answers 503 and closes it when the
    /// server is at `maximumConnections`, its address at `maximumConnectionsPerAddress`, the server is
    /// stopping, or no thread can be started.
    static func admit(descriptor: Int32, peer: SocketAddress, localPort: UInt16, context: ServerContext) {
        let active = context.activeConnections.wrappingAdd(1, ordering: .relaxed).newValue
        let address = peer.clientKey
        let refusal: String
        if active > context.limits.maximumConnections || context.isStopping {
            refusal = "Too many connections\n"
        } else if !context.reserveConnection(from: address) {
            refusal = "Too many connections from your address\n"
        } else {
            do throws(HTTPServerError) {
                try ThreadLauncher.start(joinable: false) {
                    do {
                        let connection = Connection(
                            socket: Socket(descriptor: descriptor), peer: peer, localPort: localPort, context: context)
                        connection.serve()
                    }
                    context.releaseConnection(from: address)
                    context.activeConnections.wrappingSubtract(1, ordering: .relaxed)
                }
                return
            } catch {
                context.releaseConnection(from: address)
                refusal = "Too many connections\n"
            }
        }
        reject(Socket(descriptor: descriptor), reason: refusal)
        context.activeConnections.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Answers 503 on the accept thread without waiting on the client, then closes.
    private static func reject(_ socket: Socket, reason: String) {
        var date = HTTPDate()
        var bytes: [UInt8] = []
        let body = Array(reason.utf8)
        HTTPResponse.appendHead(
            status: 503, reason: nil, headers: ["Content-Type": "text/plain"], framing: .length(body.count),
            keepAlive: false, requestVersion: .http1_1, date: date.now(), to: &bytes)
        bytes += body
        if let flags = try? Syscall.run("fcntl", { fcntl(socket.descriptor, F_GETFL) }) {
            _ = try? Syscall.run("fcntl") { fcntl(socket.descriptor, F_SETFL, flags | O_NONBLOCK) }
        }
        try? socket.send(bytes)
        socket.shutdownOutput()
        var scratch = [UInt8](repeating: 0, count: 4096)
        _ = scratch.withUnsafeMutableBytes { try? socket.receive(into: $0) }
    }

    /// Serves requests until the connection ends; closing happens when the object goes away.
    private func serve() {
        try? socket.setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        try? socket.setTimeout(SO_SNDTIMEO, seconds: context.limits.slowClientTimeout)
        if let tls = context.tls {
            guard startTransport(tls) else { return }
        }
        while let (head, deadline) = readHead() {
            guard exchange(head, headDeadline: deadline) else { break }
        }
    }

    /// Reads the next request head, and the instant it had to be in by. Returns nil when the connection should
    /// end: the client closed it, idled past `idleTimeout`, the server stopped, or the head was bad (then it was
    /// answered).
    private func readHead() -> (HTTPRequestHead, deadline: ContinuousClock.Instant)? {
        parser.reset()
        var deadline: ContinuousClock.Instant?
        while true {
            do throws(HTTPServerError) {
                if !input.buffered.isEmpty {
                    if deadline == nil { deadline = .now + .seconds(context.limits.slowClientTimeout) }
                    if let (head, length) = try parser.parse(input.buffered), let deadline {
                        input.consume(length)
                        return (head, deadline)
                    }
                }
                if let deadline {
                    guard try input.fill(until: deadline) else { return nil }
                } else {
                    let idleDeadline = ContinuousClock.now + .seconds(context.limits.idleTimeout)
                    let wait = try socket.waitReadable(until: idleDeadline, unlessReadable: context.stopDescriptor)
                    guard wait == .readable else { return nil }
                    deadline = .now + .seconds(context.limits.slowClientTimeout)
                    guard try input.receiveAvailable() else { return nil }
                }
            } catch {
                fail(with: error)
                return nil
            }
        }
    }

    /// Runs one exchange: builds the request, calls the handler, settles the body, sends the response.
    /// Returns whether the connection stays open.
    private func exchange(_ head: HTTPRequestHead, headDeadline: ContinuousClock.Instant) -> Bool {
        var request: HTTPRequest
        let framing: HTTPBodyFraming
        do throws(HTTPServerError) {
            let target = try RequestTarget.parse(head.target, method: head.method)
            framing = try head.bodyFraming(maximumBodyBytes: context.limits.maximumBodyBytes)
            let authority = try head.authority(target: target)
            request = HTTPRequest(
                method: head.method, target: head.target, path: target.path, query: target.query,
                version: head.version, headers: head.headers, host: authority?.host, hostPort: authority?.port,
                remoteAddress: remoteAddress, remotePort: remotePort, connectionNumber: number, localPort: localPort,
                isLoopback: isLoopback,
                contentLength: framing == .chunked ? nil : framing.length, expectsContinue: try head.expectsContinue(),
                isEncrypted: socket.tls != nil, headDeadline: headDeadline)
        } catch {
            fail(with: error)
            return false
        }
        var refusal: HTTPResponse?
        if let tls = context.tls, socket.tls == nil {
            if wantsUpgrade(head, framing: framing) {
                guard upgrade(tls) else { return false }
                request.isEncrypted = true
                // The request itself came in the clear: credentials in it were exposed, and count for nothing.
                request.headers.remove("Authorization")
            } else if tls.requiresTLS {
                refusal = .tlsRequired("This printer accepts TLS only: use ipps://, or upgrade to TLS.\n")
            }
        }
        var body = HTTPRequestBody(
            input: input, framing: framing, expectsContinue: request.expectsContinue,
            maximumBodyBytes: context.limits.maximumBodyBytes)
        var response = refusal ?? context.handler.handle(request, body: &body)
        var keepAlive = head.wantsKeepAlive && !context.isStopping
        if let failure = body.failure {
            guard let status = failure.responseStatus else { return false }
            response = Self.errorResponse(status)
            keepAlive = false
        } else if !body.isComplete {
            let bodyWasAskedFor = !request.expectsContinue || body.continueSent
            keepAlive = keepAlive && bodyWasAskedFor && body.drain(limit: context.limits.maximumDrainBytes)
        }
        do throws(HTTPServerError) {
            keepAlive = try send(response, to: request, keepAlive: keepAlive)
        } catch {
            return false
        }
        if !keepAlive { lingeringClose() }
        return keepAlive
    }

    /// Answers a bad request with its status (when it has one) and closes.
    private func fail(with error: HTTPServerError) {
        guard let status = error.responseStatus else { return }
        let request = HTTPRequest(method: "GET", target: "/", path: "/")
        _ = try? send(Self.errorResponse(status), to: request, keepAlive: false)
        lingeringClose()
    }

    /// Sends FIN, then reads what the client still sends for a moment before the socket closes.
    private func lingeringClose() {
        socket.shutdownOutput()
        input.discardUntilClosed(limit: Self.maximumLingerBytes, deadline: .now + Self.lingerDuration)
    }

    /// A short plain-text response for a status the server answers by itself.
    static func errorResponse(_ status: Int) -> HTTPResponse {
        HTTPResponse(status: status, text: HTTPResponse.standardReason(status) + "\n")
    }
}

extension HTTPBodyFraming {
    /// The declared length, 0 for chunked.
    var length: Int {
        if case .length(let length) = self { return length }
        return 0
    }
}
