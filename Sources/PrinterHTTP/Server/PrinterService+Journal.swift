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
    var printer: String?
    /// The authenticated user, when credentials were asked for and given.
    var user: String?
    var document: JournalEntry.Document?
    var jobID: Int?
    var response: IPPResponse?
    /// Why the body could not be read as an IPP message.
    var problem: String?

    /// The IPP part of the journal entry, once the request decoded and was answered.
    var ippPart: JournalEntry.IPPPart? {
        guard let message, let response else { return nil }
        let answeredJob = response.groups.lazy.filter { $0.tag == .jobAttributes }
            .compactMap { $0["job-id"]?.value?.integerValue }.first
        return JournalEntry.IPPPart(
            version: message.version.description, operation: message.operation.description,
            operationID: Int(message.code), requestID: Int(message.requestID),
            groups: message.groups.map(JournaledGroup.init), document: document,
            status: response.status.description, statusCode: Int(response.status.rawValue),
            unsupported: response.unsupported.map(JournaledAttribute.init), jobID: jobID ?? answeredJob.map(Int.init))
    }
}

extension PrinterService {
    /// Journals an IPP request once it was answered.
    func journalIPP(_ request: HTTPRequest, exchange: IPPExchange, response: HTTPResponse) {
        guard let journal else { return }
        journal.record(
            JournalEntry(
                id: 0, time: JournalClock.text(secondsSince1970: exchange.startedAt),
                durationMilliseconds: milliseconds(since: exchange.started), kind: .ipp,
                connection: request.connectionNumber, client: journalClient(request), tls: request.isEncrypted,
                user: exchange.user, printer: exchange.printer, http: journalHTTP(request, response),
                ipp: exchange.ippPart, problem: exchange.problem))
    }

    /// Journals an HTTP request that is not IPP (the API, the web page, health checks), but not the journal's own
    /// routes and page: reading the journal does not add to it.
    func journalHTTP(
        _ request: HTTPRequest, response: HTTPResponse, started: ContinuousClock.Instant, startedAt: Double
    ) {
        guard let journal, !request.path.hasPrefix(Self.journalPath), request.path != Self.journalPage else { return }
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
