import Foundation
import HTTPServer
import PrintModel
import RequestJournal
import Testing

@testable import PrinterCore
@testable import PrinterHTTP

/// The journal's routes bound what one call makes the printer do: `GET /api/v1/requests` answers a page at a time,
/// a `requests/wait` answers at most a page and holds one of its client's stream slots while it waits.
@Suite(.timeLimit(.minutes(1))) struct RequestsRouteTests {
    let harness: PrinterHarness
    let service: PrinterService
    let journal = Journal()

    init() throws {
        harness = try PrinterHarness()
        service = PrinterService(printers: [harness.printer], journal: journal)
    }

    func get(_ target: String, from address: String = "127.0.0.1") -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        let path = String(parts[0])
        // The targets here need no percent-decoding.
        let query: [(name: String, value: String)] =
            parts.count < 2
            ? []
            : parts[1].split(separator: "&").map { pair in
                let sides = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (name: sides[0], value: sides.count > 1 ? sides[1] : "")
            }
        let request = HTTPRequest(
            method: "GET", target: target, path: path, query: query, host: "localhost", remoteAddress: address,
            localPort: 631)
        var body = HTTPRequestBody(bytes: [])
        return service.handle(request, body: &body)
    }

    func ids(_ response: HTTPResponse) throws -> [Int] {
        guard case .bytes(let bytes) = response.body else { return [] }
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        return entries.compactMap { $0["id"] as? Int }
    }

    /// docs/api.md "Paging": the same `limit` and `Link` as the jobs listing.
    @Test func theListingIsPagedWithALinkToTheNext() throws {
        for _ in 0..<5 { #expect(get("/livez").status == 200) }
        let first = get("/api/v1/requests?kind=http&limit=2")
        #expect(try ids(first) == [1, 2])
        let link = try #require(first.headers["Link"])
        #expect(link == "</api/v1/requests?kind=http&limit=2&since=2>; rel=\"next\"")
        let second = get("/api/v1/requests?kind=http&limit=2&since=2")
        #expect(try ids(second) == [3, 4])
        let last = get("/api/v1/requests?kind=http&limit=2&since=4")
        #expect(try ids(last) == [5])
        #expect(last.headers["Link"] == nil)
        #expect(get("/api/v1/requests?limit=0").status == 400)
        #expect(get("/api/v1/requests?limit=1001").status == 400)
        #expect(try ids(get("/api/v1/requests")) == [1, 2, 3, 4, 5])
    }

    @Test func aWaitAsksForAtMostAPage() {
        #expect(get("/api/v1/requests/wait?count=\(PrinterService.maximumPageSize + 1)&timeout=0").status == 400)
        #expect(get("/api/v1/requests/wait?count=\(PrinterService.maximumPageSize)&timeout=0").status == 408)
        #expect(get("/api/v1/requests/wait?count=1&timeout=3601").status == 400)
    }

    /// Issue 40: a wait held no slot, so one client could hold a thread per wait without bound.
    @Test func aWaitHoldsOneOfItsClientsStreamSlots() {
        for _ in 0..<PrinterService.maximumEventStreamsPerClient {
            #expect(get("/api/v1/events", from: "10.0.0.5").status == 200)
        }
        #expect(get("/api/v1/requests/wait?count=1&timeout=0", from: "10.0.0.5").status == 503)
        #expect(get("/api/v1/requests/wait?count=1&timeout=0&kind=ipp", from: "10.0.0.6").status == 408)
        // The slot a wait took is given back when it answers.
        #expect(service.eventStreams.taken == PrinterService.maximumEventStreamsPerClient)
    }

    /// A wait counts the entries there were and those that come while it waits, each once.
    @Test func aWaitIsWokenByNewEntriesAndCountsEachOnce() async throws {
        #expect(get("/livez").status == 200)
        let service = self.service
        // The wait blocks its thread until it answers: on a thread of Dispatch's, not of the tasks' cooperative pool,
        // which has one thread a core, so that the requests it waits for are not held up behind it (on two loaded
        // cores it took a pool thread the test's own task needed, and answered 408 after its 30 seconds).
        let wait = { @Sendable () -> (Int, [Int]) in
            let request = HTTPRequest(
                method: "GET", target: "/api/v1/requests/wait?count=3&kind=http&timeout=30",
                path: "/api/v1/requests/wait", query: [("count", "3"), ("kind", "http"), ("timeout", "30")],
                host: "localhost", localPort: 631)
            var body = HTTPRequestBody(bytes: [])
            let response = service.handle(request, body: &body)
            guard case .bytes(let bytes) = response.body,
                let entries = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]]
            else { return (response.status, []) }
            return (response.status, entries.compactMap { $0["id"] as? Int })
        }
        let waiter = Task {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: wait()) }
            }
        }
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(50))
            #expect(get("/livez").status == 200)
        }
        let (status, answered) = await waiter.value
        #expect(status == 200)
        #expect(answered == [1, 2, 3])
    }

    /// The page shows the first values of an attribute of many, and how many it has (the API has them all).
    @Test func thePageShowsTheFirstValuesOfAnAttributeOfMany() {
        let many = JournaledAttribute(
            name: "x-many", values: (0..<1000).map { JournaledValue(tag: "integer", value: .number(Double($0))) })
        let html = RequestsPage.attributes([many], caption: "job-attributes-tag")
        #expect(html.components(separatedBy: "<tr>").count - 1 == RequestsPage.maximumValuesShown + 1)
        #expect(html.contains("the first \(RequestsPage.maximumValuesShown) of 1,000 values"))
        #expect(html.contains(">99<") && !html.contains(">100<"))
    }
}
