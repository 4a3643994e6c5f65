import IPP

/// Why a subscription request group, or an operation on a subscription, is refused (RFC 3995 sections 5.3, 11).
enum SubscriptionError: Error, Equatable, Sendable {
    /// The group names neither notify-recipient-uri nor notify-pull-method (RFC 3995 section 5.3.1).
    case noDeliveryMethod
    /// The group names both notify-recipient-uri and notify-pull-method.
    case twoDeliveryMethods
    /// notify-recipient-uri asks for push delivery; this printer supports no push scheme.
    case unsupportedScheme(IPPAttribute)
    /// notify-pull-method is not ippget.
    case unsupportedPullMethod(IPPAttribute)
    /// notify-events holds values that are not in notify-events-supported.
    case unsupportedEvents(IPPAttribute)
    /// An attribute has the wrong syntax or an out-of-range value.
    case badValue(IPPAttribute, reason: String)
    /// notify-user-data is longer than 63 octets (RFC 3995 section 5.3.6).
    case userDataTooLong(IPPAttribute)
    /// notify-charset is not one of charset-supported.
    case unsupportedCharset(IPPAttribute)
    /// Create-Job-Subscriptions without notify-job-id.
    case missingJobID
    /// notify-job-id names no job of this printer.
    case jobNotFound(Int)
    /// notify-job-id names a job that has already ended.
    case jobEnded(Int)
    /// The printer already holds `SubscriptionLimits.maximumSubscriptions`.
    case tooManySubscriptions
    /// No subscription has this id (it never existed, expired or was canceled).
    case subscriptionNotFound(Int)
    /// The requesting user is not the subscription's owner.
    case notOwner(Int)
    /// Renew-Subscription on a per-job subscription, which has no lease (RFC 3995 section 11.2.6).
    case notRenewable(Int)

    /// client-error-too-many-subscriptions (RFC 3995 section 13.1.1).
    static let tooManySubscriptionsStatus = IPPStatus(rawValue: 0x0415)

    /// The status code this refusal answers with.
    var status: IPPStatus {
        switch self {
        case .noDeliveryMethod, .twoDeliveryMethods, .missingJobID: .clientErrorBadRequest
        case .unsupportedScheme: .clientErrorURISchemeNotSupported
        case .unsupportedPullMethod, .unsupportedEvents, .badValue: .clientErrorAttributesOrValuesNotSupported
        case .userDataTooLong: .clientErrorRequestValueTooLong
        case .unsupportedCharset: .clientErrorCharsetNotSupported
        case .jobNotFound, .subscriptionNotFound: .clientErrorNotFound
        case .jobEnded, .notRenewable: .clientErrorNotPossible
        case .tooManySubscriptions: Self.tooManySubscriptionsStatus
        case .notOwner: .clientErrorNotAuthorized
        }
    }

    /// A message a person can act on.
    var message: String {
        switch self {
        case .noDeliveryMethod: "A subscription needs notify-pull-method ippget."
        case .twoDeliveryMethods: "A subscription takes notify-recipient-uri or notify-pull-method, not both."
        case .unsupportedScheme: "Push notifications are not supported; use notify-pull-method ippget."
        case .unsupportedPullMethod: "The only notify-pull-method supported is ippget."
        case .unsupportedEvents(let attribute):
            "notify-events \(attribute.values.compactMap(\.stringValue)) is not among \(NotifyEvent.supported)."
        case .badValue(let attribute, let reason): "\(attribute.name) \(reason)."
        case .userDataTooLong:
            "notify-user-data is longer than \(SubscriptionLimits.maximumUserDataLength) octets."
        case .unsupportedCharset: "notify-charset must be utf-8 or us-ascii."
        case .missingJobID: "Create-Job-Subscriptions needs notify-job-id."
        case .jobNotFound(let id): "Job \(id) does not exist."
        case .jobEnded(let id): "Job \(id) has already ended."
        case .tooManySubscriptions:
            "The printer already has \(SubscriptionLimits.maximumSubscriptions) subscriptions; cancel some first."
        case .subscriptionNotFound(let id): "Subscription \(id) does not exist."
        case .notOwner(let id): "Subscription \(id) belongs to another user."
        case .notRenewable(let id): "Subscription \(id) lasts as long as its job and cannot be renewed."
        }
    }

    /// The request attribute to return in the unsupported group, if any.
    var attribute: IPPAttribute? {
        switch self {
        case .unsupportedScheme(let attribute), .unsupportedPullMethod(let attribute),
            .unsupportedEvents(let attribute), .badValue(let attribute, _), .userDataTooLong(let attribute),
            .unsupportedCharset(let attribute):
            attribute
        default: nil
        }
    }

    /// The response refusing a whole operation.
    var response: IPPResponse {
        var response = IPPResponse.error(status, message)
        if let attribute { response.unsupported = [attribute] }
        return response
    }
}
