import IPP
import PrinterCore
import RequestJournal

/// The checker's findings of the last request each thread journaled, and that request's attribute groups: a client
/// that polls (a print dialog, a monitoring script, a load test) sends the same request over and over with only its
/// request-id changed, and the same request to the same printer attributes has the same findings. Its journal
/// entries then share the groups the memo kept rather than each keeping its own decoded copy: ten thousand entries
/// in the ring held ten thousand copies of one request, and each request's decoding then went to memory the cache
/// had long lost. Kept per thread stripe (`ThreadStriped`).
final class RequestFindingsMemo: Sendable {
    /// What the memo tells of a request.
    struct Seen {
        var findings: [ClientFinding]
        /// The request's attribute groups: those of the same request seen last (equal, and shared), else its own.
        var groups: [IPPAttributeGroup]
    }

    private struct Last: Sendable {
        /// The request with its request-id set to 1 (any request-id above 0 is found the same).
        var message: IPPMessage
        var attributes: PrinterAttributeCache?
        var findings: [ClientFinding]
    }

    private let last = ThreadStriped<Last?> { nil }

    /// The findings in `message` against `printer`'s attributes: those of the same request seen last on this
    /// thread, or `check()`'s.
    func findings(
        in message: IPPMessage, printer: AdvertisedPrinter?, check: () -> [ClientFinding]
    ) -> [ClientFinding] {
        seen(message, printer: printer, check: check).findings
    }

    /// The findings in `message` against `printer`'s attributes and the groups to journal it with: those of the
    /// same request seen last on this thread, or `check()`'s and the message's own.
    func seen(_ message: IPPMessage, printer: AdvertisedPrinter?, check: () -> [ClientFinding]) -> Seen {
        // A request-id of 0 or less is itself a finding, with its value in the text: never taken from the memo. A
        // request holding a secret is not kept in it (the journal keeps no secret: `SecretAttributes`).
        guard message.requestID > 0, !SecretAttributes.holdsSecrets(message.groups) else {
            return Seen(findings: check(), groups: message.groups)
        }
        var key = message
        key.requestID = 1
        let attributes = printer?.cache
        if let seen = last.withLock({ last in
            last.flatMap {
                $0.message == key && $0.attributes === attributes
                    ? Seen(findings: $0.findings, groups: $0.message.groups) : nil
            }
        }) {
            return seen
        }
        let found = check()
        last.withLock { $0 = Last(message: key, attributes: attributes, findings: found) }
        return Seen(findings: found, groups: message.groups)
    }
}
