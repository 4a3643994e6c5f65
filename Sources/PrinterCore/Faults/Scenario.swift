import Foundation
import PrintModel

/// A scenario file (`--scenario FILE`, docs/scenarios.md): a named list of faults, and optionally the device's
/// speed and whether consumables run out, applied to every printer at start.
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    public var speed: PrintSpeed?
    public var tracksConsumables: Bool?
    public var faults: [FaultSpec]

    /// The largest scenario file read.
    public static let maximumFileSize = 1 << 20

    /// Reads a scenario file; errors name the file and the key.
    public static func load(file: String) throws(FaultSpecError) -> Scenario {
        let data: Data
        do throws(BoundedFile.Failure) {
            data = Data(try BoundedFile.contents(of: file, maximum: maximumFileSize))
        } catch {
            throw .invalid(path: file, problem: "the scenario file: \(error)")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .invalid(path: file, problem: "not a JSON object")
        }
        do {
            return try Scenario(
                json: object, fallbackName: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        } catch {
            throw .invalid(path: "\(file): \(error)", problem: "invalid scenario")
        }
    }

    package init(json object: [String: Any], fallbackName: String) throws(FaultSpecError) {
        let known: Set<String> = ["name", "description", "speed", "consumables", "faults"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw .invalid(path: unknown, problem: "unknown key")
        }
        name = object["name"] as? String ?? fallbackName
        description = object["description"] as? String ?? ""
        if let word = object["speed"] {
            guard let text = word as? String, let speed = PrintSpeed(rawValue: text) else {
                throw .invalid(path: "speed", problem: "expected instant or realistic")
            }
            self.speed = speed
        }
        if let word = object["consumables"] {
            guard let text = word as? String, text == "tracked" || text == "unlimited" else {
                throw .invalid(path: "consumables", problem: "expected tracked or unlimited")
            }
            tracksConsumables = text == "tracked"
        }
        guard let list = object["faults"] as? [Any] else { throw .invalid(path: "faults", problem: "expected a list") }
        var faults: [FaultSpec] = []
        for (index, entry) in list.enumerated() {
            faults.append(try FaultSpec(json: entry, path: "faults[\(index)]"))
        }
        self.faults = faults
    }
}
