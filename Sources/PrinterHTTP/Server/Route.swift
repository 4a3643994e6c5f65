import HTTPServer
import PrinterCore

/// One entry of the service's route table (``PrinterService/routes``): a method, a path pattern, who may call
/// it, whether its JSON body is read first, and what answers it.
struct Route: Sendable {
    /// What a route belongs to: the JSON API and health checks are the contract in docs/openapi.json; the web
    /// page and IPP are described in docs/web.md and docs/api.md.
    enum Surface: Sendable {
        /// `/api/v1/...`, `/livez`, `/readyz`, `/metrics`: every such route is in docs/openapi.json.
        case api
        /// The web page, its assets and the printers' icons.
        case web
        /// IPP over HTTP (RFC 8010 section 4): the printer is the one the request's printer-uri names.
        case ipp
    }

    /// Who may call a route when credentials are asked for (`--user`, docs/security.md).
    enum Access: Sendable {
        /// Anyone: health, metrics, the printer list, icons and assets; IPP decides per operation.
        case open
        /// A known user (or the API token); the answer is what that user may see.
        case reader
        /// A change: the API token, or an admin's credentials; without either, loopback only.
        case change
    }

    /// One segment of a path pattern: a fixed word, or a named parameter (`{name}` in the pattern).
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// `{path*}`, last only: the rest of the path, any number of segments joined with `/`.
        case rest(String)
    }

    /// A request that matched a route, with what the route took from it.
    struct Matched {
        let http: HTTPRequest
        /// The route's pattern and the request's path segments, which the pattern fits: a parameter's value is
        /// taken from them when asked for (the IPP route never asks for its `{path*}`).
        let segments: [Segment]
        let path: [Substring]
        /// The body, read when the route reads one (at most ``Route/maximumBodyBytes``); empty otherwise.
        let body: [UInt8]
        /// Who called: anonymous unless the route's access asked for credentials.
        let identity: ClientIdentity

        /// The value of the pattern's parameter of this name; empty when it has none.
        subscript(parameter name: String) -> String { Route.value(of: name, segments: segments, path: path) ?? "" }
    }

    typealias Answer = @Sendable (PrinterService, Matched, inout HTTPRequestBody) -> HTTPResponse
    /// A further test of a request a pattern fits (an icon at a printer's path).
    typealias Condition = @Sendable (PrinterService, HTTPRequest) -> Bool

    /// The largest JSON body a route reads.
    static let maximumBodyBytes = 64 * 1024

    /// `GET`, `POST`, `DELETE`; a `GET` route answers `HEAD` too.
    let method: String
    /// The pattern as docs/openapi.json spells paths: `/api/v1/printers/{name}/faults/{id}`.
    let pattern: String
    let segments: [Segment]
    let surface: Surface
    let access: Access
    /// Whether the body is read (as JSON input) before the answer is made.
    let readsBody: Bool
    let condition: Condition?
    let answer: Answer

    init(
        _ method: String, _ pattern: String, _ surface: Surface = .api, access: Access, readsBody: Bool = false,
        when condition: Condition? = nil, answer: @escaping Answer
    ) {
        self.method = method
        self.pattern = pattern
        segments = Self.segments(of: pattern)
        self.surface = surface
        self.access = access
        self.readsBody = readsBody
        self.condition = condition
        self.answer = answer
    }

    /// The segments of a pattern; `/` alone has none.
    static func segments(of pattern: String) -> [Segment] {
        pattern.split(separator: "/").map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(String(part)) }
            let name = part.dropFirst().dropLast()
            return name.hasSuffix("*") ? .rest(String(name.dropLast())) : .parameter(String(name))
        }
    }

    /// Whether the route takes requests of this method.
    func accepts(method requested: String) -> Bool {
        requested == method || (requested == "HEAD" && method == "GET")
    }

    /// Whether `path` (split into segments) fits the pattern: what `parameters(of:)` tells, without building the
    /// parameters. Every IPP POST is tried against the routes before the last, and it fits none of them.
    func fits(_ path: [Substring]) -> Bool {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest: return index <= path.count
            case .literal(let word):
                guard index < path.count, path[index] == word else { return false }
            case .parameter:
                guard index < path.count, !path[index].isEmpty else { return false }
            }
        }
        return path.count == segments.count
    }

    /// The parameters when `path` (split into segments) fits the pattern; nil when it does not.
    func parameters(of path: [Substring]) -> [String: String]? {
        guard fits(path) else { return nil }
        var values: [String: String] = [:]
        for segment in segments {
            switch segment {
            case .literal: continue
            case .parameter(let name), .rest(let name):
                values[name] = Self.value(of: name, segments: segments, path: path)
            }
        }
        return values
    }

    /// The value of the parameter `name` of a pattern's `segments` in a `path` they fit: its segment, or for
    /// `{name*}` the rest of the path joined with `/`; nil when the pattern has no such parameter.
    static func value(of name: String, segments: [Segment], path: [Substring]) -> String? {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(name): return index <= path.count ? path[index...].joined(separator: "/") : nil
            case .parameter(name): return index < path.count ? String(path[index]) : nil
            default: continue
            }
        }
        return nil
    }
}
