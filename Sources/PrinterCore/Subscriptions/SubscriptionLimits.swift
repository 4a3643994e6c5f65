/// The bounds of event notification subscriptions (RFC 3995, RFC 3996), each a named constant with a test.
enum SubscriptionLimits {
    /// The most subscriptions one printer keeps at a time; past it a request group gets
    /// client-error-too-many-subscriptions (RFC 3995 section 13.1.1).
    static let maximumSubscriptions = 100

    /// The most events one subscription keeps for Get-Notifications; the oldest go first past it.
    static let maximumEventsPerSubscription = 100

    /// The most keywords one subscription's notify-events may hold (notify-max-events-supported,
    /// RFC 3995 section 5.3.3); the excess is ignored with successful-ok-too-many-events.
    static let maximumEventKeywords = 20

    /// The longest lease in seconds (the upper bound of notify-lease-duration-supported, RFC 3995 section 5.3.8);
    /// longer requests, and 0 (infinite), get this lease instead.
    static let maximumLeaseDuration: Int32 = 86_400

    /// The lease of a printer subscription that asks for none (notify-lease-duration-default).
    static let defaultLeaseDuration: Int32 = 86_400

    /// Seconds an event stays available to Get-Notifications (ippget-event-life, RFC 3996 section 8.1;
    /// at least 15 as that section recommends).
    static let eventLife: Int32 = 60

    /// The longest a Get-Notifications request with notify-wait blocks its connection, in seconds
    /// (RFC 3996 section 5.1: the printer decides how long it waits).
    static let maximumWait: Double = 30

    /// notify-get-interval: when the client should ask again, in seconds (RFC 3996 section 5.3).
    static let getInterval: Int32 = 30

    /// The longest notify-user-data, in octets (RFC 3995 section 5.3.6).
    static let maximumUserDataLength = 63
}
