import Foundation
import HTTPServer
import IPP

extension PrinterService {
    /// GET and HEAD: printer icons, the JSON API and the web page.
    func handleGET(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
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
