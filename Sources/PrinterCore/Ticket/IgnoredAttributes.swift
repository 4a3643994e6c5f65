import IPP
import PrintModel
import Profiles

extension CheckedJobRequest {
    /// The attributes of the request that the client got back in the unsupported-attributes group, with what was
    /// sent, what the printer printed instead and why: the job record's `ignored-attributes`.
    func ignoredAttributes(context: IPPRequestContext, printer: PrinterAttributeCache) -> [IgnoredAttribute] {
        // A secret the printer ignored (a job-password where it takes none) is recorded as its length only.
        func json(_ attribute: IPPAttribute?) -> JSONValue? {
            guard let attribute, !attribute.values.isEmpty else { return nil }
            return JSONValue(any: IPPJSON.jsonValue(of: SecretAttributes.redacted(attribute)))
        }
        func defaultValue(_ name: String) -> JSONValue? { json(printer["\(name)-default"]) }
        var result: [IgnoredAttribute] = []
        for attribute in unsupportedOperationAttributes {
            result.append(
                IgnoredAttribute(
                    name: attribute.name, group: "operation", sent: json(attribute) ?? .null, used: nil,
                    reason: "unsupported-value",
                    message: "\(attribute.name) has a value the printer does not support; it was ignored"))
        }
        // The first attribute of each name, sent and accepted: looked up by name, not by a scan for each.
        let sent = Dictionary(
            (context.jobAttributes?.attributes ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let accepted = Dictionary(ticket.accepted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var occurrences: [String: Int] = [:]
        for attribute in ticket.unsupported {
            let name = attribute.name
            if attribute.values == [.outOfBand(.unsupported)] {
                result.append(
                    IgnoredAttribute(
                        name: name, group: "job", sent: json(sent[name]) ?? .null,
                        used: defaultValue(name), reason: "unsupported-attribute",
                        message: "the printer does not support \(name) (it has no \(name)-supported); it was ignored"))
            } else if let kept = accepted[name] {
                result.append(
                    IgnoredAttribute(
                        name: name, group: "job", sent: json(attribute) ?? .null, used: json(kept), reason: "repeated",
                        message: "\(name) was sent more than once; only its first value counts"))
            } else {
                // A repeated attribute whose first value was unsupported too: the first occurrence is the refusal.
                let seen = occurrences[name, default: 0]
                occurrences[name] = seen + 1
                let used = defaultValue(name)
                let instead = used == nil ? "it was ignored" : "the printer's \(name)-default was used instead"
                result.append(
                    IgnoredAttribute(
                        name: name, group: "job", sent: json(attribute) ?? .null, used: used,
                        reason: seen == 0 ? "unsupported-value" : "repeated",
                        message: seen == 0
                            ? "the value is not among \(name)-supported; \(instead)"
                            : "\(name) was sent more than once; only its first value counts"))
            }
        }
        return result
    }
}
