import IPP

/// The static printer attributes, encoded once when the printer is configured, so that
/// Get-Printer-Attributes copies bytes instead of encoding values on every request. Never changed, only replaced
/// (Set-Printer-Attributes, a tray loaded): a class, so that taking the current one out of the printer's lock, as
/// every request does, retains one reference.
package final class PrinterAttributeCache: Sendable {
    /// Attributes in the order the profile gave them, each with its encoding.
    let entries: [(name: String, encoded: [UInt8])]
    package let attributes: [String: IPPAttribute]
    /// Every entry `all` returns, already concatenated: the answer to the most common request is one copy.
    let allEncoded: [UInt8]

    /// Names never returned for `all`, `printer-description` or `job-template`: only when named
    /// (CUPS ipp-everywhere.test; PWG 5100.7 for media-col-database).
    static let onlyWhenNamed: Set<String> = ["media-col-database"]

    init(attributes list: [IPPAttribute], excluding dynamicNames: Set<String>) {
        var entries: [(String, [UInt8])] = []
        var byName: [String: IPPAttribute] = [:]
        for attribute in list where !dynamicNames.contains(attribute.name) {
            if byName[attribute.name] != nil {
                // A later definition (a profile override) replaces the earlier one.
                entries.removeAll { $0.0 == attribute.name }
            }
            var bytes: [UInt8] = []
            IPPEncoder.append(attribute, to: &bytes)
            entries.append((attribute.name, bytes))
            byName[attribute.name] = attribute
        }
        self.entries = entries
        attributes = byName
        allEncoded = entries.filter { !Self.onlyWhenNamed.contains($0.0) }.flatMap(\.1)
    }

    package subscript(name: String) -> IPPAttribute? { attributes[name] }
}

/// Which printer attributes a request asked for (RFC 8011 section 4.2.5.1, requested-attributes).
struct RequestedAttributes: Sendable {
    private var names: Set<String>
    private var all = false
    private var description = false
    private var template = false
    /// `job-description`, the group of job attributes that are not job template attributes (RFC 8011 section
    /// 4.3.4.1).
    private var jobDescription = false

    /// Reads requested-attributes; absent means `all`.
    init(_ attribute: IPPAttribute?, default defaultNames: [String] = ["all"]) {
        let requested = attribute?.values.compactMap(\.stringValue) ?? defaultNames
        names = Set(requested)
        all = names.contains("all")
        description = names.contains("printer-description")
        template = names.contains("job-template")
        jobDescription = names.contains("job-description")
    }

    /// True when the request asks for `all` and nothing else (or gives no requested-attributes).
    var isAllOnly: Bool { all && names.count == 1 }

    /// True when the named printer attribute is to be returned.
    func includes(_ name: String) -> Bool {
        if names.contains(name) { return true }
        if PrinterAttributeCache.onlyWhenNamed.contains(name) { return false }
        if all { return true }
        let isTemplate = Self.isJobTemplate(name)
        return (template && isTemplate) || (description && !isTemplate)
    }

    /// True when the request named this attribute (or a group of job attributes containing it).
    func includesJobAttribute(_ name: String) -> Bool {
        names.contains(name) || all || (template && Self.templateBases.contains(name))
            || ((description || jobDescription) && !Self.templateBases.contains(name))
    }

    /// The job template attributes and their printer-side -default, -supported and -ready forms belong to
    /// the `job-template` group (RFC 8011 section 5.2); the rest are printer description attributes.
    static func isJobTemplate(_ name: String) -> Bool {
        for suffix in ["-default", "-supported", "-ready"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if templateBases.contains(base) { return true }
            if name.hasPrefix("media-") && suffix == "-supported" { return true }
        }
        return false
    }

    static let templateBases: Set<String> = [
        "copies", "finishings", "finishings-col", "job-hold-until", "job-priority", "job-sheets", "media",
        "media-col", "multiple-document-handling", "number-up", "orientation-requested", "output-bin",
        "page-ranges", "presentation-direction-number-up", "print-color-mode", "print-content-optimize",
        "print-quality", "print-rendering-intent", "print-scaling", "printer-resolution", "sides", "overrides",
        "job-account-id", "job-accounting-user-id", "x-image-position", "y-image-position", "page-delivery",
    ]
}

extension PrinterAttributeCache {
    /// A cache with some attributes replaced (or added at the end), in the same order otherwise.
    func replacing(_ changes: [IPPAttribute]) -> PrinterAttributeCache {
        var list = entries.compactMap { attributes[$0.name] }
        for change in changes {
            if let index = list.firstIndex(where: { $0.name == change.name }) {
                list[index] = change
            } else {
                list.append(change)
            }
        }
        return PrinterAttributeCache(attributes: list, excluding: [])
    }
}
