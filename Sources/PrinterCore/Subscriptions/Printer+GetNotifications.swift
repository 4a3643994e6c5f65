import IPP

extension Printer {
    /// Get-Notifications (RFC 3996 section 5): the kept events of the subscriptions in notify-subscription-ids
    /// from the notify-sequence-numbers on (1 when not given).
    ///
    /// With notify-wait true and nothing to return yet, the request blocks its connection until an event
    /// arrives or `SubscriptionLimits.maximumWait` passes. The answer is successful-ok-events-complete, without
    /// notify-get-interval, when every subscription asked about belongs to a job that has ended: no event
    /// will follow.
    func getNotifications(_ context: IPPRequestContext) -> IPPResponse {
        let requests: [(id: Int, from: Int)]
        switch notificationRequests(context) {
        case .failure(let error): return error.response
        case .success(let parsed): requests = parsed
        }
        endGoneJobSubscriptions()
        let wait = context.attribute("notify-wait")?.value?.booleanValue ?? false
        let deliveries: [SubscriptionStore.Delivery]
        do throws(SubscriptionError) {
            for request in requests {
                guard let subscription = subscriptions.subscription(request.id, now: WallClock.now()) else {
                    throw .subscriptionNotFound(request.id)
                }
                guard subscription.owner == context.user else { throw .notOwner(request.id) }
            }
            deliveries =
                wait
                ? try subscriptions.waitForNotifications(requests, timeout: SubscriptionLimits.maximumWait)
                : try subscriptions.notifications(requests, now: WallClock.now())
        } catch {
            return error.response
        }
        let complete = deliveries.allSatisfy { $0.subscription.jobEnded != nil }
        var response = IPPResponse(status: complete ? .successfulOKEventsComplete : .successfulOK)
        response.appendOperationAttributes(notificationOperationAttributes(eventsComplete: complete))
        for delivery in deliveries {
            for notification in delivery.notifications {
                response.groups.append(
                    notificationGroup(notification, of: delivery.subscription, context: context))
            }
        }
        return response
    }

    /// The operation attributes of a Get-Notifications response (RFC 3996 section 5.3.1): printer-up-time, and
    /// notify-get-interval unless no event will follow.
    func notificationOperationAttributes(eventsComplete: Bool) -> [IPPAttribute] {
        var attributes = [IPPAttribute("printer-up-time", .integer(upTime(at: WallClock.now())))]
        if !eventsComplete {
            attributes.append(IPPAttribute("notify-get-interval", .integer(SubscriptionLimits.getInterval)))
        }
        return attributes
    }

    /// notify-subscription-ids with their notify-sequence-numbers (RFC 3996 sections 5.1.2, 5.1.3).
    func notificationRequests(_ context: IPPRequestContext) -> Result<[(id: Int, from: Int)], SubscriptionError> {
        guard let ids = context.attribute("notify-subscription-ids") else {
            return .failure(.badValue(IPPAttribute(name: "notify-subscription-ids", values: []), reason: "is missing"))
        }
        let numbers = ids.values.compactMap { value -> Int? in
            guard case .integer(let id) = value, id > 0 else { return nil }
            return Int(id)
        }
        guard numbers.count == ids.values.count, !numbers.isEmpty else {
            return .failure(.badValue(ids, reason: "must be positive integers"))
        }
        var sequences: [Int] = []
        if let attribute = context.attribute("notify-sequence-numbers") {
            sequences = attribute.values.compactMap { value -> Int? in
                guard case .integer(let number) = value, number >= 0 else { return nil }
                return Int(number)
            }
            guard sequences.count == attribute.values.count else {
                return .failure(.badValue(attribute, reason: "must be integers of 0 or more"))
            }
        }
        return .success(
            numbers.enumerated().map { index, id in (id, index < sequences.count ? max(1, sequences[index]) : 1) })
    }
}
