import HTTPServer
import PrinterCore

/// Pages of job records and journal entries (docs/api.md "Paging"): `GET /api/v1/jobs`, `/api/v1/wait` and
/// `GET /api/v1/requests` answer at most `maximumPageSize` records, oldest first, and a `Link` header names the next
/// page when more matched, so that a fleet's thousands of jobs, or a journal's, are never one answer.
extension PrinterService {
    /// The most job records one answer holds; `limit=N` asks for fewer.
    static let maximumPageSize = 1000

    /// The page size a request asks for (`limit`, 1 to `maximumPageSize`; default the maximum); nil when `limit` is
    /// not such a number, or given twice (answer `badPageSize`).
    func pageSize(_ request: HTTPRequest) -> Int? {
        guard let text = request.queryValue("limit") else { return Self.maximumPageSize }
        guard let size = Int(text), (1...Self.maximumPageSize).contains(size),
            request.query.count(where: { $0.name == "limit" }) == 1
        else { return nil }
        return size
    }

    /// The 400 answer to a `limit` that `pageSize` does not take.
    func badPageSize() -> HTTPResponse {
        json(["error": "limit must be a number from 1 to \(Self.maximumPageSize), given once"], status: 400)
    }

    /// The first `size` of `jobs` (oldest first) as a JSON list; when more follow, with
    /// `Link: <the same query with since=the last id listed>; rel="next"`.
    func page(_ jobs: [Job], size: Int, of request: HTTPRequest) -> HTTPResponse {
        guard jobs.count > size else { return jsonList(jobs) }
        var response = jsonList(Array(jobs.prefix(size)))
        linkNextPage(&response, of: request, after: jobs[size - 1].id)
        return response
    }

    /// Names the next page in the answer: `Link: <the same query with since=id>; rel="next"`, `id` the last listed.
    func linkNextPage(_ response: inout HTTPResponse, of request: HTTPRequest, after id: Int) {
        response.headers.set("Link", "<\(nextPage(of: request, after: id))>; rel=\"next\"")
    }

    /// The request's path and query with `since` set to `id`.
    func nextPage(of request: HTTPRequest, after id: Int) -> String {
        target(of: request, setting: "since", to: String(id))
    }

    /// The request's path and query with the parameter `name` set to `value` (in place of any it had).
    func target(of request: HTTPRequest, setting name: String, to value: String) -> String {
        target(of: request, removing: [name], adding: [(name: name, value: value)])
    }

    /// The request's path and query without the parameters named in `removing`, with `adding` after the rest.
    func target(
        of request: HTTPRequest, removing names: Set<String>, adding: [(name: String, value: String)] = []
    ) -> String {
        let pairs = request.query.filter { !names.contains($0.name) } + adding
        guard !pairs.isEmpty else { return request.path }
        return request.path + "?"
            + pairs.map { HTML.percentEncode($0.name) + "=" + HTML.percentEncode($0.value) }.joined(separator: "&")
    }
}
