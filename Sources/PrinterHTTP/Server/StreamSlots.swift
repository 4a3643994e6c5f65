import Synchronization

/// The long-lived responses (server-sent event streams) open at once: at most `total`, and at most `perClient`
/// from one client address, so that one client cannot take every slot and shut the others out.
final class StreamSlots: Sendable {
    let total: Int
    let perClient: Int
    private let open = Mutex<[String: Int]>([:])

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Takes a slot for a client; false when none is left for it. Each slot taken is given back with `release`.
    func take(for client: String) -> Bool {
        open.withLock { open in
            guard open.values.reduce(0, +) < total, open[client, default: 0] < perClient else { return false }
            open[client, default: 0] += 1
            return true
        }
    }

    func release(for client: String) {
        open.withLock { open in
            let left = open[client, default: 1] - 1
            open[client] = left > 0 ? left : nil
        }
    }

    /// The slots taken now.
    var taken: Int { open.withLock { $0.values.reduce(0, +) } }
}
