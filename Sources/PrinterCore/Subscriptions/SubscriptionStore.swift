import Dispatch
import Synchronization

/// The subscriptions of one printer and the events kept for them (RFC 3995, RFC 3996 ippget).
///
/// Operations run on connection threads and events arrive from whichever thread changed a job, often while
/// that thread holds the printer's lock: so the store has its own lock and never calls back into the printer.
/// Expired subscriptions and events are dropped whenever the store is read or written.
final class SubscriptionStore: Sendable {
    private struct State {
        var nextID = 1
        var subscriptions: [Int: Subscription] = [:]
        /// The printer's state as the last printer event told it, for the notifications of job events.
        var printer = PrinterSnapshot()
        /// Get-Notifications requests waiting for an event (notify-wait).
        var waiters: [Int: DispatchSemaphore] = [:]
        var nextWaiter = 0

        mutating func dropExpired(now: Double) {
            for (id, subscription) in subscriptions {
                if subscription.hasExpired(now: now) {
                    subscriptions[id] = nil
                } else if let first = subscription.notifications.first,
                    first.event.time < now - Double(SubscriptionLimits.eventLife)
                {
                    subscriptions[id]?.dropExpiredEvents(now: now)
                }
            }
        }
    }

    /// The events of one subscription that a Get-Notifications request asked for.
    struct Delivery: Sendable {
        let subscription: Subscription
        let notifications: [EventNotification]
    }

    private let state = Mutex(State())

    init() {}

    /// Creates a subscription; per-printer ones get their lease from `template.leaseDuration`.
    func create(_ template: SubscriptionTemplate, owner: String, seesAllJobs: Bool = true, now: Double)
        throws(SubscriptionError) -> Subscription
    {
        try state.withLock { state throws(SubscriptionError) in
            state.dropExpired(now: now)
            guard state.subscriptions.count < SubscriptionLimits.maximumSubscriptions else {
                throw .tooManySubscriptions
            }
            var subscription = Subscription(id: state.nextID, template: template, owner: owner, created: now)
            subscription.seesAllJobs = seesAllJobs
            if template.jobID == nil {
                subscription.leaseDuration = template.leaseDuration
                subscription.leaseExpiration = now + Double(template.leaseDuration)
            }
            state.nextID += 1
            state.subscriptions[subscription.id] = subscription
            return subscription
        }
    }

    /// A subscription that has not expired.
    func subscription(_ id: Int, now: Double) -> Subscription? {
        state.withLock { state in
            state.dropExpired(now: now)
            return state.subscriptions[id]
        }
    }

    /// Every current subscription, by id.
    func all(now: Double) -> [Subscription] {
        state.withLock { state in
            state.dropExpired(now: now)
            return state.subscriptions.values.sorted { $0.id < $1.id }
        }
    }

    /// Gives a per-printer subscription a new lease of `duration` seconds from now.
    func renew(_ id: Int, duration: Int32, now: Double) throws(SubscriptionError) -> Subscription {
        try state.withLock { state throws(SubscriptionError) in
            state.dropExpired(now: now)
            guard var subscription = state.subscriptions[id] else { throw .subscriptionNotFound(id) }
            guard !subscription.isJobSubscription else { throw .notRenewable(id) }
            subscription.leaseDuration = duration
            subscription.leaseExpiration = now + Double(duration)
            state.subscriptions[id] = subscription
            return subscription
        }
    }

    /// Removes a subscription; false when there was none.
    @discardableResult
    func cancel(_ id: Int) -> Bool {
        state.withLock { $0.subscriptions.removeValue(forKey: id) != nil }
    }

    /// Ends the per-job subscriptions of a job that ended or went away without a job-completed event reaching
    /// them (the job ended while its subscription was being created, or it was deleted).
    func endJobSubscriptions(of jobID: Int, at time: Double) {
        state.withLock { state in
            for (id, subscription) in state.subscriptions
            where subscription.template.jobID == jobID && subscription.jobEnded == nil {
                state.subscriptions[id]?.jobEnded = time
            }
        }
    }

    /// Records a published event for every subscription it concerns and wakes waiting Get-Notifications.
    func record(_ event: PrinterEvent) {
        let occurred = NotifyEvent(event)
        state.withLock { state in
            state.dropExpired(now: event.time)
            if occurred == .printerStateChanged || occurred == .printerStopped {
                state.printer = PrinterSnapshot(
                    state: event.state, reasons: event.reasons, accepting: event.acceptingJobs ?? true)
            }
            var matched = false
            for (id, var subscription) in state.subscriptions {
                if let jobID = subscription.template.jobID {
                    guard subscription.jobEnded == nil else { continue }
                    if occurred.isJobEvent, event.jobID != jobID { continue }
                } else if occurred.isJobEvent, !subscription.seesAllJobs, event.jobOwner != subscription.owner {
                    continue
                }
                if let subscribed = occurred.matched(by: subscription.template.events) {
                    subscription.record(event, as: subscribed, snapshot: state.printer)
                    matched = true
                }
                if occurred == .jobCompleted, subscription.template.jobID == event.jobID {
                    subscription.jobEnded = event.time
                }
                state.subscriptions[id] = subscription
            }
            if matched {
                for signal in state.waiters.values { signal.signal() }
            }
        }
    }

    /// The kept events of each subscription with a sequence number of at least the one asked for.
    ///
    /// Throws when a subscription does not exist; `owner` is checked by the caller.
    func notifications(_ requests: [(id: Int, from: Int)], now: Double) throws(SubscriptionError) -> [Delivery] {
        try state.withLock { state throws(SubscriptionError) in
            state.dropExpired(now: now)
            var deliveries: [Delivery] = []
            for request in requests {
                guard let subscription = state.subscriptions[request.id] else {
                    throw .subscriptionNotFound(request.id)
                }
                deliveries.append(
                    Delivery(
                        subscription: subscription,
                        notifications: subscription.notifications.filter { $0.sequence >= request.from }))
            }
            return deliveries
        }
    }

    /// Like `notifications(_:now:)`, but when none is there yet, waits up to `timeout` seconds for one.
    func waitForNotifications(_ requests: [(id: Int, from: Int)], timeout: Double) throws(SubscriptionError)
        -> [Delivery]
    {
        let deadline = DispatchTime.now() + Self.boundedWait(timeout)
        let signal = DispatchSemaphore(value: 0)
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            state.waiters[state.nextWaiter] = signal
            return state.nextWaiter
        }
        defer { _ = state.withLock { $0.waiters.removeValue(forKey: waiter) } }
        while true {
            let deliveries = try notifications(requests, now: WallClock.now())
            let pending = deliveries.contains { !$0.notifications.isEmpty || $0.subscription.jobEnded != nil }
            if pending || signal.wait(timeout: deadline) == .timedOut {
                return pending ? deliveries : try notifications(requests, now: WallClock.now())
            }
        }
    }

    /// How long a wait of `timeout` seconds really blocks: at most `SubscriptionLimits.maximumWait`.
    static func boundedWait(_ timeout: Double) -> Double {
        min(max(0, timeout), SubscriptionLimits.maximumWait)
    }

    /// The number of Get-Notifications requests waiting now (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }
}
