import Foundation
import HTTPServer
import IPP

extension PrinterService {
    /// GET and HEAD: printer icons, the JSON API and the web page.
    func handleGET(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path.hasPrefix("/api/") { return handleAPI(request) }
        for printer in printers {
            let prefix = printer.configuration.resourcePath + "/icon-"
            if path.hasPrefix(prefix), path.hasSuffix(".png"),
                let size = Int(path.dropFirst(prefix.count).dropLast(4)), PrinterIcon.sizes.contains(size)
            {
                var headers = HTTPHeaders()
                headers.set("Content-Type", "image/png")
                headers.set("Cache-Control", "max-age=3600")
                let color = printer.cache["color-supported"]?.value?.booleanValue ?? false
                return HTTPResponse(
                    status: 200, headers: headers, body: .bytes(PrinterIconImage.png(size: size, color: color)))
            }
        }
        if path == "/" || path == "/index.html" || printer(atPath: path) != nil {
            return HTTPResponse(
                status: 200, text: StatusPage.html(printers: printers), contentType: "text/html; charset=utf-8")
        }
        return HTTPResponse(status: 404, text: "Not found: \(path)\n")
    }

    /// The JSON API (DESIGN.md "JSON API").
    func handleAPI(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else {
            return json(["error": "unknown API path \(request.path)"], status: 404)
        }
        switch parts[2] {
        case "printers" where parts.count == 3:
            return json(printers.map(printerSummary))
        case "jobs" where parts.count == 3:
            let name = request.queryValue("printer")
            let records = printers.filter { name == nil || $0.name == name }
                .flatMap { printer in printer.jobs.map { (printer, $0) } }
                .sorted { $0.1.id < $1.1.id }
                .map { JobRecorder.record(of: $0.1) }
            return json(records)
        case "jobs" where parts.count == 4:
            guard let id = Int(parts[3]), let job = printers.lazy.compactMap({ $0.job(id) }).first else {
                return json(["error": "no job \(parts[3])"], status: 404)
            }
            return json(JobRecorder.record(of: job))
        default:
            return json(["error": "unknown API path \(request.path)"], status: 404)
        }
    }

    func printerSummary(_ printer: Printer) -> [String: Any] {
        let (state, reasons, accepting) = printer.status.withLock { ($0.state, $0.reasons, $0.isAcceptingJobs) }
        return [
            "printer-name": printer.name, "printer-uuid": printer.configuration.uuid,
            "printer-state": state.keyword, "printer-state-reasons": reasons.isEmpty ? ["none"] : reasons,
            "printer-is-accepting-jobs": accepting, "resource": printer.configuration.resourcePath,
        ]
    }

    func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(data) + [0x0A]))
    }
}
