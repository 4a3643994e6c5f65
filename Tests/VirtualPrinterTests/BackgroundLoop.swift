import Foundation
import Synchronization

/// A loop run on its own thread beside a test (a reader, a watcher, a writer) until the test stops it, collecting
/// what it found wrong.
final class BackgroundLoop: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let rounds = Atomic<Int>(0)
    private let problems = Mutex<[String]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// Starts calling `body` on a new thread, again and again. It returns a problem, or nil; `carried` is a
    /// number it keeps from one round to the next (0 at first).
    init(_ body: @escaping @Sendable (_ carried: inout Int) -> String?) {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            var carried = 0
            while !stopping.load(ordering: .relaxed) {
                if let problem = body(&carried) { problems.withLock { $0.append(problem) } }
                rounds.add(1, ordering: .relaxed)
            }
        }
    }

    /// Rounds done so far.
    var roundsDone: Int { rounds.load(ordering: .relaxed) }

    /// Whether a round has reported a problem yet.
    var hasProblems: Bool { problems.withLock { !$0.isEmpty } }

    /// Stops the loop, waits for its round to end, and returns the rounds done and the problems found.
    func stop() -> (rounds: Int, problems: [String]) {
        stopping.store(true, ordering: .relaxed)
        finished.wait()
        return (rounds.load(ordering: .relaxed), problems.withLock { $0 })
    }
}
