import Glibc
import Synchronization

/// What every thread of one server shares: the handler, the limits, the connection count and the stop
/// signal. Connection threads keep it alive, so the stop pipe is closed only after the last one ended.
final class ServerContext: Sendable {
    /// The application's handler.
    let handler: any HTTPHandler
    /// The limits of every connection.
    let limits: HTTPServerLimits
    /// TLS on the port, when configured.
    let tls: TLSConfiguration?
    /// The reading end of the stop pipe; it becomes readable, for good, when the server stops.
    let stopDescriptor: Int32
    private let stopWriteDescriptor: Int32
    /// Connections being served (admitted and not yet closed).
    let activeConnections = Atomic<Int>(0)
    /// Connections being served per client address; an address with none has no entry.
    private let connectionsByAddress = Mutex<[ClientAddressKey: Int]>([:])
    private let stopping = Atomic<Bool>(false)

    /// Creates the context and its stop pipe.
    init(handler: any HTTPHandler, limits: HTTPServerLimits, tls: TLSConfiguration? = nil) throws(HTTPServerError) {
        var descriptors: [Int32] = [-1, -1]
        _ = try Syscall.run("pipe") { pipe(&descriptors) }
        for descriptor in descriptors {
            _ = try? Syscall.run("fcntl") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
        self.handler = handler
        self.limits = limits
        self.tls = tls
        stopDescriptor = descriptors[0]
        stopWriteDescriptor = descriptors[1]
    }

    deinit {
        Syscall.close(stopDescriptor)
        Syscall.close(stopWriteDescriptor)
    }

    /// Counts one more connection from `address`, unless it already has `maximumConnectionsPerAddress`; false
    /// then. Each true must be followed by one `releaseConnection(from:)`.
    func reserveConnection(from address: ClientAddressKey) -> Bool {
        connectionsByAddress.withLock { counts in
            let count = counts[address, default: 0]
            guard count < limits.maximumConnectionsPerAddress else { return false }
            counts[address] = count + 1
            return true
        }
    }

    /// Counts one connection from `address` less.
    func releaseConnection(from address: ClientAddressKey) {
        connectionsByAddress.withLock { counts in
            guard let count = counts[address] else { return }
            counts[address] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether `signalStop` was called.
    var isStopping: Bool {
        stopping.load(ordering: .acquiring)
    }

    /// Marks the server as stopping and wakes every thread waiting on the stop pipe. The byte written is
    /// never read, so the pipe stays readable for every later wait too.
    func signalStop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = try? Syscall.run("write") { write(stopWriteDescriptor, &byte, 1) }
    }
}
