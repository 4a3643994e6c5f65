import Foundation
import HTTPServer
import PrintModel
import PrinterCore
import RequestJournal

/// The request journal's routes (docs/api.md "Requests"): the entries a filter selects, waiting for them, clearing
/// the journal, verifying it, and a stream of new entries. Under `--user`, a user who is not an admin sees the
/// requests made with their own credentials only.
extension PrinterService {
    /// The entries one page of `GET /api/v1/requests` holds at most, by their estimates
    /// (`JournalEntry.retainedBytes`), besides its `limit`: a page of a thousand requests of a megabyte each
    /// would otherwise be an answer of gigabytes. A page holds its first entry whatever it holds.
    static let maximumRequestsPageBytes = 16 << 20

    /// `GET /api/v1/requests`: the journal's entries the filters select, oldest first, a page at a time (at most
    /// `limit` entries and `maximumRequestsPageBytes`; `Link` names the next page, docs/api.md "Paging").
    func listRequests(_ request: HTTPRequest, identity: ClientIdentity) -> HTTPResponse {
        withJournal { journal in
            guard let size = pageSize(request) else { return badPageSize() }
            switch requestFilter(request, otherNames: ["limit"]) {
            case .failure(let refusal): return refusal.response
            case .success(let filter):
                let page = journal.page(
                    matching: filter, where: visibility(identity), limit: size,
                    byteLimit: Self.maximumRequestsPageBytes)
                var response = entriesResponse(page.entries)
                if page.more, let last = page.entries.last {
                    linkNextPage(&response, of: request, after: last.id)
                }
                return response
            }
        }
    }

    /// `GET /api/v1/requests/wait?count=N`: answers once N entries match the filters (with them), or after
    /// `timeout` seconds with 408 and those there are. N is at most a page (`maximumPageSize`); a wait holds one of
    /// its client's stream slots (`eventStreams`, 503 past them) while it waits, and each time an entry is
    /// recorded looks only at the entries after those it looked at before.
    func waitForRequests(_ request: HTTPRequest, identity: ClientIdentity) -> HTTPResponse {
        withJournal { journal in
            guard let countText = request.queryValue("count"), let count = Int(countText), count > 0,
                count <= Self.maximumPageSize
            else {
                return json(["error": "wait needs count=N with N from 1 to \(Self.maximumPageSize)"], status: 400)
            }
            guard let timeout = waitTimeout(request) else { return badWaitTimeout() }
            let filter: RequestFilter
            switch requestFilter(request, otherNames: ["count", "timeout"]) {
            case .failure(let refusal): return refusal.response
            case .success(let value): filter = value
            }
            let client = request.remoteAddress
            guard eventStreams.take(for: client) else { return tooManyStreams() }
            defer { eventStreams.release(for: client) }
            let deadline = Date(timeIntervalSinceNow: timeout)
            let isVisible = visibility(identity)
            var matching: [JournalEntry] = []
            var cursor = 0
            while true {
                let page = journal.page(
                    matching: filter, after: cursor, where: isVisible, limit: count - matching.count)
                matching += page.entries
                cursor = page.through
                if matching.count >= count { return entriesResponse(matching) }
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 || !journal.waitForEntries(after: cursor, timeout: remaining) {
                    let error = "timed out with \(matching.count) of \(count) requests"
                    return encoded(RequestsTimedOut(error: error, requests: matching), status: 408)
                }
            }
        }
    }

    /// `DELETE /api/v1/requests`: empties the journal's memory (the file keeps every entry; numbering goes on).
    func clearRequests() -> HTTPResponse {
        withJournal { journal in
            journal.clear()
            return json(["cleared": true, "last": journal.lastID])
        }
    }

    /// `POST /api/v1/requests/verify`: whether the journal holds what the verification asks; 200 with
    /// `"pass": false` and the near misses when it does not, 400 when the verification cannot be read.
    func verifyRequests(_ request: Route.Matched) -> HTTPResponse {
        withJournal { journal in
            let verification: Verification
            do {
                let body = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
                verification = try Verification(json: body)
            } catch let error as JournalError {
                return json(["error": error.description], status: 400)
            } catch {
                return json(["error": "the verification is not JSON: \(error)"], status: 400)
            }
            var filter = RequestFilter()
            filter.since = verification.since.map { .entry($0) }
            let result = verification.evaluate(visibleEntries(journal, filter, request.identity))
            return encoded(result, status: 200)
        }
    }

    /// `GET /api/v1/requests/events`: server-sent events, one `request` event per new entry the filters select,
    /// with the entry as its data and its number as the event id (`Last-Event-ID` or `since` resumes after one).
    func requestEvents(_ request: HTTPRequest, identity: ClientIdentity) -> HTTPResponse {
        withJournal { journal in
            var filter: RequestFilter
            switch requestFilter(request, otherNames: []) {
            case .failure(let refusal): return refusal.response
            case .success(let value): filter = value
            }
            if let resume = request.headers["Last-Event-ID"].flatMap({ Int($0) }) { filter.since = .entry(resume) }
            if filter.since == nil { filter.since = .entry(journal.lastID) }
            let client = request.remoteAddress
            guard eventStreams.take(for: client) else { return tooManyStreams() }
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/event-stream")
            headers.set("Cache-Control", "no-cache")
            let encoder = Self.entryEncoder(pretty: false)
            let start = filter
            return HTTPResponse(
                status: 200, headers: headers,
                body: .stream { stream in
                    defer { self.eventStreams.release(for: client) }
                    try stream.write(": vprinter requests\n\n")
                    try stream.flush()
                    let filter = start
                    var after = if case .entry(let id)? = filter.since { id } else { 0 }
                    let isVisible = self.visibility(identity)
                    while !stream.isServerStopping {
                        let page = journal.page(matching: filter, after: after, where: isVisible, limit: .max)
                        for entry in page.entries {
                            try stream.write("id: \(entry.id)\nevent: request\ndata: ")
                            try stream.write(Array((try? encoder.encode(entry)) ?? Data()))
                            try stream.write("\n\n")
                        }
                        after = page.through
                        // Sent before the wait: a new entry reaches the client at once, not with the next one.
                        try stream.flush()
                        if !journal.waitForEntries(after: after, timeout: Self.eventKeepAliveInterval) {
                            try stream.write(": keep-alive\n\n")
                        }
                    }
                })
        }
    }

    /// `GET /api/v1/clients[?printer=NAME]`: each client's requests and findings, counted as they arrived (since the
    /// start or the last `DELETE /api/v1/requests`). Under `--user`, only admins may see every client.
    func clientReport(_ request: HTTPRequest, identity: ClientIdentity) -> HTTPResponse {
        withJournal { journal in
            if let unknown = request.query.first(where: { $0.name != "printer" }) {
                return json(["error": "unknown parameter '\(unknown.name)' (parameters: printer)"], status: 400)
            }
            guard !access.isEnabled || identity.isAdmin else {
                return json(["error": "the clients' report is for admins"], status: 403)
            }
            return encoded(journal.clients(printer: request.queryValue("printer")), status: 200)
        }
    }

    /// `/requests`: the journal on the web page.
    func requestsPage(_ request: Route.Matched) -> HTTPResponse {
        let entries = journal.map { visibleEntries($0, RequestFilter(), request.identity) } ?? []
        return html(RequestsPage.html(entries, isOn: journal != nil))
    }

    // MARK: Helpers

    private struct RequestsTimedOut: Encodable {
        let error: String
        let requests: [JournalEntry]
    }

    private func withJournal(_ answer: (Journal) -> HTTPResponse) -> HTTPResponse {
        guard let journal else {
            return json(["error": "the request journal is off (--journal-size 0)"], status: 404)
        }
        return answer(journal)
    }

    private func requestFilter(_ request: HTTPRequest, otherNames: Set<String>) -> Result<RequestFilter, Refusal> {
        do throws(JournalError) {
            return .success(try RequestFilter(parameters: request.query.filter { !otherNames.contains($0.name) }))
        } catch {
            return .failure(Refusal(response: json(["error": error.description], status: 400)))
        }
    }

    /// The entries the filter selects that the client may see: all of them unless credentials are asked for and
    /// the client is no admin, who sees the requests made with their own credentials.
    func visibleEntries(_ journal: Journal, _ filter: RequestFilter, _ identity: ClientIdentity)
        -> [JournalEntry]
    {
        journal.page(matching: filter, where: visibility(identity), limit: .max).entries
    }

    /// Whether the client may see an entry: every one unless credentials are asked for and the client is no
    /// admin, who sees the requests made with their own credentials.
    func visibility(_ identity: ClientIdentity) -> @Sendable (JournalEntry) -> Bool {
        guard access.isEnabled, !identity.isAdmin else { return { _ in true } }
        let user = identity.userName
        return { $0.user != nil && $0.user == user }
    }

    private func entriesResponse(_ entries: [JournalEntry]) -> HTTPResponse {
        jsonBytes(JournalEntry.jsonArray(entries), status: 200)
    }

    private func encoded(_ value: some Encodable, status: Int) -> HTTPResponse {
        guard let data = try? Self.entryEncoder(pretty: true).encode(value) else {
            return json(["error": "the answer could not be encoded"], status: 500)
        }
        return jsonBytes(Array(data), status: status)
    }

    static func entryEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return encoder
    }

    /// An answer that ends a request early.
    struct Refusal: Error {
        let response: HTTPResponse
    }
}
