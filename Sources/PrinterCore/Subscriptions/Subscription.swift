/// What a client asked for in one subscription-attributes group, after validation (RFC 3995 section 5.3).
struct SubscriptionTemplate: Sendable, Equatable {
    /// notify-events.
    var events: [NotifyEvent] = NotifyEvent.defaults
    /// notify-job-id: the job of a per-job subscription; nil for a per-printer subscription.
    var jobID: Int?
    /// notify-lease-duration in seconds, for per-printer subscriptions (already within the supported range).
    var leaseDuration: Int32 = SubscriptionLimits.defaultLeaseDuration
    /// notify-time-interval in seconds (RFC 3995 section 5.3.9): only when the client asked for one.
    var timeInterval: Int32?
    /// notify-user-data: at most `SubscriptionLimits.maximumUserDataLength` octets.
    var userData: [UInt8]?
    /// notify-charset.
    var charset = "utf-8"
    /// notify-natural-language.
    var naturalLanguage = "en"
    /// notify-attributes: extra attributes each notification carries.
    var attributes: [String] = []
}

/// One subscription object (RFC 3995 section 5): its template, owner, lease and the events kept for it.
struct Subscription: Sendable, Equatable {
    /// notify-subscription-id, unique within the printer.
    let id: Int
    let template: SubscriptionTemplate
    /// notify-subscriber-user-name: who created it.
    let owner: String
    /// Whether it hears of every user's jobs: without credentials asked for, or made by an admin. Otherwise a
    /// printer subscription hears of its owner's jobs only.
    var seesAllJobs = true
    /// When it was created.
    let created: Double
    /// When the lease ends (per-printer subscriptions); nil for per-job ones, which end with their job.
    var leaseExpiration: Double?
    /// The lease in seconds last granted (per-printer subscriptions).
    var leaseDuration: Int32?
    /// The sequence number of the last event recorded; the first event is number 1.
    var lastSequence = 0
    /// The events still available to Get-Notifications, oldest first.
    var notifications: [EventNotification] = []
    /// When the job of a per-job subscription ended; no event follows the one recorded then.
    var jobEnded: Double?

    var isJobSubscription: Bool { template.jobID != nil }

    /// Records an event that matched as the next sequence number, dropping the oldest past the bound.
    mutating func record(_ event: PrinterEvent, as subscribed: NotifyEvent, snapshot: PrinterSnapshot) {
        lastSequence += 1
        notifications.append(
            EventNotification(
                sequence: lastSequence, subscribed: subscribed, occurred: NotifyEvent(event), event: event,
                printer: snapshot))
        if notifications.count > SubscriptionLimits.maximumEventsPerSubscription {
            notifications.removeFirst(notifications.count - SubscriptionLimits.maximumEventsPerSubscription)
        }
    }

    /// Forgets the events older than ippget-event-life.
    mutating func dropExpiredEvents(now: Double) {
        let oldest = now - Double(SubscriptionLimits.eventLife)
        notifications.removeAll { $0.event.time < oldest }
    }

    /// True once the subscription is gone: its lease ran out, or its job ended and the last events expired.
    func hasExpired(now: Double) -> Bool {
        if let leaseExpiration, now >= leaseExpiration { return true }
        if let jobEnded, now >= jobEnded + Double(SubscriptionLimits.eventLife) { return true }
        return false
    }
}

/// The printer's state when an event happened, as notifications report it (RFC 3995 section 9.1).
struct PrinterSnapshot: Sendable, Equatable {
    /// printer-state keyword: idle, processing or stopped.
    var state = "idle"
    var reasons = ["none"]
    /// printer-is-accepting-jobs.
    var accepting = true
}

/// One event kept for a subscription (RFC 3995 section 9, RFC 3996 section 5.3).
struct EventNotification: Sendable, Equatable {
    /// notify-sequence-number within its subscription.
    let sequence: Int
    /// notify-subscribed-event: the subscribed keyword this event matched.
    let subscribed: NotifyEvent
    /// The event as it occurred, the most specific keyword.
    let occurred: NotifyEvent
    /// What the printer published.
    let event: PrinterEvent
    let printer: PrinterSnapshot
}
