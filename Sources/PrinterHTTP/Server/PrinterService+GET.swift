import Foundation
import HTTPServer
import IPP
import PrinterCore

extension PrinterService {
    /// GET and HEAD: printer icons, the JSON API and the web page.
    func handleGET(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        // The icon's printer by its path (one lookup, however many printers run).
        if path.hasSuffix(".png"), let slash = path.lastIndex(of: "/"),
            let printer = printer(atPath: String(path[..<slash]))
        {
            let prefix = printer.configuration.resourcePath + "/icon-"
            if path.hasPrefix(prefix),
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
        if let asset = webAsset(request) { return asset }
        let identity: ClientIdentity
        switch admit(request, needsCredentials: true) {
        case .allowed(let client): identity = client
        case .refused(let response): return response
        }
        if let page = webPage(request, identity: identity) { return page }
        return HTTPResponse(status: 404, text: "Not found: \(path)\n")
    }

    /// A printer as `GET /api/v1/printers` lists it, with URIs built from the host and port the client used.
    func printerSummary(_ printer: Printer, request: HTTPRequest) -> [String: Any] {
        if let hosted = registry.printer(named: printer.name) { return summary(of: hosted, request: request) }
        let host = request.host ?? "localhost"
        return PrinterOverview(printer).json(authority: "\(host):\(request.localPort)", secure: request.isEncrypted)
    }

    func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(data) + [0x0A]))
    }
}
