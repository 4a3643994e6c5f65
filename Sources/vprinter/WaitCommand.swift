import Foundation
import HTTPServer
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// `vprinter wait --url URL --count N [--timeout S] [filters]`: blocks until N jobs that pass the filters have
/// ended on a running printer (the JSON API's `GET /api/v1/wait`), prints their records as JSON, exits 0; exits 1
/// on timeout.
struct WaitCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard let url = options.url, let count = options.jobCount else {
            Console.log("error: wait needs --url URL and --count N")
            return 2
        }
        guard let base = Self.apiBase(url) else {
            Console.log("error: --url must be the printer's ipp://, ipps:// or http(s):// URL, not '\(url)'")
            return 2
        }
        do throws(JobQueryError) {
            _ = try JobQuery(parameters: options.filters.map { ($0.name, $0.value) })
        } catch {
            Console.log("error: \(error)")
            return 2
        }
        let filters = options.filters.map { "&\(Self.encoded($0.name))=\(Self.encoded($0.value))" }.joined()
        let request = "\(base)/api/v1/wait?count=\(count)&timeout=\(options.timeout)\(filters)"
        do {
            let response = try HTTPClient.get(request, timeout: options.timeout + 10)
            switch response.status {
            case 200:
                Console.out(String(decoding: response.body, as: UTF8.self))
                return 0
            case 408:
                Console.log("error: timed out after \(options.timeout) s waiting for \(count) jobs to end")
                return 1
            default:
                Console.log(
                    "error: the printer answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
                return 1
            }
        } catch {
            Console.log("error: cannot reach \(base): \(error)")
            return 1
        }
    }

    /// A query name or value percent-encoded (RFC 3986 unreserved characters stay).
    static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `http://host:port` from an `ipp://host:port/...` or `http://host:port/...` URL; `https://host:port` from
    /// `ipps://` or `https://` (a `user:password@` before the host is kept, for `--user` printers).
    static func apiBase(_ url: String) -> String? {
        for scheme in ["ipp://", "http://", "ipps://", "https://"] where url.hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" }
            guard !authority.isEmpty else { return nil }
            let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
            let hasPort = hostPort.hasPrefix("[") ? hostPort.contains("]:") : hostPort.contains(":")
            let secure = scheme.hasPrefix("ipps") || scheme.hasPrefix("https")
            let defaultPort = scheme.hasPrefix("ipp") ? ":631" : ""
            return "\(secure ? "https" : "http")://\(authority)\(hasPort ? "" : defaultPort)"
        }
        return nil
    }
}
