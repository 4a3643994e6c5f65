import Glibc
import Synchronization

/// An HTTP/1.1 server on POSIX sockets: one accept thread per listening socket and one thread per
/// connection, with blocking I/O bounded by the timeouts of `HTTPServerLimits`.
///
/// It knows nothing of IPP: every request goes to the handler, which answers it on the connection's
/// thread. Keep-alive, pipelining, chunked bodies, `Expect: 100-continue`, HEAD and the limits are handled
/// here, and TLS when configured (`TLSConfiguration`): on the same port, from the first byte or after an
/// HTTP Upgrade, non-blocking against the slow-client limit; the handler learns whether a request came
/// encrypted and what credentials it carries (`HTTPRequest.isEncrypted`, `authorization`), never more.
public final class HTTPServer: Sendable {
    /// How long `stop` waits for connections that are in the middle of an exchange.
    public static let stopGracePeriod: Duration = .seconds(2)
    /// How often `stop` looks whether the connections ended.
    static let stopPollInterval: Duration = .milliseconds(10)

    private struct State {
        var context: ServerContext?
        var acceptThreads: [pthread_t] = []
        var port: UInt16 = 0
        var boundAddresses: [String] = []
    }

    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let state = Mutex(State())

    /// Creates a server; nothing is bound until `start`.
    public init(configuration: HTTPServerConfiguration, handler: some HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// Binds and listens on every configured address, then returns once the accept threads run.
    /// A busy port is `addressInUse`; calling it on a running server does nothing.
    ///
    /// If the process still has the default action for `SIGPIPE` (terminate), it is set to ignore:
    /// `sendfile` to a client that went away raises `SIGPIPE`, and `MSG_NOSIGNAL` only covers `send`.
    public func start() throws(HTTPServerError) {
        Self.ignoreBrokenPipeSignal()
        try state.withLock { (state) throws(HTTPServerError) in
            guard state.context == nil else { return }
            let context = try ServerContext(
                handler: handler, limits: configuration.limits, tls: configuration.tls)
            let listeners = try Listener.openAll(configuration)
            var threads: [pthread_t] = []
            for (index, listener) in listeners.enumerated() {
                do throws(HTTPServerError) {
                    threads.append(try ThreadLauncher.start(joinable: true) { listener.acceptLoop(context: context) })
                } catch {
                    context.signalStop()
                    threads.forEach(ThreadLauncher.join)
                    listeners[index...].forEach { $0.close() }
                    throw error
                }
            }
            state = State(
                context: context, acceptThreads: threads, port: listeners.first?.port ?? 0,
                boundAddresses: listeners.map(\.address))
        }
    }

    /// Sets `SIGPIPE` to be ignored unless the process chose a disposition of its own.
    package static func ignoreBrokenPipeSignal() {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        _ = sigaction(SIGPIPE, &ignore, nil)
    }

    /// The port bound, once started (the free port picked when configured with 0).
    public var port: UInt16 {
        state.withLock { $0.port }
    }

    /// The addresses bound, once started (`::` for all addresses dual-stack).
    public var boundAddresses: [String] {
        state.withLock { $0.boundAddresses }
    }

    /// The number of connections being served now.
    public var activeConnections: Int {
        state.withLock { $0.context?.activeConnections.load(ordering: .relaxed) ?? 0 }
    }

    /// Stops accepting and releases the ports, closes idle connections, and waits up to
    /// `stopGracePeriod` for the connections in the middle of an exchange; those still running afterwards
    /// end on their own after their exchange.
    public func stop() {
        let (context, threads) = state.withLock { state in
            defer { state = State() }
            return (state.context, state.acceptThreads)
        }
        guard let context else { return }
        context.signalStop()
        threads.forEach(ThreadLauncher.join)
        let deadline = ContinuousClock.now + Self.stopGracePeriod
        while context.activeConnections.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            Syscall.sleep(for: Self.stopPollInterval)
        }
    }
}
