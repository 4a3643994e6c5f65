import Foundation
import HTTPServer

/// What a web page open in the tester's browser could make it send (docs/security.md "Browsers"): requests under a
/// site name pointed at this machine (DNS rebinding), refused unless Host names this printer; API calls from
/// another site's page, refused unless their Origin is the printer's own; and bodies a page may send without
/// asking (a form, text/plain), refused where the API reads JSON.
extension PrinterService {
    /// 421 Misdirected Request (RFC 9110 section 15.5.20) when Host names no name of this printer.
    func misdirectedRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard !hosts.allows(request.host) else { return nil }
        let host = request.host ?? ""
        let text =
            "This printer does not answer to the name \(host): use its address, localhost or its .local name, or "
            + "start it with --allowed-host \(host)."
        guard Self.isAPIPath(request.path) else { return HTTPResponse(status: 421, text: text + "\n") }
        return json(["error": text], status: 421)
    }

    /// 403 for an API call other than GET and HEAD whose Origin is not the printer's own or an allowed one, and
    /// 415 for one whose body is not declared JSON.
    func crossSiteRefusal(_ request: HTTPRequest, readsBody: Bool) -> HTTPResponse? {
        guard request.method != "GET" && request.method != "HEAD" else { return nil }
        if let origin = foreignOrigin(request) {
            return json(
                [
                    "error":
                        "a change from the web page at \(origin) is refused: it is not this printer's own "
                        + "(start the printer with --allow-origin \(origin) to allow it)"
                ], status: 403)
        }
        if readsBody, request.contentLength != 0, !Self.declaresJSON(request) {
            return json(
                [
                    "error":
                        "the body must be JSON, sent with Content-Type: application/json (curl --json, or -H "
                        + "'Content-Type: application/json')"
                ], status: 415)
        }
        return nil
    }

    /// The Origin of a request from a web page that is neither the printer's own nor one `--allow-origin` allows;
    /// nil for any other request.
    func foreignOrigin(_ request: HTTPRequest) -> String? {
        guard let origin = request.headers["Origin"],
            !origins.allows(origin, hostField: request.headers["Host"], isEncrypted: request.isEncrypted)
        else { return nil }
        return origin
    }

    /// The media type of the request's Content-Type, in lower case, without its parameters (such as charset);
    /// nil without a Content-Type.
    static func mediaType(of request: HTTPRequest) -> String? {
        guard let type = request.headers["Content-Type"] else { return nil }
        return (type.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
            .lowercased()
    }

    /// Whether the request's Content-Type is application/json (parameters such as charset allowed).
    static func declaresJSON(_ request: HTTPRequest) -> Bool {
        mediaType(of: request) == "application/json"
    }
}
