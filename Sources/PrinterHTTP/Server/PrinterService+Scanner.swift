import HTTPServer
import PrinterCore
import Scanner

/// eSCL (Mopria eSCL, Apple AirScan) at `<printer resource>/eSCL`: ScannerCapabilities, ScannerStatus, ScanJobs,
/// NextDocument, ScanImageInfo and the deletion of a job, for printers whose profile has a scanner (docs/scanning.md). The same
/// credentials as the printer's web page; a scan job is its user's, as a print job is (others get 404 for it and do
/// not see it in ScannerStatus); a switched-off printer's scanner answers nothing.
extension PrinterService {
    /// The last path segment of the eSCL root under a printer's resource path (the `rs` TXT key is the two joined).
    package static let esclSegment = "eSCL"
    /// `/eSCL` as bytes: what `esclTarget` looks for.
    private static let esclMarker = Array("/\(esclSegment)".utf8)

    /// The printer whose scanner a path is under, and the segments after `eSCL`; nil for any other path.
    func esclTarget(_ path: String) -> (printer: Printer, scanner: ScannerDevice, rest: [Substring])? {
        let utf8 = path.utf8
        guard let offset = Self.esclMarkerOffset(in: path) else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: Self.esclMarker.count)
        guard upper == utf8.endIndex || utf8[upper] == UInt8(ascii: "/"),
            let printer = printer(atPath: String(path[..<lower])), let scanner = printer.scanner
        else { return nil }
        let rest = path[upper...].split(separator: "/")
        return (printer, scanner, rest)
    }

    /// Where `/eSCL` first starts in the path's bytes. Every IPP POST is asked this first (the eSCL route comes
    /// before IPP's): Foundation's `range(of:)` took 2 % of the printer's time under a Get-Printer-Attributes
    /// load, the standard library's generic `firstRange(of:)` 8 %; this loop does not show.
    private static func esclMarkerOffset(in path: String) -> Int? {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.count >= esclMarker.count else { return nil }
            for start in 0...(bytes.count - esclMarker.count) where bytes[start] == esclMarker[0] {
                if esclMarker.indices.allSatisfy({ bytes[start + $0] == esclMarker[$0] }) { return start }
            }
            return nil
        }
    }

    /// The eSCL root URL of a printer, as the client reached it: Location headers name jobs by it.
    private func esclRoot(_ printer: Printer, request: HTTPRequest) -> String {
        let authority = request.uriAuthority()
        let scheme = request.isEncrypted ? "https" : "http"
        return "\(scheme)://\(authority)\(printer.configuration.resourcePath)/\(Self.esclSegment)"
    }

    /// Answers an eSCL request (the route's condition has checked that the path is under a scanner).
    func answerESCL(_ request: Route.Matched) -> HTTPResponse {
        guard let (printer, scanner, rest) = esclTarget(request.http.path) else {
            return HTTPResponse(status: 404, text: "Not found.\n")
        }
        guard printer.power.isOn else { return Self.unanswered(printer) }
        let root = esclRoot(printer, request: request.http)
        let method = request.http.method == "HEAD" ? "GET" : request.http.method
        let parts = rest.map(String.init)
        let job = parts.count >= 2 && parts[0] == "ScanJobs" ? parts[1] : nil
        // Another user's job is answered as one that never was (canSee, as for print jobs).
        if let job, parts.count >= 2, let found = scanner.job(uuid: job),
            !canSee(ownedBy: found.user, request.identity)
        {
            return refused(.notFound)
        }
        switch (method, parts.count, parts.first) {
        case ("GET", 1, "ScannerCapabilities"):
            return xml(scanner.capabilities.xml(adminURI: root.dropLast(Self.esclSegment.count) + ""))
        case ("GET", 1, "ScannerStatus"):
            let path = "\(printer.configuration.resourcePath)/\(Self.esclSegment)/ScanJobs/"
            var status = scanner.status
            status.jobs.removeAll { !canSee(ownedBy: $0.user, request.identity) }
            return xml(status.xml(jobPath: { path + $0.uuid }, now: WallClock.now()))
        case ("POST", 1, "ScanJobs"):
            if let refusal = crossSiteScanRefusal(request.http) { return refusal }
            let user = request.identity.userName
            switch scanner.createJob(
                settingsBody: request.body, client: request.http.remoteAddress, user: user, now: WallClock.now())
            {
            case .success(let job):
                printer.log(
                    "scan job \(job.number) created by \(request.http.remoteAddress)"
                        + (user.map { " (user \($0))" } ?? ""))
                var response = HTTPResponse(status: 201)
                response.headers.set("Location", "\(root)/ScanJobs/\(job.uuid)")
                return response
            case .failure(let refusal):
                return refused(refusal)
            }
        case ("GET", 3, "ScanJobs") where parts[2] == "NextDocument":
            switch scanner.nextImage(job: job ?? "") {
            case .success(let (image, path)):
                return HTTPResponse(status: 200, headers: Self.fileHeaders(ofFile: image.file), body: .file(path: path))
            case .failure(let refusal):
                return refused(refusal)
            }
        case ("GET", 3, "ScanJobs") where parts[2] == "ScanImageInfo":
            let path = "\(printer.configuration.resourcePath)/\(Self.esclSegment)/ScanJobs/\(job ?? "")"
            guard let info = scanner.job(uuid: job ?? "")?.imageInfoXML(jobPath: path) else {
                return HTTPResponse(status: 404, text: "No such scan job, or no image delivered yet.\n")
            }
            return xml(info)
        case ("DELETE", 2, "ScanJobs"):
            // Clients delete every job when they are done with it, ended or not (sane-airscan does).
            return scanner.cancel(job: job ?? "")
                ? HTTPResponse(status: 200) : HTTPResponse(status: 404, text: "No such scan job.\n")
        default:
            return HTTPResponse(status: 404, text: "Not found: \(request.http.path)\n")
        }
    }

    /// 403 for a scan job asked by a web page of another site, 415 for settings not sent as XML: a page's form or
    /// script may send text/plain to any site without asking first (CORS), and would otherwise start scans.
    private func crossSiteScanRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        if let origin = foreignOrigin(request) {
            return HTTPResponse(status: 403, text: "A scan job from the web page at \(origin) is refused.\n")
        }
        let mediaType = Self.mediaType(of: request)
        guard mediaType == "text/xml" || mediaType == "application/xml" else {
            return HTTPResponse(status: 415, text: "Scan settings are XML: send them as text/xml.\n")
        }
        return nil
    }

    private func xml(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, text: text, contentType: "text/xml; charset=utf-8")
    }

    /// A refusal as a real scanner answers it: its status, Retry-After when busy, the reason as text.
    private func refused(_ refusal: ScannerRefusal) -> HTTPResponse {
        var response = HTTPResponse(status: refusal.httpStatus, text: refusal.message + "\n")
        if let seconds = refusal.retryAfterSeconds { response.headers.set("Retry-After", String(seconds)) }
        return response
    }
}
