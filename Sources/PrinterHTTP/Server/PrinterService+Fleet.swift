import Foundation
import HTTPServer
import PrinterCore
import Profiles

/// Health, metrics, printers at runtime and power (docs/api.md; the routes are in ``PrinterService/routes``),
/// and the silence of a printer that is switched off.
///
/// With credentials asked for (`--user`, docs/security.md), creating, deleting and switching printers are for
/// admins (or the API token), as every change is; the health checks and `/metrics` stay open (they name
/// printers and count jobs, as `GET /api/v1/printers` does, and show nothing printed), and so does reading
/// one printer as the list does.
extension PrinterService {
    /// The answer of a switched-off printer on a port it shares: none, as from a host that is not there. The
    /// connection stays open without a byte until the client gives up, or closes once the printer is on again
    /// (the client's next try is answered). Its own port, if it has one, refuses connections instead
    /// (`PrinterFleet.followPower`).
    static func unanswered(_ printer: Printer) -> HTTPResponse {
        var response = HTTPResponse(status: 503)
        response.abort = .silence
        let power = printer.power
        response.silenceEnds = { power.isOn }
        return response
    }

    /// `GET /api/v1/printers/<name>`: the printer as the list shows it, with its printer-id, power and port.
    func printerResponse(_ request: Route.Matched) -> HTTPResponse {
        let name = request[parameter: "name"]
        guard let hosted = registry.printer(named: name) else {
            return json(["error": "no printer \(name)"], status: 404)
        }
        return json(summary(of: hosted, request: request.http))
    }

    /// `DELETE /api/v1/printers/<name>`: removes a printer made at runtime or from the command line.
    func deletePrinter(_ request: Route.Matched) -> HTTPResponse {
        guard let fleet = fleet.withLock({ $0 }) else {
            return json(["error": "\(FleetError.unsupported)"], status: 501)
        }
        do {
            let removed = try fleet.remove(named: request[parameter: "name"])
            return json(["deleted": removed.name])
        } catch {
            return json(["error": error.description], status: error.httpStatus)
        }
    }

    /// `POST /api/v1/printers/<name>/power` `{"on": true|false}`.
    func setPower(_ request: Route.Matched) -> HTTPResponse {
        let name = request[parameter: "name"]
        guard let hosted = registry.printer(named: name) else {
            return json(["error": "no printer \(name)"], status: 404)
        }
        // JSON true or false only (JSONSerialization would also read 1 and 0 as Bool).
        guard let value = requestJSON(request.body)?["on"], case .boolean(let on)? = JSONNumber(value) else {
            return json(["error": "the body must be {\"on\": true} or {\"on\": false}"], status: 400)
        }
        hosted.printer.power.set(on: on)
        return json(["printer-name": hosted.name, "power": on ? "on" : "off"])
    }

    /// `POST /api/v1/printers/<name>/strict` `{"strict": true|false}`: refuse what a lenient printer substitutes or
    /// ignores, from the printer's next request on.
    func setStrict(_ request: Route.Matched) -> HTTPResponse {
        let name = request[parameter: "name"]
        guard let hosted = registry.printer(named: name) else {
            return json(["error": "no printer \(name)"], status: 404)
        }
        guard let value = requestJSON(request.body)?["strict"], case .boolean(let strict)? = JSONNumber(value) else {
            return json(["error": "the body must be {\"strict\": true} or {\"strict\": false}"], status: 400)
        }
        hosted.printer.setStrict(strict)
        return json(["printer-name": hosted.name, "strict": strict])
    }

    /// The printer whose path is `path` or whose path `path` lies below (icons, jobs).
    func printer(atPathOrBelow path: String) -> Printer? {
        if let printer = printer(atPath: path) { return printer }
        guard let slash = path.lastIndex(of: "/"), slash > path.startIndex else { return nil }
        return printer(atPath: String(path[..<slash]))
    }

    /// `GET /readyz`: 200 when every printer that is switched on accepts jobs and is advertised (or DNS-SD is
    /// off, or no daemon can be reached); 503 with the reasons otherwise.
    func readiness() -> HTTPResponse {
        let problems = fleet.withLock({ $0 })?.readinessProblems ?? []
        let count = registry.count
        if problems.isEmpty { return json(["status": "ready", "printers": count]) }
        return json(
            ["status": "not ready", "printers": count, "problems": Array(problems.prefix(Self.maximumListedProblems))],
            status: 503)
    }

    /// The most readiness problems one answer lists.
    static let maximumListedProblems = 20

    /// `GET /metrics` in the Prometheus text format.
    func metricsResponse() -> HTTPResponse {
        let text = MetricsText.render(
            printers: printers, metrics: metrics, openConnections: fleet.withLock({ $0 })?.openConnections ?? 0)
        var headers = HTTPHeaders()
        headers.set("Content-Type", MetricsText.contentType)
        headers.set("Cache-Control", "no-store")
        return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// `POST /api/v1/printers` `{"profile", "name", "scenario", "port"}`: 201 with the printer and its URI.
    func createPrinter(_ request: HTTPRequest, body: [UInt8]) -> HTTPResponse {
        guard let fleet = fleet.withLock({ $0 }) else {
            return json(["error": "\(FleetError.unsupported)"], status: 501)
        }
        guard let object = requestJSON(body) else {
            return json(["error": "the body must be a JSON object"], status: 400)
        }
        let spec: PrinterSpec
        let name: String
        do {
            (spec, name) = try PrinterSpec.fromAPI(object, fleet: fleet)
            try fleet.factory.checkRequested(spec)
            let hosted = try fleet.add(spec, name: name, isRuntime: true)
            log("API: created printer '\(hosted.name)' (\(spec.profile))")
            var response = json(summary(of: hosted, request: request), status: 201)
            response.headers.set("Location", "/api/v1/printers/\(PrinterConfiguration.pathSegment(for: hosted.name))")
            return response
        } catch {
            return json(["error": error.description], status: error.httpStatus)
        }
    }

    /// A printer as the printers API shows it: the listing's fields, its printer-id, power and own port.
    func summary(of hosted: HostedPrinter, request: HTTPRequest) -> [String: Any] {
        let authority = request.uriAuthority(servicePort: hosted.port)
        var object = PrinterOverview(hosted.printer).json(authority: authority, secure: request.isEncrypted)
        object["printer-id"] = hosted.id
        object["power"] = hosted.printer.power.isOn ? "on" : "off"
        object["strict"] = hosted.printer.isStrict
        object["port"] = Int(hosted.port ?? request.localPort)
        return object
    }
}

extension PrinterSpec {
    /// The keys `POST /api/v1/printers` takes.
    static let apiKeys: Set<String> = ["profile", "name", "scenario", "port", "info", "location", "strict"]

    /// A spec and its name from the body of `POST /api/v1/printers`.
    static func fromAPI(_ object: [String: Any], fleet: PrinterFleet) throws(FleetError) -> (PrinterSpec, String) {
        if let unknown = object.keys.sorted().first(where: { !apiKeys.contains($0) }) {
            throw .invalid("unknown key '\(unknown)' (keys: \(apiKeys.sorted().joined(separator: ", ")))")
        }
        guard let profile = (object["profile"] ?? "duplex-laser") as? String, !profile.isEmpty else {
            throw .invalid("profile must be a profile name or file")
        }
        var spec = PrinterSpec(profile: profile)
        guard let name = object["name"] as? String else { throw .invalid("name is required (a string)") }
        spec.name = name
        switch object["scenario"] {
        case nil, is NSNull: break
        case let file as String: spec.scenarios = [file]
        case let inline as [String: Any]:
            do {
                spec.inlineScenarios = [try Scenario(json: inline, fallbackName: "\(name) scenario")]
            } catch {
                throw .scenario("\(error)")
            }
        default: throw .invalid("scenario must be a scenario file, a shipped scenario's name or a scenario object")
        }
        if let port = object["port"] {
            guard case .integer(let number)? = JSONNumber(port), (0...65535).contains(number) else {
                throw .invalid("port must be a whole number from 0 to 65535")
            }
            spec.port = UInt16(number)
        }
        if let info = object["info"] {
            guard let text = info as? String else { throw .invalid("info must be a string") }
            spec.info = text
        }
        if let location = object["location"] {
            guard let text = location as? String else { throw .invalid("location must be a string") }
            spec.location = text
        }
        if let strict = object["strict"] {
            guard case .boolean(let value)? = JSONNumber(strict) else { throw .invalid("strict must be true or false") }
            spec.strict = value
        }
        return (spec, name)
    }
}
