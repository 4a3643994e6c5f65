import Foundation
import HTTPServer
import PrinterCore
import Profiles

/// The fault and device API (docs/scenarios.md): faults, trays, supplies and the output bin of a printer; the
/// routes are in ``PrinterService/routes``.
extension PrinterService {
    /// `POST .../faults` with one fault or `{"faults": [...]}`: 201 with the ids added.
    func addFaults(_ printer: Printer, body: [UInt8]) -> HTTPResponse {
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
    }

    /// `DELETE .../faults/<id>`.
    func clearFault(_ printer: Printer, id: String) -> HTTPResponse {
        guard let number = Int(id), printer.clearFaults(number) > 0 else {
            return json(["error": "no fault \(id)"], status: 404)
        }
        return json(["cleared": 1])
    }

    /// `POST .../supplies` `{"level", "index"}`: a supply's level, every supply's without an index.
    func setSupplies(_ printer: Printer, body: [UInt8]) -> HTTPResponse {
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
    }

    /// `POST .../output-bin` `{"level"}`: how full the output bin is.
    func setOutputBin(_ printer: Printer, body: [UInt8]) -> HTTPResponse {
        var level = 0
        if let value = requestJSON(body)?["level"] {
            guard case .integer(let number)? = JSONNumber(value), number >= 0 else {
                return json(["error": "level must be a whole number, 0 or more"], status: 400)
            }
            level = number
        }
        printer.setOutputBinLevel(level)
        return json(["ok": true])
    }

    /// A request body as a JSON object, if it is one.
    func requestJSON(_ body: [UInt8]) -> [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
