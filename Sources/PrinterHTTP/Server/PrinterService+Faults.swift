import Foundation
import HTTPServer
import PrinterCore
import Profiles

/// The fault and device API (docs/scenarios.md):
/// `POST|GET|DELETE /api/v1/printers/<name>/faults[/<id>]`, `POST /api/v1/printers/<name>/trays`,
/// `POST /api/v1/printers/<name>/supplies`, `POST /api/v1/printers/<name>/output-bin`.
extension PrinterService {
    /// The largest JSON body the fault API reads.
    static let maximumFaultBodyBytes = 64 * 1024

    func handlePrinterAPI(_ request: HTTPRequest, route: [String], body: [UInt8]) -> HTTPResponse {
        // The printer's name, or its name as a path segment (what /ipp/print/<segment> uses with several printers).
        guard
            let printer = printers.first(where: {
                $0.name == route[1] || PrinterConfiguration.pathSegment(for: $0.name) == route[1]
            })
        else {
            return json(["error": "no printer \(route[1])"], status: 404)
        }
        switch (request.method, route[2], route.count) {
        case ("GET", "faults", 3):
            if case .refused(let response) = admit(request, needsCredentials: true) { return response }
            return json(printer.faultList)
        case ("POST", "faults", 3):
            if let refusal = refuseMutation(request) { return refusal }
            guard let object = requestJSON(body) else {
                return json(["error": "the body must be a JSON object"], status: 400)
            }
            let specs: [Any] = (object["faults"] as? [Any]) ?? [object]
            var ids: [Int] = []
            for (index, entry) in specs.enumerated() {
                do {
                    let spec = try FaultSpec(json: entry, path: specs.count > 1 ? "faults[\(index)]" : "fault")
                    guard let id = printer.addFault(spec) else {
                        return json(["error": "too many faults on this printer", "added": ids], status: 409)
                    }
                    ids.append(id)
                } catch {
                    return json(["error": error.description, "added": ids], status: 400)
                }
            }
            return json(["added": ids], status: 201)
        case ("DELETE", "faults", 3):
            if let refusal = refuseMutation(request) { return refusal }
            return clearFaults(printer, request: request)
        case ("DELETE", "faults", 4):
            if let refusal = refuseMutation(request) { return refusal }
            guard let id = Int(route[3]), printer.clearFaults(id) > 0 else {
                return json(["error": "no fault \(route[3])"], status: 404)
            }
            return json(["cleared": 1])
        case ("POST", "trays", 3):
            if let refusal = refuseMutation(request) { return refusal }
            let object = requestJSON(body) ?? [:]
            var level: Int?
            if let value = object["level"] {
                guard case .integer(let number)? = JSONNumber(value), number >= 0 else {
                    return json(["error": "level must be a whole number, 0 or more"], status: 400)
                }
                level = number
            }
            return loadTray(printer, object: object, level: level)
        case ("POST", "supplies", 3):
            if let refusal = refuseMutation(request) { return refusal }
            let object = requestJSON(body) ?? [:]
            var level = 100
            if let value = object["level"] {
                guard case .integer(let number)? = JSONNumber(value), (0...100).contains(number) else {
                    return json(["error": "level must be a whole number from 0 to 100"], status: 400)
                }
                level = number
            }
            let index: Int? = object["index"].flatMap { if case .integer(let n)? = JSONNumber($0) { n } else { nil } }
            guard printer.setSupplyLevel(index: index, level: level) else {
                return json(["error": "no such supply"], status: 404)
            }
            return json(["ok": true])
        case ("POST", "output-bin", 3):
            if let refusal = refuseMutation(request) { return refusal }
            var level = 0
            if let value = requestJSON(body)?["level"] {
                guard case .integer(let number)? = JSONNumber(value), number >= 0 else {
                    return json(["error": "level must be a whole number, 0 or more"], status: 400)
                }
                level = number
            }
            printer.setOutputBinLevel(level)
            return json(["ok": true])
        default:
            return handlePanelAPI(request, printer: printer, route: route, body: body)
        }
    }

    /// A request body as a JSON object, if it is one.
    func requestJSON(_ body: [UInt8]) -> [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
