import IPP
import PrinterCore
import RequestJournal

/// The checker's findings of the last request each thread journaled: a client that polls (a print dialog, a
/// monitoring script, a load test) sends the same request over and over with only its request-id changed, and the
/// same request to the same printer attributes has the same findings. Kept per thread stripe (`ThreadStriped`).
final class RequestFindingsMemo: Sendable {
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
        // A request-id of 0 or less is itself a finding, with its value in the text: never taken from the memo.
        guard message.requestID > 0 else { return check() }
        var key = message
        key.requestID = 1
        let attributes = printer?.cache
        if let found = last.withLock({ last in
            last.flatMap { $0.message == key && $0.attributes === attributes ? $0.findings : nil }
        }) {
            return found
        }
        let found = check()
        last.withLock { $0 = Last(message: key, attributes: attributes, findings: found) }
        return found
    }
}
