import Foundation
import HTTPServer
import PrinterCore

/// The web page's answers: `/` (printers and jobs), `/printers/<name>` and each printer's own path
/// (its front panel), `/jobs/<id>` (the viewer); the page's assets under `/web/` are the same for everyone and
/// need no credentials. The routes are in ``PrinterService/routes``. With credentials asked for
/// (`--user`), a reader who is not an admin sees their own jobs only, as in the API (docs/security.md).
extension PrinterService {
    /// `/` and `/index.html`: every printer, and the jobs of the filters in the query.
    func homePage(_ request: Route.Matched) -> HTTPResponse {
        html(HomePage.html(webContext(request.http, identity: request.identity)))
    }

    /// `/printers/<name>`: a printer's front panel.
    func printerPage(named name: String, request: Route.Matched) -> HTTPResponse {
        guard let hosted = registry.printer(named: name) else {
            return html(notFound("There is no printer \(name)."), status: 404)
        }
        return html(FrontPanel.html(hosted, context: webContext(request.http, identity: request.identity)))
    }

    /// A printer's own path (`/ipp/print`): its front panel, as a browser opening the printer's URI shows it.
    func printerPage(atPath path: String, request: Route.Matched) -> HTTPResponse {
        guard let hosted = registry.printer(atPath: path) else {
            return HTTPResponse(status: 404, text: "Not found: \(path)\n")
        }
        return html(FrontPanel.html(hosted, context: webContext(request.http, identity: request.identity)))
    }

    /// `/jobs/<id>`: a job, its sides and its neighbours among the jobs this reader may see.
    func jobPage(_ id: String, request: Route.Matched) -> HTTPResponse {
        guard let job = job(id), canSee(job, request.identity),
            let printer = printers.first(where: { $0.job(job.id) != nil })
        else {
            return html(notFound("There is no job \(id)."), status: 404)
        }
        let context = webContext(request.http, identity: request.identity)
        return html(JobPage.html(job, printer: printer, neighbours: neighbours(of: job.id, visible: context.visible)))
    }

    /// What the pages need of the service, for this reader.
    func webContext(_ request: HTTPRequest, identity: ClientIdentity) -> WebContext {
        let everyJob = !access.isEnabled || identity.isAdmin
        return WebContext(
            printers: registry.all, canCreatePrinters: fleet.withLock { $0 } != nil,
            profileDirectories: profileDirectories, query: request.query,
            visible: everyJob ? nil : { self.canSee($0, identity) },
            visibleScans: everyJob ? nil : { self.canSee(ownedBy: $0.user, identity) })
    }

    /// The ids of the jobs just before and after `id`, over every printer, among those `visible` keeps.
    func neighbours(of id: Int, visible: ((Job) -> Bool)? = nil) -> JobPage.Neighbours {
        var neighbours = JobPage.Neighbours()
        for printer in printers {
            for other in printer.jobIDList {
                if let visible, other != id, !(printer.job(other).map(visible) ?? false) { continue }
                if other < id && (neighbours.older ?? 0) < other { neighbours.older = other }
                if id < other && other < (neighbours.newer ?? Int.max) { neighbours.newer = other }
            }
        }
        return neighbours
    }

    /// A page that says what was not found.
    func notFound(_ message: String) -> String {
        HTML.page(
            title: "Not found",
            body: "<h1>Not found</h1><p>\(HTML.escape(message))</p><p><a href=\"/\">All printers and jobs</a></p>")
    }

    /// A web page; never cached, since it shows live state. Scripts and styles come only from this server.
    func html(_ text: String, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse(status: status, text: text, contentType: "text/html; charset=utf-8")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
                + "frame-ancestors 'self'; form-action 'self'")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}

extension Printer {
    /// The ids of this printer's jobs, in creation order (without copying the jobs).
    var jobIDList: [Int] {
        restoring.wait()
        return status.withLock { $0.jobOrder }
    }

    /// How many jobs the printer holds.
    var jobCount: Int {
        restoring.wait()
        return status.withLock { $0.jobOrder.count }
    }
}
