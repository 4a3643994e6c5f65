import Dispatch
import Synchronization

/// Delivers printer and job events to subscribers (the event stream, waiters) without letting a subscriber that
/// never reads grow the server's memory: each subscriber holds at most `maximumQueuedEvents`; past that its queue
/// is emptied and its next read says so (nil) once, then it receives again from that moment.
public final class EventHub: Sendable {
    /// The most undelivered events one subscriber may have queued.
    public static let maximumQueuedEvents = 1024

    private struct Subscriber {
        var queue: [PrinterEvent] = []
        var overflowed = false
        let signal = DispatchSemaphore(value: 0)
    }

    private struct State {
        var sequence = 0
        var nextSubscriber = 0
        var subscribers: [Int: Subscriber] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Publishes an event, stamping its sequence number; returns the event as published.
    @discardableResult
    public func publish(_ event: PrinterEvent) -> PrinterEvent {
        state.withLock { state in
            state.sequence += 1
            var stamped = event
            stamped.sequence = state.sequence
            for key in state.subscribers.keys {
                guard var subscriber = state.subscribers[key] else { continue }
                if subscriber.queue.count >= Self.maximumQueuedEvents {
                    subscriber.overflowed = true
                    subscriber.queue.removeAll()
                } else if !subscriber.overflowed {
                    subscriber.queue.append(stamped)
                }
                state.subscribers[key] = subscriber
                subscriber.signal.signal()
            }
            return stamped
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Starts receiving events published from now on.
    public func subscribe() -> EventSubscription {
        let id = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = Subscriber()
            return state.nextSubscriber
        }
        return EventSubscription(hub: self, id: id)
    }

    /// Takes the queued events of a subscriber, waiting up to `timeout` seconds for one; nil when the subscriber
    /// fell too far behind and lost events since its last read (it receives again from now: a reader that asks
    /// again waits, as a waiter that looks at the jobs again must, instead of hearing nil at once forever), or
    /// when it was cancelled.
    func next(_ id: Int, timeout: Double) -> [PrinterEvent]? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let taken: (events: [PrinterEvent], overflowed: Bool, signal: DispatchSemaphore)? = state.withLock {
                state in
                guard var subscriber = state.subscribers[id] else { return nil }
                let taken = (subscriber.queue, subscriber.overflowed, subscriber.signal)
                subscriber.queue.removeAll()
                subscriber.overflowed = false
                state.subscribers[id] = subscriber
                return taken
            }
            guard let taken, !taken.overflowed else { return nil }
            if !taken.events.isEmpty { return taken.events }
            if taken.signal.wait(timeout: deadline) == .timedOut { return [] }
        }
    }

    func cancel(_ id: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
}

/// One subscriber's view of the hub; cancel it when done.
public struct EventSubscription: Sendable {
    let hub: EventHub
    let id: Int

    /// Waits up to `timeout` seconds for events; `[]` on timeout, nil when the subscriber fell behind.
    public func next(timeout: Double) -> [PrinterEvent]? {
        hub.next(id, timeout: timeout)
    }

    public func cancel() {
        hub.cancel(id)
    }
}
