import IPP

extension SubscriptionTemplate {
    /// What a job looks like to a subscription request: whether it exists and whether it has ended.
    enum JobLookup: Sendable {
        case missing
        case active
        case ended
    }

    /// Which object a subscription request is for.
    enum Scope: Sendable, Equatable {
        /// Create-Printer-Subscriptions (RFC 3995 section 11.1.2): the printer; no notify-job-id.
        case printer
        /// Create-Job-Subscriptions (section 11.1.1): the job of notify-job-id, an operation attribute; CUPS
        /// clients put it in each subscription group instead, which is read too (the group's wins).
        case existingJob(operationJobID: IPPAttribute?)
        /// A subscription group of a job creation request (section 11.1.3): the job it creates.
        case newJob(Int)

        var isPerJob: Bool { self != .printer }
    }

    /// Reads and checks one subscription-attributes group (RFC 3995 sections 5.3, 11.1.1, 11.1.2, 11.1.3).
    ///
    /// `job` tells whether a notify-job-id names a job that can still have events. Returns the template and
    /// whether notify-events had more values than `SubscriptionLimits.maximumEventKeywords` (the excess is
    /// dropped).
    static func parse(
        _ group: IPPAttributeGroup, scope: Scope, job: (Int) -> JobLookup
    ) throws(SubscriptionError) -> (template: SubscriptionTemplate, droppedEvents: Bool) {
        let perJob = scope.isPerJob
        var template = SubscriptionTemplate()
        let recipient = group["notify-recipient-uri"]
        let pullMethod = group["notify-pull-method"]
        if recipient != nil, pullMethod != nil { throw .twoDeliveryMethods }
        if let recipient { throw .unsupportedScheme(recipient) }
        guard let pullMethod else { throw .noDeliveryMethod }
        guard pullMethod.values == [.keyword("ippget")] else { throw .unsupportedPullMethod(pullMethod) }

        var droppedEvents = false
        if let attribute = group["notify-events"] {
            let keywords = attribute.values.map { value -> NotifyEvent? in
                guard case .keyword(let keyword) = value else { return nil }
                return NotifyEvent(rawValue: keyword)
            }
            guard !keywords.isEmpty, keywords.allSatisfy({ $0.map(NotifyEvent.supported.contains) ?? false }) else {
                throw .unsupportedEvents(attribute)
            }
            let events = keywords.compactMap { $0 }
            droppedEvents = events.count > SubscriptionLimits.maximumEventKeywords
            template.events = Array(events.prefix(SubscriptionLimits.maximumEventKeywords))
        }

        switch scope {
        case .printer:
            if let attribute = group["notify-job-id"] {
                throw .badValue(attribute, reason: "is only for Create-Job-Subscriptions")
            }
        case .newJob(let id):
            if let attribute = group["notify-job-id"] {
                throw .badValue(attribute, reason: "is not allowed when the request creates the job")
            }
            template.jobID = id
        case .existingJob(let operationJobID):
            guard let attribute = group["notify-job-id"] ?? operationJobID else { throw .missingJobID }
            guard attribute.values.count == 1, case .integer(let id)? = attribute.value, id > 0 else {
                throw .badValue(attribute, reason: "must be one positive integer")
            }
            switch job(Int(id)) {
            case .missing: throw .jobNotFound(Int(id))
            case .ended: throw .jobEnded(Int(id))
            case .active: template.jobID = Int(id)
            }
        }

        if let attribute = group["notify-lease-duration"] {
            guard !perJob else { throw .badValue(attribute, reason: "is not allowed for a per-job subscription") }
            template.leaseDuration = try leaseDuration(attribute)
        }
        if let attribute = group["notify-time-interval"] {
            guard attribute.values.count == 1, case .integer(let seconds)? = attribute.value, seconds >= 0 else {
                throw .badValue(attribute, reason: "must be one integer of 0 or more")
            }
            template.timeInterval = seconds
        }
        if let attribute = group["notify-user-data"] {
            guard attribute.values.count == 1, case .octetString(let bytes)? = attribute.value else {
                throw .badValue(attribute, reason: "must be one octetString")
            }
            guard bytes.count <= SubscriptionLimits.maximumUserDataLength else { throw .userDataTooLong(attribute) }
            template.userData = bytes
        }
        if let attribute = group["notify-charset"] {
            guard case .charset(let charset)? = attribute.value,
                IPPRequestValidator.supportedCharsets.contains(charset.lowercased())
            else { throw .unsupportedCharset(attribute) }
            template.charset = charset.lowercased()
        }
        if let attribute = group["notify-natural-language"] {
            guard case .naturalLanguage(let language)? = attribute.value else {
                throw .badValue(attribute, reason: "must be a naturalLanguage")
            }
            template.naturalLanguage = language
        }
        if let attribute = group["notify-attributes"] {
            let names = attribute.values.compactMap { value -> String? in
                guard case .keyword(let name) = value else { return nil }
                return name
            }
            guard names.count == attribute.values.count,
                names.allSatisfy(EventNotification.extraAttributeNames.contains)
            else {
                throw .badValue(attribute, reason: "must be among \(EventNotification.extraAttributeNames)")
            }
            template.attributes = names
        }
        return (template, droppedEvents)
    }

    /// A requested lease within notify-lease-duration-supported: 0 (infinite) and longer leases get the maximum.
    static func leaseDuration(_ attribute: IPPAttribute) throws(SubscriptionError) -> Int32 {
        guard attribute.values.count == 1, case .integer(let seconds)? = attribute.value, seconds >= 0 else {
            throw .badValue(attribute, reason: "must be one integer of 0 or more")
        }
        return seconds == 0
            ? SubscriptionLimits.maximumLeaseDuration : min(seconds, SubscriptionLimits.maximumLeaseDuration)
    }
}
