import Foundation
import HTTPServer
import PrinterCore

extension PrinterService {
    /// The icon size when `path` is a printer's icon (`<printer path>/icon-<size>.png`); nil otherwise.
    func icon(at path: String) -> (printer: Printer, size: Int)? {
        guard path.hasSuffix(".png"), let slash = path.lastIndex(of: "/"),
            let printer = printer(atPath: String(path[..<slash]))
        else { return nil }
        let prefix = printer.configuration.resourcePath + "/icon-"
        guard path.hasPrefix(prefix), let size = Int(path.dropFirst(prefix.count).dropLast(4)),
            PrinterIcon.sizes.contains(size)
        else { return nil }
        return (printer, size)
    }

    /// The printer and language of a strings file path (`<resource>/strings/<language>.strings`), if it is one.
    func stringsFile(at path: String) -> (printer: Printer, language: String)? {
        guard path.hasSuffix(".strings"), let marker = path.range(of: "/strings/", options: .backwards),
            let printer = printer(atPath: String(path[..<marker.lowerBound])),
            let language = PrinterStrings.language(atPath: path, resourcePath: printer.configuration.resourcePath)
        else { return nil }
        return (printer, language)
    }

    /// A printer's strings file (PWG 5100.13 printer-strings-uri; the route's condition has checked the path).
    func stringsResponse(at path: String) -> HTTPResponse {
        guard let (printer, language) = stringsFile(at: path) else {
            return HTTPResponse(status: 404, text: "Not found: \(path)\n")
        }
        var response = HTTPResponse(
            status: 200, text: PrinterStrings.file(of: printer.cache, language: language),
            contentType: "text/strings; charset=utf-8")
        response.headers.set("Content-Language", language)
        return response
    }

    /// A printer's icon (the route's condition has checked that `path` is one).
    func iconResponse(at path: String) -> HTTPResponse {
        guard let (printer, size) = icon(at: path) else {
            return HTTPResponse(status: 404, text: "Not found: \(path)\n")
        }
        var headers = HTTPHeaders()
        headers.set("Content-Type", "image/png")
        headers.set("Cache-Control", "max-age=3600")
        let color = printer.cache["color-supported"]?.value?.booleanValue ?? false
        return HTTPResponse(status: 200, headers: headers, body: .bytes(PrinterIconImage.png(size: size, color: color)))
    }

    /// A printer as `GET /api/v1/printers` lists it, with URIs built from the host and port the client used.
    func printerSummary(_ printer: Printer, request: HTTPRequest) -> [String: Any] {
        if let hosted = registry.printer(named: printer.name) { return summary(of: hosted, request: request) }
        return PrinterOverview(printer).json(authority: request.uriAuthority(), secure: request.isEncrypted)
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
