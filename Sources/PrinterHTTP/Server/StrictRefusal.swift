import IPP
import PrinterCore
import RequestJournal

/// What a strict printer answers a request the checker found fault with, before performing it: the client-error
/// status the strictest real printers answer (RFC 8011 section 4.1.7: client-error-attributes-or-values-not-supported
/// for a job attribute's value, client-error-bad-request for a malformed request), the finding as the message, and
/// the attribute at fault in the unsupported-attributes group. Warnings and info never refuse; what a lenient
/// printer already refuses, and unsupported job template values (`Printer.isStrict`), are refused by the printer.
enum StrictRefusal {
    static func response(for findings: [ClientFinding], in message: IPPMessage) -> IPPResponse? {
        for finding in findings {
            let status: IPPStatus
            switch finding.rule {
            case .targetOrder, .wrongGroup, .duplicateAttribute, .missingOperationAttribute:
                status = .clientErrorBadRequest
            case .valueTag, .valueCount, .valueRange, .keywordSyntax:
                status =
                    isJobAttribute(finding.attribute, in: message)
                    ? .clientErrorAttributesOrValuesNotSupported : .clientErrorBadRequest
            case .notCreationAttribute:
                status = .clientErrorAttributesOrValuesNotSupported
            default:
                continue
            }
            var response = IPPResponse.error(
                status, "This printer is strict: \(finding.message) (\(finding.reference)).")
            if let name = finding.attribute, let attribute = attribute(name, in: message) {
                response.unsupported = [attribute]
            }
            return response
        }
        return nil
    }

    private static func isJobAttribute(_ name: String?, in message: IPPMessage) -> Bool {
        guard let name else { return false }
        return message[group: .jobAttributes]?[name] != nil && message[group: .operationAttributes]?[name] == nil
    }

    private static func attribute(_ name: String, in message: IPPMessage) -> IPPAttribute? {
        for group in message.groups {
            if let attribute = group[name] { return attribute }
        }
        return nil
    }
}
