import PrintModel
import Synchronization

/// Hands rendered impressions to the caller in number order, although render threads finish them in any order.
final class ImpressionEmitter: Sendable {
    private struct State {
        var next: Int
        var waiting: [Int: PrintedSide] = [:]
    }

    private let state: Mutex<State>
    private let deliver: @Sendable (PrintedSide) -> Void

    /// Emits from impression `first` on, through `deliver` (called with the lock held, one at a time).
    init(first: Int, deliver: @escaping @Sendable (PrintedSide) -> Void) {
        state = Mutex(State(next: first))
        self.deliver = deliver
    }

    /// Records a finished impression and delivers every impression that is now next in order.
    func finished(_ impression: PrintedSide) {
        state.withLock { state in
            state.waiting[impression.number] = impression
            while let ready = state.waiting.removeValue(forKey: state.next) {
                deliver(ready)
                state.next += 1
            }
        }
    }
}
