import Synchronization

/// The addresses and ports every server of this process listens on, as `Listener` binds and closes them: what the
/// fetch policy (`FetchPolicy`) knows as the process's own listeners, and whether they are all on loopback.
public enum ListeningSockets {
    /// A bound address (`::`, `0.0.0.0`, `127.0.0.1`) and port.
    public struct Endpoint: Sendable, Hashable {
        public var address: String
        public var port: UInt16

        public init(address: String, port: UInt16) {
            self.address = address
            self.port = port
        }

        /// Whether the listener takes connections to every address of the machine.
        var isWildcard: Bool { address == "::" || address == "0.0.0.0" }

        /// Whether it listens on a loopback address only.
        var isLoopback: Bool { (try? SocketAddress(numeric: address, port: port))?.isLoopback ?? false }
    }

    /// Each endpoint with the number of listeners bound to it (two servers may share one port with SO_REUSEADDR
    /// only in turn, but a listener closes after the next one of the same port may have opened).
    private static let bound = Mutex<[Endpoint: Int]>([:])

    /// The endpoints bound now.
    public static var current: [Endpoint] {
        bound.withLock { Array($0.keys) }
    }

    static func add(_ endpoint: Endpoint) {
        bound.withLock { $0[endpoint, default: 0] += 1 }
    }

    static func remove(_ endpoint: Endpoint) {
        bound.withLock { counts in
            guard let count = counts[endpoint] else { return }
            counts[endpoint] = count > 1 ? count - 1 : nil
        }
    }
}
