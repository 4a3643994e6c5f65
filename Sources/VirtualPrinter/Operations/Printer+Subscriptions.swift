import IPP

/// Event notification subscriptions with the ippget pull method (RFC 3995, RFC 3996).
extension Printer {
    /// Create-Printer-Subscriptions and Create-Job-Subscriptions (RFC 3995 sections 11.1.1, 11.1.2).
    func createSubscriptions(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Get-Subscription-Attributes (RFC 3995 section 11.2.4).
    func getSubscriptionAttributes(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Get-Subscriptions (RFC 3995 section 11.2.5).
    func getSubscriptions(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Renew-Subscription (RFC 3995 section 11.2.6).
    func renewSubscription(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Cancel-Subscription (RFC 3995 section 11.2.7).
    func cancelSubscription(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Get-Notifications (RFC 3996 section 5).
    func getNotifications(_ context: IPPRequestContext) -> IPPResponse {
        .error(.serverErrorOperationNotSupported, "\(context.operation) is not available yet.")
    }

    /// Hands every published event to the subscriptions (called by `publish`).
    func recordForSubscriptions(_ event: PrinterEvent) {}
}
