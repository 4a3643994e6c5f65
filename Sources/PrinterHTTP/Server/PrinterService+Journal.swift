import Foundation
import HTTPServer
import IPP
import PrinterCore
import RequestJournal

/// What the journal learns of one IPP request while it is answered, filled in as the request is read, checked and
/// performed; used on the request's thread only.
final class IPPExchange {
    let started = ContinuousClock.now
    let startedAt = Date().timeIntervalSince1970
    var message: IPPMessage?
    /// Why the body did not decode, when it did not.
    var decodingError: IPPDecodingError?
    /// The System Service's path: no printer's rules apply.
    var isSystemRequest = false
    var printer: String?
    /// The printer the request was for, once found: what the checker holds the request against.
    var printerObject: Printer?
    /// The printer's attributes as the request found them, once it got that far (`IPPRequestContext.attributes`).
    var advertised: AdvertisedPrinter?
    /// What the checker found in the request, when it ran before the operation (a strict printer).
    var requestFindings: [ClientFinding]?
    /// The authenticated user, when credentials were asked for and given.
    var user: String?
    var document: JournalEntry.Document?
    var jobID: Int?
    var response: IPPResponse?
    /// Why the body could not be read as an IPP message.
    var problem: String?
    /// The request's groups as the journal keeps them, when `findings(memo:)` found them equal to a request's
    /// before (shared with it); the message's own otherwise.
    private var journaledGroups: [IPPAttributeGroup]?

    /// Everything the checker finds in the request, its answer and its document (`RequestChecker`); the request's
    /// own findings from `memo` when it saw the same request last, and then the groups `ippPart` journals are the
    /// memo's (`RequestFindingsMemo`).
    func findings(memo: RequestFindingsMemo) -> [ClientFinding] {
        if let decodingError { return [Self.malformed(decodingError)] }
        guard let message, !isSystemRequest else { return [] }
        let printer = advertised ?? printerObject.map(AdvertisedPrinter.init)
        let checker = RequestChecker(printer: printer)
        var found: [ClientFinding]
        if let requestFindings {
            found = requestFindings
        } else {
            let seen = memo.seen(message, printer: printer) { checker.findings(in: message) }
            found = seen.findings
            journaledGroups = seen.groups
        }
        if let response {
            // An attribute already at fault (a wrong tag, out of range) is not also reported as unsupported.
            let atFault = Set(found.compactMap(\.attribute))
            found += checker.findings(answer: response.unsupported, to: message).filter {
                !atFault.contains($0.attribute ?? "")
            }
        }
        if let document { found += checker.findings(document: document) }
        return found
    }

    /// The finding of a body that does not decode: a value longer than its syntax allows (RFC 8011 section 5.1),
    /// or any other break of the encoding (RFC 8010 section 3).
    static func malformed(_ error: IPPDecodingError) -> ClientFinding {
        switch error {
        case .valueTooLong, .nameTooLong:
            ClientFinding(.malformedMessage, "the request is malformed: \(error)", reference: "RFC 8011 §5.1")
        default:
            ClientFinding(.malformedMessage, "the request is malformed: \(error)")
        }
    }

    /// The IPP part of the journal entry, once the request decoded and was answered.
    var ippPart: JournalEntry.IPPPart? {
        guard let message, let response else { return nil }
        let answeredJob = response.groups.lazy.filter { $0.tag == .jobAttributes }
            .compactMap { $0["job-id"]?.value?.integerValue }.first
        var part = JournalEntry.IPPPart(
            request: message, document: document, status: response.status,
            statusCode: Int(response.status.rawValue), unsupported: response.unsupported,
            jobID: jobID ?? answeredJob.map(Int.init))
        if let journaledGroups { part.requestGroups = RequestGroups(journaledGroups) }
        return part
    }
}

extension PrinterService {
    /// Journals an IPP request once it was answered.
    func journalIPP(_ request: HTTPRequest, exchange: IPPExchange, response: HTTPResponse) {
        guard let journal else { return }
        let findings = exchange.findings(memo: findingsMemo)
        journal.record(
            JournalEntry(
                id: 0, time: JournalClock.text(secondsSince1970: exchange.startedAt),
                durationMilliseconds: milliseconds(since: exchange.started), kind: .ipp,
                connection: request.connectionNumber, client: journalClient(request), tls: request.isEncrypted,
                user: exchange.user, printer: exchange.printer, http: journalHTTP(request, response),
                ipp: exchange.ippPart, problem: exchange.problem, findings: findings.isEmpty ? nil : findings),
            openJobTimeout: exchange.printerObject?.documentTimeout)
    }

    /// Journals an HTTP request that is not IPP (the API, the web page, health checks), but not the journal's own
    /// routes and page: reading the journal does not add to it.
    func journalHTTP(
        _ request: HTTPRequest, response: HTTPResponse, started: ContinuousClock.Instant, startedAt: Double
    ) {
        guard let journal, !request.path.hasPrefix(Self.journalPath), request.path != Self.journalPage,
            request.path != Self.clientsPath
        else { return }
        journal.record(
            JournalEntry(
                id: 0, time: JournalClock.text(secondsSince1970: startedAt),
                durationMilliseconds: milliseconds(since: started), kind: .http, connection: request.connectionNumber,
                client: journalClient(request), tls: request.isEncrypted, user: nil,
                printer: printer(atPathOrBelow: request.path)?.name, http: journalHTTP(request, response), ipp: nil))
    }

    /// The path of the journal's routes.
    static let journalPath = "/api/v1/requests"
    /// The journal's web page.
    static let journalPage = "/requests"
    /// The clients' report, made from the journal.
    static let clientsPath = "/api/v1/clients"

    private func journalClient(_ request: HTTPRequest) -> JournalEntry.Client {
        JournalEntry.Client(
            address: request.remoteAddress, port: request.remotePort == 0 ? nil : Int(request.remotePort),
            userAgent: request.headers["User-Agent"])
    }

    private func journalHTTP(_ request: HTTPRequest, _ response: HTTPResponse) -> JournalEntry.HTTPPart {
        JournalEntry.HTTPPart(
            method: request.method, path: request.target,
            status: response.abort == .beforeResponse ? 0 : response.status)
    }

    private func milliseconds(since start: ContinuousClock.Instant) -> Double {
        ((ContinuousClock.now - start).seconds * 1000 * 1000).rounded() / 1000
    }
}
