import IPP

/// The syntax RFC 8011 (and the PWG standards IPP Everywhere clients use) gives the attributes clients send: the
/// value tags allowed, whether several values may be sent, and the range of an integer. Only attributes clients
/// send are listed; one not listed is not checked for syntax.
struct AttributeSyntax: Sendable {
    /// The value tags a value may carry (out-of-band tags are never allowed from a client here).
    var tags: Set<IPPTag>
    /// 1setOf: several values allowed.
    var multiValued = false
    /// The range an integer (or each bound of a rangeOfInteger) must lie in, and the section saying so.
    var range: ClosedRange<Int32>?
    var rangeReference: String?
    /// Where a client sends it: the operation group or the job group (job template attributes).
    var group: Group

    enum Group: Sendable {
        case operation, job
    }

    /// The tags of the syntaxes `keyword | name` (media, job-hold-until, job-sheets, output-bin).
    static let keywordOrName: Set<IPPTag> = [.keyword, .nameWithoutLanguage, .nameWithLanguage]
    static let name: Set<IPPTag> = [.nameWithoutLanguage, .nameWithLanguage]
    static let text: Set<IPPTag> = [.textWithoutLanguage, .textWithLanguage]

    private static func operation(
        _ tags: Set<IPPTag>, multiValued: Bool = false, range: ClosedRange<Int32>? = nil, reference: String? = nil
    ) -> Self {
        Self(tags: tags, multiValued: multiValued, range: range, rangeReference: reference, group: .operation)
    }

    private static func job(
        _ tags: Set<IPPTag>, multiValued: Bool = false, range: ClosedRange<Int32>? = nil, reference: String? = nil
    ) -> Self {
        Self(tags: tags, multiValued: multiValued, range: range, rangeReference: reference, group: .job)
    }

    /// The attributes checked, by name (RFC 8011 sections 4.2 and 5.2; PWG 5100.7, 5100.11, 5100.13).
    static let known: [String: AttributeSyntax] = [
        // Operation attributes (RFC 8011 section 4.2 and the operations' sections).
        "attributes-charset": operation([.charset]),
        "attributes-natural-language": operation([.naturalLanguage]),
        "printer-uri": operation([.uri]),
        "job-uri": operation([.uri]),
        "job-id": operation([.integer], range: 1...Int32.max, reference: "RFC 8011 §4.1.5"),
        "requesting-user-name": operation(name),
        "job-name": operation(name),
        "document-name": operation(name),
        "document-format": operation([.mimeMediaType]),
        "document-natural-language": operation([.naturalLanguage]),
        "compression": operation([.keyword]),
        "ipp-attribute-fidelity": operation([.boolean]),
        "last-document": operation([.boolean]),
        "requested-attributes": operation([.keyword], multiValued: true),
        "which-jobs": operation([.keyword]),
        "my-jobs": operation([.boolean]),
        "limit": operation([.integer], range: 1...Int32.max, reference: "RFC 8011 §4.2.6.1"),
        "first-index": operation([.integer], range: 1...Int32.max, reference: "PWG 5100.13"),
        "job-k-octets": operation([.integer], range: 0...Int32.max, reference: "RFC 8011 §4.2.1.1"),
        "job-impressions": operation([.integer], range: 0...Int32.max, reference: "RFC 8011 §4.2.1.1"),
        "job-media-sheets": operation([.integer], range: 0...Int32.max, reference: "RFC 8011 §4.2.1.1"),
        "job-password": operation([.octetString]),
        "job-password-encryption": operation([.keyword]),
        "document-format-accepted": operation([.mimeMediaType], multiValued: true),
        // Job template attributes (RFC 8011 section 5.2; PWG 5100.7 and 5100.13 for the later ones).
        "copies": job([.integer], range: 1...Int32.max, reference: "RFC 8011 §5.2.5"),
        "job-priority": job([.integer], range: 1...100, reference: "RFC 8011 §5.2.1"),
        "job-hold-until": job(keywordOrName),
        "job-sheets": job(keywordOrName),
        "multiple-document-handling": job([.keyword]),
        "finishings": job([.enum], multiValued: true),
        "page-ranges": job([.rangeOfInteger], multiValued: true, range: 1...Int32.max, reference: "RFC 8011 §5.2.7"),
        "sides": job([.keyword]),
        "number-up": job([.integer], range: 1...Int32.max, reference: "RFC 8011 §5.2.9"),
        "orientation-requested": job([.enum]),
        "media": job(keywordOrName),
        "printer-resolution": job([.resolution]),
        "print-quality": job([.enum]),
        "output-bin": job(keywordOrName),
        "media-col": job([.beginCollection]),
        "finishings-col": job([.beginCollection], multiValued: true),
        "print-color-mode": job([.keyword]),
        "print-content-optimize": job([.keyword]),
        "print-rendering-intent": job([.keyword]),
        "print-scaling": job([.keyword]),
        "page-delivery": job([.keyword]),
        "presentation-direction-number-up": job([.keyword]),
        "job-account-id": job(name),
        "job-accounting-user-id": job(name),
        "job-cancel-after": job([.integer], range: 1...Int32.max, reference: "PWG 5100.11"),
        "job-retain-until": job(keywordOrName),
        "overrides": job([.beginCollection], multiValued: true),
        "output-mode": job([.keyword]),
        "print-darkness": job([.integer], range: -100...100, reference: "PWG 5100.13"),
    ]
}
