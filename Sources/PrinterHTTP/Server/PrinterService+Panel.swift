import Foundation
import HTTPServer
import PrinterCore
import Profiles

/// The front panel's calls that the fault and device API did not have (docs/api.md "Front panel"):
/// `POST /api/v1/printers/<name>/pause`, `POST .../hold-new-jobs`, `GET|POST .../scenarios`,
/// `DELETE .../scenarios/<scenario>`; and the parts of the tray and fault calls the panel added (media and type
/// of a loaded tray, clearing faults by group or reason). The web page uses exactly these, as a test would.
extension PrinterService {
    /// `POST .../pause` `{"paused": true|false}`.
    func setPaused(_ printer: Printer, request: Route.Matched) -> HTTPResponse {
        guard let paused = booleanMember("paused", of: request.body) else {
            return json(["error": "the body must be {\"paused\": true} or {\"paused\": false}"], status: 400)
        }
        printer.setPaused(paused, by: "the JSON API")
        return json(panelSummary(printer, request: request.http))
    }

    /// `POST .../hold-new-jobs` `{"hold": true|false}`.
    func setHoldNewJobs(_ printer: Printer, request: Route.Matched) -> HTTPResponse {
        guard let hold = booleanMember("hold", of: request.body) else {
            return json(["error": "the body must be {\"hold\": true} or {\"hold\": false}"], status: 400)
        }
        printer.setHoldNewJobs(hold)
        return json(panelSummary(printer, request: request.http))
    }

    /// `POST .../scenarios` `{"scenario": "<name of a shipped scenario>"}`: plays it, settings included.
    func playScenario(_ printer: Printer, body: [UInt8]) -> HTTPResponse {
        guard let name = requestJSON(body)?["scenario"] as? String else {
            return json(["error": "the body must be {\"scenario\": \"<name of a shipped scenario>\"}"], status: 400)
        }
        guard let scenario = Scenario.shipped(named: name, profileDirectories: profileDirectories) else {
            let known = Scenario.shipped(profileDirectories: profileDirectories).map(\.name)
            return json(
                ["error": "no shipped scenario '\(name)' (shipped: \(known.joined(separator: ", ")))"], status: 404)
        }
        guard let ids = printer.play(scenario, applySettings: true) else {
            return json(["error": "too many faults on this printer", "added": [Int]()], status: 409)
        }
        log("API: scenario '\(scenario.name)' started on '\(printer.name)'")
        return json(["scenario": scenario.name, "added": ids], status: 201)
    }

    /// `DELETE .../scenarios/<scenario>`: stops a playing scenario and clears its faults.
    func stopScenario(_ printer: Printer, name: String) -> HTTPResponse {
        guard let cleared = printer.stopScenario(name) else {
            return json(["error": "scenario '\(name)' is not playing"], status: 404)
        }
        return json(["stopped": name, "cleared": cleared])
    }

    /// `DELETE .../faults`, optionally only those of `group` and/or those that add `reason`.
    func clearFaults(_ printer: Printer, request: HTTPRequest) -> HTTPResponse {
        let known: Set<String> = ["group", "reason"]
        if let unknown = request.query.map(\.name).first(where: { !known.contains($0) }) {
            return json(["error": "unknown parameter '\(unknown)' (parameters: group, reason)"], status: 400)
        }
        let group = request.queryValue("group")
        let reason = request.queryValue("reason")
        if group?.isEmpty == true || reason?.isEmpty == true {
            return json(["error": "group and reason need a value"], status: 400)
        }
        if group == nil && reason == nil { return json(["cleared": printer.clearFaults()]) }
        return json([
            "cleared": printer.clearFaults(group: group, reason: reason.map(PrinterStateReason.init(rawValue:)))
        ])
    }

    /// `POST .../trays {"source", "level", "media", "media-type"}`.
    func loadTray(_ printer: Printer, body: [UInt8]) -> HTTPResponse {
        let object = requestJSON(body) ?? [:]
        var level: Int?
        if let value = object["level"] {
            guard case .integer(let number)? = JSONNumber(value), number >= 0 else {
                return json(["error": "level must be a whole number, 0 or more"], status: 400)
            }
            level = number
        }
        var media: String?
        var type: String?
        for key in ["media", "media-type"] {
            guard let value = object[key] else { continue }
            guard let text = value as? String, !text.isEmpty else {
                return json(["error": "\(key) must be a keyword"], status: 400)
            }
            if key == "media" { media = text } else { type = text }
        }
        let source = object["source"] as? String
        if source == nil, media != nil || type != nil {
            return json(["error": "media and media-type need the tray's source"], status: 400)
        }
        do throws(TrayLoadError) {
            try printer.loadTray(source: source, level: level, media: media, type: type)
        } catch {
            return json(["error": error.description], status: error.httpStatus)
        }
        return json(["ok": true])
    }

    /// A JSON `true` or `false` member of the body (JSONSerialization would also read 1 and 0 as Bool).
    func booleanMember(_ name: String, of body: [UInt8]) -> Bool? {
        guard let value = requestJSON(body)?[name], case .boolean(let flag)? = JSONNumber(value) else { return nil }
        return flag
    }

    /// The printer as `GET /api/v1/printers/<name>` shows it, for a printer of this service.
    func panelSummary(_ printer: Printer, request: HTTPRequest) -> [String: Any] {
        printerSummary(printer, request: request)
    }

    /// Shipped scenarios and those playing on `printer`.
    func scenarioList(_ printer: Printer) -> [String: Any] {
        [
            "shipped": Scenario.shipped(profileDirectories: profileDirectories).map {
                ["name": $0.name, "description": $0.description]
            },
            "playing": printer.playingScenarios.map { ["name": $0.name, "faults": $0.faults] as [String: Any] },
        ]
    }

    /// Where profiles (and the shipped scenarios beside them) are found.
    var profileDirectories: [String] {
        fleet.withLock { $0 }?.factory.settings.profileDirectories ?? PrinterProfile.searchDirectories()
    }
}
