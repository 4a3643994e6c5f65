import Glibc
import Testing

@testable import HTTPServer

/// Fetching a document by URL (Print-URI, Send-URI): framing, redirects and every limit, against a local server.
@Suite(.timeLimit(.minutes(1))) struct DocumentDownloadTests {
    static let document = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let limits = DocumentDownload.Limits(maximumBytes: 1 << 20, timeout: 10, maximumRedirects: 5)
    /// The test's servers run in this process, so they are its own listeners: the policy here knows none.
    static let policy = FetchPolicy(listeners: [])

    /// Serves the document at /doc (Content-Length), /chunked (a stream), redirects at /to/N (N more hops to
    /// /doc), /loop (to itself), /to-file (to a file: URI), /slow (an answer after 2 s) and 404 elsewhere.
    static let handler = ClosureHandler { request, _ in
        switch request.path {
        case "/doc":
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/pdf"], body: .bytes(document))
        case "/chunked":
            return HTTPResponse(
                status: 200,
                body: .stream { stream in
                    for start in stride(from: 0, to: document.count, by: 70_000) {
                        try stream.write(Array(document[start..<min(start + 70_000, document.count)]))
                    }
                })
        case let path where path.hasPrefix("/to/"):
            let hops = Int(path.dropFirst("/to/".count)) ?? 0
            return HTTPResponse(status: 302, headers: ["Location": hops <= 1 ? "/doc" : "/to/\(hops - 1)"])
        case "/loop":
            return HTTPResponse(status: 301, headers: ["Location": "/loop"])
        case "/to-file":
            return HTTPResponse(status: 302, headers: ["Location": "file:///etc/passwd"])
        case "/slow":
            Syscall.sleep(for: .seconds(2))
            return HTTPResponse(status: 200, body: .bytes(document))
        default:
            return HTTPResponse(status: 404)
        }
    }

    /// Fetches `path` from `server`; the outcome and the bytes the sink got.
    func fetch(
        _ path: String, from server: HTTPServer, limits: DocumentDownload.Limits = Self.limits
    ) -> (Result<DocumentDownload.Outcome, DocumentDownload.Failure>, [UInt8]) {
        var received: [UInt8] = []
        let outcome = DocumentDownload.fetch(
            "http://127.0.0.1:\(server.port)\(path)", limits: limits, policy: Self.policy
        ) { bytes in
            received += bytes
            return true
        }
        return (outcome, received)
    }

    @Test func aDocumentArrivesWholeWithContentLengthOrChunked() throws {
        try withServer(handler: Self.handler) { server in
            let (plain, plainBytes) = fetch("/doc", from: server)
            #expect(plain.map(\.bytes) == .success(Self.document.count))
            #expect(plain.map(\.contentType) == .success("application/pdf"))
            #expect(plainBytes == Self.document)
            let (chunked, chunkedBytes) = fetch("/chunked", from: server)
            #expect(chunked.map(\.bytes) == .success(Self.document.count))
            #expect(chunkedBytes == Self.document)
        }
    }

    @Test func redirectsAreFollowedUpToTheLimit() throws {
        try withServer(handler: Self.handler) { server in
            let (followed, bytes) = fetch("/to/5", from: server)
            #expect(followed.map(\.url) == .success("http://127.0.0.1:\(server.port)/doc"))
            #expect(bytes == Self.document)
            #expect(fetch("/to/6", from: server).0 == .failure(.tooManyRedirects(5)))
            #expect(fetch("/loop", from: server).0 == .failure(.tooManyRedirects(5)))
            #expect(fetch("/to-file", from: server).0 == .failure(.unsupportedScheme("file:///etc/passwd")))
        }
    }

    @Test func sizeTimeAndStatusLimitsFail() throws {
        try withServer(handler: Self.handler) { server in
            var small = Self.limits
            small.maximumBytes = 100_000
            #expect(fetch("/doc", from: server, limits: small).0 == .failure(.tooLarge(limit: 100_000)))
            let (chunked, delivered) = fetch("/chunked", from: server, limits: small)
            #expect(chunked == .failure(.tooLarge(limit: 100_000)))
            #expect(delivered.count <= 100_000, "more than the limit reached the sink")
            var hurried = Self.limits
            hurried.timeout = 0.5
            #expect(fetch("/slow", from: server, limits: hurried).0 == .failure(.timedOut(seconds: 0.5)))
            #expect(fetch("/missing", from: server).0 == .failure(.status(404)))
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() {
        for refused in ["file:///etc/passwd", "gopher://example.com/a.pdf", "/relative", "data:,x"] {
            #expect(!DocumentDownload.isFetchable(refused))
            #expect(
                DocumentDownload.fetch(refused, limits: Self.limits, policy: Self.policy) { _ in true }
                    == .failure(.unsupportedScheme(refused)))
        }
        #expect(DocumentDownload.isFetchable("HTTPS://example.com/a.pdf"))
        #expect(DocumentDownload.isFetchable("ftp://example.com/a.pdf"))
        #expect(
            DocumentDownload.fetch("http://127.0.0.1:1/x", limits: Self.limits, policy: Self.policy) { _ in true }
                .isUnreachable,
            "a closed port is unreachable")
    }

    @Test func aSinkThatFailsStopsTheDownload() throws {
        try withServer(handler: Self.handler) { server in
            var calls = 0
            let outcome = DocumentDownload.fetch(
                "http://127.0.0.1:\(server.port)/doc", limits: Self.limits, policy: Self.policy
            ) { _ in
                calls += 1
                return false
            }
            #expect(outcome == .failure(.refusedBySink))
            #expect(calls == 1)
        }
    }

    @Test func redirectsResolveAgainstTheirOrigin() {
        let base = "http://printer.example:8080/a/b?c"
        #expect(DocumentDownload.resolve("/d", against: base) == "http://printer.example:8080/d")
        #expect(DocumentDownload.resolve("https://other/x", against: base) == "https://other/x")
        #expect(DocumentDownload.resolve("relative", against: base) == nil)
        #expect(DocumentDownload.resolve("//host/x", against: base) == nil)
    }
}

extension Result<DocumentDownload.Outcome, DocumentDownload.Failure> {
    var isUnreachable: Bool {
        if case .failure(.unreachable) = self { return true }
        return false
    }
}
