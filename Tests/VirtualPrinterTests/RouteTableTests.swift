import Foundation
import HTTPServer
import Testing

@testable import PrinterCore
@testable import PrinterHTTP

/// The one route table (`PrinterService.routes`) against the contract: the API's routes are exactly the paths and
/// methods of docs/openapi.json, and the table decides what an unknown path or a wrong method gets.
@Suite struct RouteTableTests {
    /// `"GET /api/v1/jobs/{id}"` for every operation docs/openapi.json documents.
    static func documentedOperations() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "post", "put", "delete", "patch", "head", "options"]
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where methods.contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test func theAPIRoutesAreExactlyTheOperationsOfTheOpenAPIDocument() throws {
        let routed = Set(PrinterService.routes.filter { $0.surface == .api }.map { "\($0.method) \($0.pattern)" })
        let documented = try Self.documentedOperations()
        #expect(routed.subtracting(documented).sorted() == [], "routes that docs/openapi.json does not document")
        #expect(documented.subtracting(routed).sorted() == [], "documented operations that no route answers")
    }

    @Test func everyAPIPathIsAnAPIRouteAndNoOtherRouteIsUnderTheAPI() {
        for route in PrinterService.routes {
            #expect(
                PrinterService.isAPIPath(route.pattern) == (route.surface == .api), "\(route.method) \(route.pattern)")
        }
    }

    @Test func noTwoRoutesShareAMethodAndPatternUnlessOneHasACondition() {
        var seen: Set<String> = []
        for route in PrinterService.routes where route.condition == nil {
            #expect(seen.insert("\(route.method) \(route.pattern)").inserted, "\(route.method) \(route.pattern)")
        }
    }

    @Test func patternsTakeTheirParametersFromThePath() throws {
        let route = try #require(PrinterService.routes.first { $0.pattern == "/api/v1/jobs/{id}/files/{file}" })
        #expect(
            route.parameters(of: ["api", "v1", "jobs", "7", "files", "page-1.png"]) == [
                "id": "7", "file": "page-1.png",
            ])
        #expect(route.parameters(of: ["api", "v1", "jobs", "7", "files"]) == nil)
        #expect(route.parameters(of: ["api", "v1", "jobs", "", "files", "x"]) == nil)
        #expect(route.parameters(of: ["api", "v1", "jobs", "7", "files", "a", "b"]) == nil)
        let rest = Route("GET", "/web/{asset*}", .web, access: .open) { _, _, _ in HTTPResponse(status: 200) }
        #expect(rest.parameters(of: ["web", "a", "b.css"]) == ["asset": "a/b.css"])
        #expect(rest.parameters(of: ["web"]) == ["asset": ""])
        #expect(rest.parameters(of: ["jobs"]) == nil)
    }

    /// `fits` (tried for every route a request passes) says what `parameters(of:)` says, for each route of the
    /// table and paths that fit, fall short, run over and leave a parameter empty.
    @Test func aRouteFitsExactlyThePathsItHasParametersFor() {
        let paths: [[Substring]] = [
            [], [""], ["ipp", "print"], ["api", "v1", "jobs"], ["api", "v1", "jobs", "7"], ["api", "v1", "jobs", ""],
            ["api", "v1", "jobs", "7", "files", "page-1.png"], ["api", "v1", "jobs", "7", "files", "a", "b"],
            ["api", "v1", "printers", "office", "faults"], ["web", "a", "b.css"], ["web"], ["printers", "x"],
            ["ipp", "print", "eSCL", "ScanJobs"],
        ]
        for route in PrinterService.routes {
            for path in paths {
                #expect(route.fits(path) == (route.parameters(of: path) != nil), "\(route.pattern) \(path)")
            }
        }
    }

    func answer(_ service: PrinterService, _ method: String, _ path: String, body: [UInt8] = []) -> HTTPResponse {
        let request = HTTPRequest(
            method: method, target: path, path: path, headers: ["Content-Type": "application/json"], host: "localhost",
            localPort: 631, contentLength: body.count)
        var stream = HTTPRequestBody(bytes: body)
        return service.handle(request, body: &stream)
    }

    func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aWrongMethodOnAnAPIPathIs405WithTheMethodsItTakes() throws {
        let harness = try PrinterHarness()
        let response = answer(harness.service, "PUT", "/api/v1/jobs")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD")
        #expect(text(response).contains("method PUT not allowed on /api/v1/jobs"))
    }

    @Test func anUnknownAPIPathIs404AndNeverReachesIPPOrTheWebPage() throws {
        let harness = try PrinterHarness()
        let unknown = answer(harness.service, "POST", "/api/v1/nothing")
        #expect(unknown.status == 404)
        #expect(text(unknown).contains("unknown API path /api/v1/nothing"))
        #expect(answer(harness.service, "GET", "/api/v1//jobs").status == 404)
        #expect(text(answer(harness.service, "GET", "/api/v2/jobs")).contains("see /api/v1/printers"))
    }

    @Test func theRoutesAnswerHealthPrintersFaultsAndJobs() throws {
        let harness = try PrinterHarness()
        #expect(answer(harness.service, "GET", "/livez").status == 200)
        #expect(answer(harness.service, "HEAD", "/livez").status == 200)
        #expect(answer(harness.service, "GET", "/api/v1/printers").status == 200)
        #expect(answer(harness.service, "GET", "/api/v1/printers/t/faults").status == 200)
        let noPrinter = answer(harness.service, "GET", "/api/v1/printers/nobody/faults")
        #expect(noPrinter.status == 404)
        #expect(text(noPrinter).contains("no printer nobody"))
        #expect(answer(harness.service, "GET", "/api/v1/jobs/99").status == 404)
        let added = answer(
            harness.service, "POST", "/api/v1/printers/t/faults",
            body: Array(#"{"effect": {"add-reasons": ["media-jam-error"]}}"#.utf8))
        #expect(added.status == 201, "\(text(added))")
    }

    @Test func aBodyLargerThanTheLimitIs413() throws {
        let harness = try PrinterHarness()
        let body = [UInt8](repeating: 0x20, count: Route.maximumBodyBytes + 1)
        #expect(answer(harness.service, "POST", "/api/v1/printers/t/faults", body: body).status == 413)
    }

    @Test func otherPathsGoToTheWebPageOrIPP() throws {
        let harness = try PrinterHarness()
        #expect(answer(harness.service, "GET", "/").status == 200)
        #expect(answer(harness.service, "GET", "/ipp/print").status == 200)
        #expect(answer(harness.service, "GET", "/ipp/print/icon-128.png").status == 200)
        #expect(answer(harness.service, "GET", "/nowhere").status == 404)
        // A POST that is not IPP is refused by the IPP route; other methods are not allowed.
        #expect(answer(harness.service, "POST", "/ipp/print").status == 400)
        let put = answer(harness.service, "PUT", "/ipp/print")
        #expect(put.status == 405)
        #expect(put.headers["Allow"] == "GET, HEAD, POST")
    }
}
