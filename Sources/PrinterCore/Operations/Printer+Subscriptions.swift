import IPP

/// Event notification subscriptions with the ippget pull method (RFC 3995, RFC 3996).
extension Printer {
    /// client-error-ignored-all-subscriptions (RFC 3995 section 13.1.2).
    static let ignoredAllSubscriptions = IPPStatus(rawValue: 0x0414)
    /// successful-ok-ignored-subscriptions (RFC 3995 section 13.1.3).
    static let ignoredSubscriptions = IPPStatus(rawValue: 0x0003)
    /// successful-ok-too-many-events (RFC 3995 section 13.1.4), as a per-group notify-status-code.
    static let tooManyEvents = IPPStatus(rawValue: 0x0005)

    /// Create-Printer-Subscriptions and Create-Job-Subscriptions (RFC 3995 sections 11.1.1, 11.1.2): each
    /// subscription-attributes group of the request gets one group in the response, with its
    /// notify-subscription-id or the notify-status-code that says why it was not created.
    func createSubscriptions(_ context: IPPRequestContext) -> IPPResponse {
        let requests = context.message.groups.filter { $0.tag == .subscriptionAttributes }
        guard !requests.isEmpty else {
            return .error(.clientErrorBadRequest, "\(context.operation) needs a subscription-attributes group.")
        }
        endGoneJobSubscriptions()
        let scope: SubscriptionTemplate.Scope =
            context.operation == .createJobSubscriptions
            ? .existingJob(operationJobID: context.attribute("notify-job-id")) : .printer
        let outcome = subscribe(requests, scope: scope, context: context) { id in
            guard let job = self.job(id) else { return .missing }
            return job.state.isTerminal ? .ended : .active
        }
        for jobID in Set(outcome.subscriptions.compactMap(\.template.jobID))
        where job(jobID)?.state.isTerminal ?? true {
            subscriptions.endJobSubscriptions(of: jobID, at: WallClock.now())
        }
        var response = IPPResponse()
        outcome.answer(&response)
        return response
    }

    /// The subscriptions a job creation request asks for in its subscription-attributes groups (RFC 3995
    /// section 11.1.3), made for the job it creates. Called under the printer's lock before the job-created
    /// event, which they hear: it reads no job.
    func subscribeToNewJob(_ jobID: Int, context: IPPRequestContext) -> SubscriptionOutcome? {
        let requests = context.message.groups.filter { $0.tag == .subscriptionAttributes }
        guard !requests.isEmpty else { return nil }
        return subscribe(requests, scope: .newJob(jobID), context: context) { _ in .active }
    }

    /// Creates one subscription per request group, or says why not in that group's answer.
    private func subscribe(
        _ requests: [IPPAttributeGroup], scope: SubscriptionTemplate.Scope, context: IPPRequestContext,
        job: (Int) -> SubscriptionTemplate.JobLookup
    ) -> SubscriptionOutcome {
        var outcome = SubscriptionOutcome()
        for request in requests {
            var group = IPPAttributeGroup(tag: .subscriptionAttributes)
            do throws(SubscriptionError) {
                let (template, droppedEvents) = try SubscriptionTemplate.parse(request, scope: scope, job: job)
                let subscription = try subscriptions.create(
                    template, owner: context.user, seesAllJobs: seesEveryone(context), now: WallClock.now())
                outcome.subscriptions.append(subscription)
                group.append("notify-subscription-id", .integer(Int32(clamping: subscription.id)))
                if let lease = subscription.leaseDuration { group.append("notify-lease-duration", .integer(lease)) }
                if droppedEvents {
                    group.append("notify-status-code", .enumValue(Int32(Self.tooManyEvents.rawValue)))
                }
                log("subscription \(subscription.id) created by \(context.user)")
            } catch {
                outcome.firstRefusal = outcome.firstRefusal ?? error
                group.append("notify-status-code", .enumValue(Int32(error.status.rawValue)))
                if let attribute = error.attribute { outcome.unsupported.append(attribute) }
            }
            outcome.groups.append(group)
        }
        return outcome
    }

    /// Get-Subscription-Attributes (RFC 3995 section 11.2.4).
    func getSubscriptionAttributes(_ context: IPPRequestContext) -> IPPResponse {
        endGoneJobSubscriptions()
        switch subscription(named: context) {
        case .failure(let error): return error.response
        case .success(let subscription) where !seesEveryone(context) && subscription.owner != context.user:
            // Another user's subscription is not shown, nor said to exist.
            return SubscriptionError.subscriptionNotFound(subscription.id).response
        case .success(let subscription):
            var response = IPPResponse()
            response.groups.append(
                subscriptionGroup(subscription, requested: requestedNames(context, default: "all"), context: context))
            return response
        }
    }

    /// Get-Subscriptions (RFC 3995 section 11.2.5): the per-printer subscriptions, or those of notify-job-id;
    /// my-subscriptions keeps the requesting user's, limit bounds the count.
    func getSubscriptions(_ context: IPPRequestContext) -> IPPResponse {
        var jobID: Int?
        if let attribute = context.attribute("notify-job-id") {
            guard case .integer(let id)? = attribute.value, id > 0 else {
                return SubscriptionError.badValue(attribute, reason: "must be a positive integer").response
            }
            guard job(Int(id)) != nil else { return SubscriptionError.jobNotFound(Int(id)).response }
            jobID = Int(id)
        }
        var mine = !seesEveryone(context)
        if case .boolean(let value)? = context.attribute("my-subscriptions")?.value { mine = mine || value }
        var limit = Int.max
        if let attribute = context.attribute("limit") {
            guard case .integer(let value)? = attribute.value, value > 0 else {
                return SubscriptionError.badValue(attribute, reason: "must be a positive integer").response
            }
            limit = Int(value)
        }
        endGoneJobSubscriptions()
        let requested = requestedNames(context, default: "notify-subscription-id")
        let selected = subscriptions.all(now: WallClock.now()).filter { subscription in
            subscription.template.jobID == jobID && (!mine || subscription.owner == context.user)
        }
        var response = IPPResponse()
        for subscription in selected.prefix(limit) {
            response.groups.append(subscriptionGroup(subscription, requested: requested, context: context))
        }
        return response
    }

    /// Renew-Subscription (RFC 3995 section 11.2.6): a new lease from now, notify-lease-duration or the default.
    func renewSubscription(_ context: IPPRequestContext) -> IPPResponse {
        let target: Subscription
        switch owned(subscription(named: context), by: context) {
        case .failure(let error): return error.response
        case .success(let found): target = found
        }
        do throws(SubscriptionError) {
            var duration = SubscriptionLimits.defaultLeaseDuration
            if let attribute = context.attribute("notify-lease-duration") {
                duration = try SubscriptionTemplate.leaseDuration(attribute)
            }
            let renewed = try subscriptions.renew(target.id, duration: duration, now: WallClock.now())
            var response = IPPResponse()
            response.appendOperationAttributes([IPPAttribute("notify-lease-duration", .integer(duration))])
            log("subscription \(renewed.id) renewed for \(duration) s")
            return response
        } catch {
            return error.response
        }
    }

    /// Cancel-Subscription (RFC 3995 section 11.2.7): only its owner may cancel a subscription.
    func cancelSubscription(_ context: IPPRequestContext) -> IPPResponse {
        switch owned(subscription(named: context), by: context) {
        case .failure(let error): return error.response
        case .success(let subscription):
            subscriptions.cancel(subscription.id)
            log("subscription \(subscription.id) canceled")
            return IPPResponse()
        }
    }

    /// Hands every published event to the subscriptions (called by `publish`, under the printer's lock: the
    /// store takes only its own).
    func recordForSubscriptions(_ event: PrinterEvent) {
        subscriptions.record(event)
    }

    /// The subscription named by the operation's notify-subscription-id.
    func subscription(named context: IPPRequestContext) -> Result<Subscription, SubscriptionError> {
        guard let attribute = context.attribute("notify-subscription-id") else {
            return .failure(.badValue(IPPAttribute(name: "notify-subscription-id", values: []), reason: "is missing"))
        }
        guard attribute.values.count == 1, case .integer(let id)? = attribute.value, id > 0 else {
            return .failure(.badValue(attribute, reason: "must be one positive integer"))
        }
        guard let subscription = subscriptions.subscription(Int(id), now: WallClock.now()) else {
            return .failure(.subscriptionNotFound(Int(id)))
        }
        return .success(subscription)
    }

    /// Whether the requester sees every user's subscriptions and jobs: without credentials asked for, or an admin.
    func seesEveryone(_ context: IPPRequestContext) -> Bool {
        !context.requiresAuthentication || context.identity.isAdmin
    }

    /// The subscription if the requesting user owns it.
    func owned(
        _ found: Result<Subscription, SubscriptionError>, by context: IPPRequestContext
    ) -> Result<Subscription, SubscriptionError> {
        found.flatMap { subscription in
            subscription.owner == context.user ? .success(subscription) : .failure(.notOwner(subscription.id))
        }
    }

    /// requested-attributes as a set of names and group names.
    func requestedNames(_ context: IPPRequestContext, default name: String) -> Set<String> {
        Set(context.attribute("requested-attributes")?.values.compactMap(\.stringValue) ?? [name])
    }

    /// Ends the per-job subscriptions whose job is gone without an event saying so (deleted jobs).
    func endGoneJobSubscriptions() {
        let now = WallClock.now()
        for subscription in subscriptions.all(now: now) where subscription.jobEnded == nil {
            if let jobID = subscription.template.jobID, job(jobID)?.state.isTerminal ?? true {
                subscriptions.endJobSubscriptions(of: jobID, at: now)
            }
        }
    }
}

/// What the subscription-attributes groups of a request came to (RFC 3995 section 11.1): the subscriptions made,
/// one answer group per request group, and the first refusal.
struct SubscriptionOutcome: Sendable {
    var subscriptions: [Subscription] = []
    /// Each with notify-subscription-id, or the notify-status-code of its refusal.
    var groups: [IPPAttributeGroup] = []
    /// The attributes refused, for the unsupported-attributes group.
    var unsupported: [IPPAttribute] = []
    var firstRefusal: SubscriptionError?

    /// Adds the answer groups to `response` and, when a group was refused, says so in its status:
    /// successful-ok-ignored-subscriptions when others were made or the request did more than subscribe (a job
    /// was created), client-error-ignored-all-subscriptions otherwise (RFC 3995 sections 13.1.2, 13.1.3). A
    /// response that already reports ignored attributes keeps that status, the groups telling the rest.
    func answer(_ response: inout IPPResponse, jobCreated: Bool = false) {
        response.groups += groups
        response.unsupported += unsupported
        guard let firstRefusal else { return }
        if jobCreated || !subscriptions.isEmpty {
            guard response.status == .successfulOK else { return }
            response.status = Printer.ignoredSubscriptions
        } else {
            response.status = Printer.ignoredAllSubscriptions
        }
        response.statusMessage = firstRefusal.message
    }
}

extension IPPResponse {
    /// Adds attributes to the operation group, after status-message (RFC 3995 and RFC 3996 return
    /// notify-lease-duration, printer-up-time and notify-get-interval there).
    ///
    /// IPPResponse builds its operation group itself and has no place for more attributes yet; a second
    /// operation-attributes group would follow RFC 8010's syntax but makes CUPS clients fail to read the response.
    /// So, until IPPResponse gains `operationAttributes`, these attributes are left out of the response.
    mutating func appendOperationAttributes(_ attributes: [IPPAttribute]) {
        operationAttributes += attributes
    }
}
