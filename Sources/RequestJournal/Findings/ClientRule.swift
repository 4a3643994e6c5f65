/// What a client is checked against: each rule of RFC 8010, RFC 8011 or a PWG standard that a request can break,
/// with the severity of breaking it and the section it rests on. `RequestChecker` finds the breaches of one
/// request, `Journal` those of a client's requests over time (polling, a Create-Job left without its document).
///
/// Severity: `error` for a MUST broken or a value a strict printer refuses; `warning` for a SHOULD, or what a
/// lenient printer silently ignores; `info` for what is worth knowing.
public enum ClientRule: String, Sendable, Hashable, Codable, CaseIterable {
    case malformedMessage = "malformed-message"
    case groupOrder = "group-order"
    case requestID = "request-id"
    case ippVersion = "ipp-version"
    case operationAttributesOrder = "operation-attributes-order"
    case charset
    case targetOrder = "target-order"
    case missingOperationAttribute = "missing-operation-attribute"
    case requestingUserName = "requesting-user-name"
    case valueTag = "value-tag"
    case valueCount = "value-count"
    case valueRange = "value-range"
    case keywordSyntax = "keyword-syntax"
    case uriSyntax = "uri-syntax"
    case duplicateAttribute = "duplicate-attribute"
    case wrongGroup = "wrong-group"
    case unsupportedValue = "unsupported-value"
    case unsupportedAttribute = "unsupported-attribute"
    case notCreationAttribute = "not-creation-attribute"
    case documentFormatUnsupported = "document-format-unsupported"
    case documentFormatMismatch = "document-format-mismatch"
    case compressionUnsupported = "compression-unsupported"
    case operationNotSupported = "operation-not-supported"
    case unknownRequestedAttribute = "unknown-requested-attribute"
    case createJobWithoutDocument = "create-job-without-document"
    case pollingRate = "polling-rate"

    public var severity: ClientFinding.Severity {
        switch self {
        case .requestingUserName, .unsupportedAttribute, .notCreationAttribute, .operationNotSupported, .pollingRate:
            .warning
        case .unknownRequestedAttribute:
            .info
        default:
            .error
        }
    }

    /// The section the rule rests on (a finding may name a narrower one).
    public var reference: String {
        switch self {
        case .malformedMessage: "RFC 8010 §3.1"
        case .groupOrder: "RFC 8010 §3.1.1"
        case .requestID: "RFC 8011 §4.1.2"
        case .ippVersion: "RFC 8011 §4.1.8"
        case .operationAttributesOrder: "RFC 8011 §4.1.4"
        case .charset: "RFC 8011 §4.1.4.1"
        case .targetOrder: "RFC 8011 §4.1.5"
        case .missingOperationAttribute: "RFC 8011 §4.1.5"
        case .requestingUserName: "RFC 8011 §4.2.1.1"
        case .valueTag: "RFC 8011 §5.1"
        case .valueCount: "RFC 8011 §5.2"
        case .valueRange: "RFC 8011 §5.2"
        case .keywordSyntax: "RFC 8011 §5.1.4"
        case .uriSyntax: "RFC 8010 §3.9, RFC 3986 §2"
        case .duplicateAttribute: "RFC 8011 §4.1.3"
        case .wrongGroup: "RFC 8011 §4.2.1.1"
        case .unsupportedValue, .unsupportedAttribute: "RFC 8011 §4.1.7"
        case .notCreationAttribute: "PWG 5100.11 (job-creation-attributes-supported)"
        case .documentFormatUnsupported: "RFC 8011 §4.1.9"
        case .documentFormatMismatch: "RFC 8011 §4.2.1.1"
        case .compressionUnsupported: "RFC 8011 §4.2.1.1"
        case .operationNotSupported: "RFC 8011 §5.4.15"
        case .unknownRequestedAttribute: "RFC 8011 §4.2.5.1"
        case .createJobWithoutDocument: "RFC 8011 §4.2.4"
        case .pollingRate: "RFC 8011 §4.2.6"
        }
    }
}
