import HTTPServer
import PrinterCore

/// The one route table of the service: every HTTP route of the JSON API, the health checks, the web page and
/// IPP, in the order they are tried. The API's routes are the paths and methods of docs/openapi.json, no more
/// and no fewer (RouteTableTests checks it).
extension PrinterService {
    static let routes: [Route] = [
        // Health and metrics (docs/api.md "Health").
        Route("GET", "/livez", access: .open) { service, _, _ in service.json(["status": "ok"]) },
        Route("GET", "/readyz", access: .open) { service, _, _ in service.readiness() },
        Route("GET", "/metrics", access: .open) { service, _, _ in service.metricsResponse() },

        // Printers, and printers made at runtime (docs/api.md "Printers").
        Route("GET", "/api/v1/printers", access: .open) { service, request, _ in
            service.printerListing(request.http)
        },
        Route("POST", "/api/v1/printers", access: .change, readsBody: true) { service, request, _ in
            service.createPrinter(request.http, body: request.body)
        },
        Route("GET", "/api/v1/printers/{name}", access: .open) { service, request, _ in
            service.printerResponse(request)
        },
        Route("DELETE", "/api/v1/printers/{name}", access: .change) { service, request, _ in
            service.deletePrinter(request)
        },
        Route("POST", "/api/v1/printers/{name}/power", access: .change, readsBody: true) { service, request, _ in
            service.setPower(request)
        },
        Route("POST", "/api/v1/printers/{name}/strict", access: .change, readsBody: true) { service, request, _ in
            service.setStrict(request)
        },

        // Faults and the device (docs/scenarios.md).
        Route("GET", "/api/v1/printers/{name}/faults", access: .reader) { service, request, _ in
            service.withPrinter(request) { service.json($0.faultList) }
        },
        Route("POST", "/api/v1/printers/{name}/faults", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.addFaults($0, body: request.body) }
        },
        Route("DELETE", "/api/v1/printers/{name}/faults", access: .change) { service, request, _ in
            service.withPrinter(request) { service.clearFaults($0, request: request.http) }
        },
        Route("DELETE", "/api/v1/printers/{name}/faults/{id}", access: .change) { service, request, _ in
            service.withPrinter(request) { service.clearFault($0, id: request[parameter: "id"]) }
        },
        Route("POST", "/api/v1/printers/{name}/trays", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.loadTray($0, body: request.body) }
        },
        Route("POST", "/api/v1/printers/{name}/supplies", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.setSupplies($0, body: request.body) }
        },
        Route("POST", "/api/v1/printers/{name}/output-bin", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.setOutputBin($0, body: request.body) }
        },

        // The front panel's calls (docs/api.md "Front panel").
        Route("POST", "/api/v1/printers/{name}/pause", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.setPaused($0, request: request) }
        },
        Route("POST", "/api/v1/printers/{name}/hold-new-jobs", access: .change, readsBody: true) {
            service, request, _ in
            service.withPrinter(request) { service.setHoldNewJobs($0, request: request) }
        },
        Route("GET", "/api/v1/printers/{name}/scenarios", access: .reader) { service, request, _ in
            service.withPrinter(request) { service.json(service.scenarioList($0)) }
        },
        Route("POST", "/api/v1/printers/{name}/scenarios", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { service.playScenario($0, body: request.body) }
        },
        Route("DELETE", "/api/v1/printers/{name}/scenarios/{scenario}", access: .change) { service, request, _ in
            service.withPrinter(request) { service.stopScenario($0, name: request[parameter: "scenario"]) }
        },

        // Jobs, their files and text, waiting and events (docs/api.md "Jobs").
        Route("GET", "/api/v1/jobs", access: .reader) { service, request, _ in
            service.listJobs(request.http, identity: request.identity)
        },
        Route("DELETE", "/api/v1/jobs", access: .change) { service, request, _ in service.deleteJobs(request.http) },
        Route("GET", "/api/v1/jobs/{id}", access: .reader) { service, request, _ in
            service.withJob(request) { service.jsonBytes(JobRecorder.json(of: $0)) }
        },
        Route("GET", "/api/v1/jobs/{id}/files/{file}", access: .reader) { service, request, _ in
            service.withJob(request) { _ in
                service.jobFile(jobID: request[parameter: "id"], name: request[parameter: "file"])
            }
        },
        Route("GET", "/api/v1/jobs/{id}/text", access: .reader) { service, request, _ in
            service.withJob(request) { _ in service.jobText(jobID: request[parameter: "id"]) }
        },
        Route("POST", "/api/v1/jobs/{id}/release", access: .change, readsBody: true) { service, request, _ in
            service.releaseAtPrinter(jobID: request[parameter: "id"], body: request.body)
        },
        Route("GET", "/api/v1/wait", access: .reader) { service, request, _ in
            service.wait(request.http, identity: request.identity)
        },
        Route("GET", "/api/v1/events", access: .reader) { service, request, _ in
            service.eventStream(request.http, identity: request.identity)
        },

        // Scans and the scanner (docs/api.md "Scans", docs/scanning.md).
        Route("GET", "/api/v1/scans", access: .reader) { service, request, _ in
            service.listScans(request.http, identity: request.identity)
        },
        Route("GET", "/api/v1/scans/wait", access: .reader) { service, request, _ in
            service.waitForScans(request.http, identity: request.identity)
        },
        Route("GET", "/api/v1/scans/{id}", access: .reader) { service, request, _ in
            service.scanRecord(request[parameter: "id"], identity: request.identity)
        },
        Route("GET", "/api/v1/scans/{id}/files/{file}", access: .reader) { service, request, _ in
            service.scanFile(request[parameter: "id"], name: request[parameter: "file"], identity: request.identity)
        },
        Route("GET", "/api/v1/printers/{name}/scanner", access: .reader) { service, request, _ in
            service.withPrinter(request) { printer in
                service.withScanner(printer) { scanner in service.scannerState(printer, scanner) }
            }
        },
        Route("POST", "/api/v1/printers/{name}/scanner", access: .change, readsBody: true) { service, request, _ in
            service.withPrinter(request) { printer in
                service.withScanner(printer) { service.setScanner(printer, $0, body: request.body) }
            }
        },
        Route("PUT", "/api/v1/printers/{name}/scanner/source", access: .change) { service, request, body in
            service.withPrinter(request) { printer in
                service.withScanner(printer) {
                    service.receiveScanSource(printer, $0, request: request.http, body: &body)
                }
            }
        },
        Route("DELETE", "/api/v1/printers/{name}/scanner/source", access: .change) { service, request, _ in
            service.withPrinter(request) { printer in
                service.withScanner(printer) { service.resetScanSource(printer, $0) }
            }
        },

        // The request journal: what clients asked, and verifying it (docs/api.md "Requests").
        Route("GET", "/api/v1/requests", access: .reader) { service, request, _ in
            service.listRequests(request.http, identity: request.identity)
        },
        Route("DELETE", "/api/v1/requests", access: .change) { service, _, _ in service.clearRequests() },
        Route("GET", "/api/v1/requests/wait", access: .reader) { service, request, _ in
            service.waitForRequests(request.http, identity: request.identity)
        },
        Route("POST", "/api/v1/requests/verify", access: .reader, readsBody: true) { service, request, _ in
            service.verifyRequests(request)
        },
        Route("GET", "/api/v1/requests/events", access: .reader) { service, request, _ in
            service.requestEvents(request.http, identity: request.identity)
        },
        Route("GET", "/api/v1/clients", access: .reader) { service, request, _ in
            service.clientReport(request.http, identity: request.identity)
        },

        // The web page (docs/web.md): its assets, the pages, and each printer's icons and front panel at the
        // printer's own path.
        Route("GET", "/web/{asset*}", .web, access: .open) { _, request, _ in
            WebAssets.response(path: request.http.path) ?? HTTPResponse(status: 404, text: "Not found.\n")
        },
        Route("GET", "/", .web, access: .reader) { service, request, _ in service.homePage(request) },
        Route("GET", "/index.html", .web, access: .reader) { service, request, _ in service.homePage(request) },
        Route("GET", "/printers/{name}", .web, access: .reader) { service, request, _ in
            service.printerPage(named: request[parameter: "name"], request: request)
        },
        Route("GET", "/jobs/{id}", .web, access: .reader) { service, request, _ in
            service.jobPage(request[parameter: "id"], request: request)
        },
        Route("GET", "/requests", .web, access: .reader) { service, request, _ in service.requestsPage(request) },
        // eSCL, at a scanning printer's resource path (docs/scanning.md): capabilities, status, scan jobs and their
        // images, with the printer's credentials.
        Route("GET", "/{path*}", .web, access: .reader, when: { $0.esclTarget($1.path) != nil }) {
            service, request, _ in service.answerESCL(request)
        },
        Route("POST", "/{path*}", .web, access: .reader, readsBody: true, when: { $0.esclTarget($1.path) != nil }) {
            service, request, _ in service.answerESCL(request)
        },
        Route("DELETE", "/{path*}", .web, access: .reader, when: { $0.esclTarget($1.path) != nil }) {
            service, request, _ in service.answerESCL(request)
        },
        Route("GET", "/{path*}", .web, access: .open, when: { $0.icon(at: $1.path) != nil }) { service, request, _ in
            service.iconResponse(at: request.http.path)
        },
        // printer-strings-uri: what a client shows for the printer's keywords, open as Get-Printer-Attributes is.
        Route("GET", "/{path*}", .web, access: .open, when: { $0.stringsFile(at: $1.path) != nil }) {
            service, request, _ in service.stringsResponse(at: request.http.path)
        },
        Route("GET", "/{path*}", .web, access: .reader) { service, request, _ in
            service.printerPage(atPath: request.http.path, request: request)
        },

        // IPP: a POST anywhere else; the operation's printer-uri names the printer (or the System Service).
        Route("POST", "/{path*}", .ipp, access: .open) { service, request, body in
            service.answerIPP(request.http, body: &body)
        },
    ]

    /// Answers a request by the first route of ``routes`` its method and path fit.
    func route(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        let isAPI = Self.isAPIPath(request.path)
        if isAPI, let refusal = apiPathRefusal(request) { return refusal }
        var segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments == [""] { segments = [] }
        let path = Array(segments)
        // The method and the surface first: they are two comparisons, and most requests are IPP POSTs that only
        // the last route takes (API routes take only API paths, and only they take them).
        for route in Self.routes where route.accepts(method: request.method) && (route.surface == .api) == isAPI {
            guard route.fits(path), route.condition?(self, request) ?? true else { continue }
            return answer(request, by: route, path: path, body: &body)
        }
        // No route takes this method here: 405 where the path is a route's, 404 otherwise.
        let allowed = Self.routes.filter { route in
            (route.surface == .api) == isAPI && route.fits(path)
                && route.condition?(self, request) ?? true
        }.map(\.method)
        let allow = Set(allowed.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }).sorted().joined(separator: ", ")
        guard isAPI else {
            var response = HTTPResponse(status: 405, text: "Method not allowed.\n")
            response.headers.set("Allow", allow)
            return response
        }
        guard !allowed.isEmpty else { return json(["error": "unknown API path \(request.path)"], status: 404) }
        var response = json(["error": "method \(request.method) not allowed on \(request.path)"], status: 405)
        response.headers.set("Allow", allow)
        return response
    }

    /// Checks the route's access, reads its body, and answers.
    private func answer(
        _ request: HTTPRequest, by route: Route, path: [Substring], body: inout HTTPRequestBody
    ) -> HTTPResponse {
        var identity = ClientIdentity.anonymous
        if route.surface == .api, let refusal = crossSiteRefusal(request, readsBody: route.readsBody) {
            return refusal
        }
        switch route.access {
        case .open: break
        case .reader:
            switch admit(request, needsCredentials: true) {
            case .allowed(let client): identity = client
            case .refused(let response): return response
            }
        case .change:
            if let refusal = refuseMutation(request) { return refusal }
        }
        var bytes: [UInt8] = []
        if route.readsBody {
            guard let read = try? body.readAll(maximum: Route.maximumBodyBytes) else {
                return json(["error": "the request body is too large"], status: 413)
            }
            bytes = read
        }
        let matched = Route.Matched(
            http: request, segments: route.segments, path: path, body: bytes, identity: identity)
        return route.answer(self, matched, &body)
    }

    /// Whether a path is the JSON API's or a health check's: such paths never reach the web page or IPP.
    static func isAPIPath(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/") || path == "/livez" || path == "/readyz" || path == "/metrics"
    }

    /// The 404 for API paths that can name nothing: empty segments (`//`, a trailing `/`), encoded slashes (a file
    /// name is one plain segment of the raw target), or outside `/api/v1/`.
    private func apiPathRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.path.hasPrefix("/api") else { return nil }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let rawPath = request.target.prefix { $0 != "?" }.lowercased()
        guard !parts.contains(""), !rawPath.contains("%2f"), !rawPath.contains("%5c") else {
            return json(["error": "no such API path: \(request.path)"], status: 404)
        }
        guard parts.count >= 3, parts.prefix(2).elementsEqual(["api", "v1"]) else {
            return json(["error": "unknown API path \(request.path); see /api/v1/printers"], status: 404)
        }
        return nil
    }

    /// The printer a route's `{name}` names: its name, or its name as a path segment (what
    /// `/ipp/print/<segment>` uses with several printers); 404 when there is none.
    func withPrinter(_ request: Route.Matched, _ answer: (Printer) -> HTTPResponse) -> HTTPResponse {
        let name = request[parameter: "name"]
        guard
            let printer = printers.first(where: {
                $0.name == name || PrinterConfiguration.pathSegment(for: $0.name) == name
            })
        else {
            return json(["error": "no printer \(name)"], status: 404)
        }
        return answer(printer)
    }

    /// The job a route's `{id}` names, if the caller may see it; 404 otherwise.
    func withJob(_ request: Route.Matched, _ answer: (Job) -> HTTPResponse) -> HTTPResponse {
        let id = request[parameter: "id"]
        guard let job = job(id) else { return peerJob(request.http, id: id) }
        guard canSee(job, request.identity) else { return json(["error": "no job \(id)"], status: 404) }
        return answer(job)
    }
}
