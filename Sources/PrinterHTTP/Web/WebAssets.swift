import HTTPServer
import PrinterCore

/// The page's static files, served from the binary at `/web/...`.
///
/// They are Swift string constants (``WebStyle``, ``WebScript``) rather than SwiftPM resources: a resource
/// bundle is a folder beside the executable that `Bundle.module` must find at run time (on Linux it stops the
/// process when it cannot), and the binary is copied on its own into containers and CI caches. Constants go
/// wherever the binary goes and cost no file access. Their URLs carry a hash of the content, so a browser may
/// cache them and never sees a stale one after an upgrade.
enum WebAssets {
    static let styleFile = "/web/vprinter.css"
    static let scriptFile = "/web/vprinter.js"
    static let stylePath = "\(styleFile)?v=\(version(of: WebStyle.css))"
    static let scriptPath = "\(scriptFile)?v=\(version(of: WebScript.source))"
    /// How long a browser may keep an asset, in seconds (its URL changes with its content).
    static let maximumAge = 86_400

    /// The asset at `path` (the query is ignored), or nil.
    static func response(path: String) -> HTTPResponse? {
        let (text, type): (String, String)
        switch path {
        case styleFile: (text, type) = (WebStyle.css, "text/css; charset=utf-8")
        case scriptFile: (text, type) = (WebScript.source, "text/javascript; charset=utf-8")
        default: return nil
        }
        var response = HTTPResponse(status: 200, text: text, contentType: type)
        response.headers.set("Cache-Control", "max-age=\(maximumAge)")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }

    /// FNV-1a of the text, in hex: changes whenever the text does.
    static func version(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
