import IPP
import PrintModel

extension Printer {
    /// The printer attributes that describe its subscription support (RFC 3995 section 5.3, RFC 3996 section 8),
    /// for the printer's static attributes.
    static func subscriptionAttributes() -> [IPPAttribute] {
        [
            IPPAttribute(name: "notify-events-default", values: NotifyEvent.defaults.map { .keyword($0.rawValue) }),
            IPPAttribute(name: "notify-events-supported", values: NotifyEvent.supported.map { .keyword($0.rawValue) }),
            IPPAttribute("notify-lease-duration-default", .integer(SubscriptionLimits.defaultLeaseDuration)),
            IPPAttribute(
                "notify-lease-duration-supported", .rangeOfInteger(0...SubscriptionLimits.maximumLeaseDuration)),
            IPPAttribute("notify-max-events-supported", .integer(Int32(SubscriptionLimits.maximumEventKeywords))),
            IPPAttribute("notify-pull-method-supported", .keyword("ippget")),
            IPPAttribute(
                name: "notify-attributes-supported",
                values: EventNotification.extraAttributeNames.map { .keyword($0) }),
            IPPAttribute("ippget-event-life", .integer(SubscriptionLimits.eventLife)),
        ]
    }

    /// The attributes of a subscription object (RFC 3995 sections 5.3 and 5.4), filtered by requested-attributes:
    /// names, `subscription-template`, `subscription-description` or `all`.
    func subscriptionGroup(
        _ subscription: Subscription, requested: Set<String>, context: IPPRequestContext
    ) -> IPPAttributeGroup {
        let template = subscription.template
        var group = IPPAttributeGroup(tag: .subscriptionAttributes)
        let everything = requested.contains("all")
        func add(_ name: String, description: Bool, _ values: [IPPValue]) {
            let set = description ? "subscription-description" : "subscription-template"
            if everything || requested.contains(set) || requested.contains(name) {
                group.append(IPPAttribute(name: name, values: values))
            }
        }
        add("notify-subscription-id", description: true, [.integer(Int32(clamping: subscription.id))])
        let notifyPrinterURI = printerURI(authority: context.uriAuthority, scheme: context.uriScheme)
        add("notify-printer-uri", description: true, [.uri(notifyPrinterURI)])
        add("notify-subscriber-user-name", description: true, [.name(subscription.owner)])
        add("notify-sequence-number", description: true, [.integer(Int32(clamping: subscription.lastSequence))])
        if !subscription.isJobSubscription {
            // Per-printer only, with the lease times: a per-job subscription lasts as long as its job (RFC 3995
            // section 5.4; ippsample's rfc3995-3996 suite checks that a per-job one has none of the three).
            add("notify-printer-up-time", description: true, [.integer(upTime(at: WallClock.now()))])
        }
        add("notify-events", description: false, template.events.map { .keyword($0.rawValue) })
        add("notify-pull-method", description: false, [.keyword("ippget")])
        if let interval = template.timeInterval {
            add("notify-time-interval", description: false, [.integer(interval)])
        }
        add("notify-charset", description: false, [.charset(template.charset)])
        add("notify-natural-language", description: false, [.naturalLanguage(template.naturalLanguage)])
        if let userData = template.userData { add("notify-user-data", description: false, [.octetString(userData)]) }
        if !template.attributes.isEmpty {
            add("notify-attributes", description: false, template.attributes.map { .keyword($0) })
        }
        if let jobID = template.jobID {
            add("notify-job-id", description: true, [.integer(Int32(clamping: jobID))])
        }
        if let duration = subscription.leaseDuration, let expiration = subscription.leaseExpiration {
            add("notify-lease-duration", description: false, [.integer(duration)])
            add("notify-lease-expiration-time", description: true, [.integer(upTime(of: expiration))])
        }
        return group
    }

    /// One event-notification-attributes group of a Get-Notifications response (RFC 3995 section 9.1,
    /// RFC 3996 section 5.3.3), with the printer's state when the event happened.
    func notificationGroup(
        _ notification: EventNotification, of subscription: Subscription, context: IPPRequestContext
    ) -> IPPAttributeGroup {
        let event = notification.event
        let template = subscription.template
        var group = IPPAttributeGroup(tag: .eventNotificationAttributes)
        group.append("notify-subscription-id", .integer(Int32(clamping: subscription.id)))
        group.append("notify-sequence-number", .integer(Int32(clamping: notification.sequence)))
        group.append("notify-subscribed-event", .keyword(notification.subscribed.rawValue))
        group.append("notify-text", .text(notification.text))
        group.append("notify-charset", .charset(template.charset))
        group.append("notify-natural-language", .naturalLanguage(template.naturalLanguage))
        if let userData = template.userData { group.append("notify-user-data", .octetString(userData)) }
        group.append("notify-printer-uri", .uri(printerURI(authority: context.uriAuthority, scheme: context.uriScheme)))
        group.append("printer-up-time", .integer(upTime(of: event.time)))
        group.append("printer-state", .enumValue(notification.printer.stateValue))
        group.append(
            IPPAttribute(name: "printer-state-reasons", values: notification.printer.reasons.map { .keyword($0) }))
        group.append("printer-is-accepting-jobs", .boolean(notification.printer.accepting))
        let job = event.jobID.flatMap { notification.occurred.isJobEvent ? self.job($0) : nil }
        if let jobID = event.jobID, notification.occurred.isJobEvent {
            group.append("notify-job-id", .integer(Int32(clamping: jobID)))
            group.append("job-state", .enumValue(JobState(keyword: event.state)?.rawValue ?? 3))
            group.append(IPPAttribute(name: "job-state-reasons", values: event.reasons.map { .keyword($0) }))
            let impressions = job.map { $0.state == .completed ? $0.impressions.count * $0.copies : 0 } ?? 0
            group.append("job-impressions-completed", .integer(Int32(clamping: impressions)))
        }
        for name in template.attributes {
            switch name {
            case "printer-name": group.append(name, .name(configuration.name))
            case "job-name": if let job { group.append(name, .name(job.name)) }
            case "job-state-message": if let message = event.message, job != nil { group.append(name, .text(message)) }
            default: break
            }
        }
        return group
    }
}

extension EventNotification {
    /// notify-attributes-supported: the extra attributes a subscription may ask its notifications to carry.
    static let extraAttributeNames = ["job-name", "job-state-message", "printer-name"]

    /// notify-text: what happened, in a sentence.
    var text: String {
        let event = self.event
        if occurred.isJobEvent, let jobID = event.jobID {
            switch occurred {
            case .jobCreated: return "Job \(jobID) created."
            case .jobProgress: return "Job \(jobID) printing."
            default:
                let message = event.message.map { ": \($0)" } ?? "."
                return "Job \(jobID) is \(event.state)\(message)"
            }
        }
        let reasons = event.reasons.filter { $0 != "none" }
        return "Printer \(event.printerName) is \(event.state)"
            + (reasons.isEmpty ? "." : " (\(reasons.joined(separator: ", "))).")
    }
}

extension PrinterSnapshot {
    /// The printer-state enum value of `state`.
    var stateValue: Int32 {
        switch state {
        case "processing": PrinterStateValue.processing.rawValue
        case "stopped": PrinterStateValue.stopped.rawValue
        default: PrinterStateValue.idle.rawValue
        }
    }
}
