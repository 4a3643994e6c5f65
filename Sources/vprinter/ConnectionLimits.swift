import Glibc
import HTTPServer

/// How many connections the process serves, and the descriptors it may open for them.
///
/// Each connection holds a descriptor, and so do job files, the journal and the render workers' pipes. At start the
/// process raises its soft descriptor limit to the hard one (as servers do; the default soft limit is often 1024),
/// and lowers the connection caps it would exceed, saying so, rather than fail to accept with `EMFILE` while every
/// slot is held.
enum ConnectionLimits {
    /// The largest cap `--max-connections` and `--max-connections-per-address` take.
    static let largestCount = 65536
    /// Descriptors kept for everything but connections: job files, the journal, listeners, workers.
    static let reservedDescriptors = 256

    /// The server limits for the options given, fitted to the descriptors the process may open; `warn` is told when
    /// a cap was lowered to fit.
    static func fitted(
        _ limits: HTTPServerLimits, maximumConnections: Int?, perAddress: Int?, warn: (String) -> Void
    ) -> HTTPServerLimits {
        var limits = limits
        if let maximumConnections { limits.maximumConnections = maximumConnections }
        if let perAddress { limits.maximumConnectionsPerAddress = perAddress }
        let room = raiseDescriptorLimit() - reservedDescriptors
        if limits.maximumConnections > room {
            warn(
                "warning: the process may open \(room + reservedDescriptors) files, so it serves \(max(1, room)) "
                    + "connections at once, not \(limits.maximumConnections) (raise the limit with ulimit -n)")
            limits.maximumConnections = max(1, room)
        }
        limits.maximumConnectionsPerAddress = min(limits.maximumConnectionsPerAddress, limits.maximumConnections)
        return limits
    }

    /// Raises the soft limit on open files to the hard limit where it is lower; returns the soft limit then in force.
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
