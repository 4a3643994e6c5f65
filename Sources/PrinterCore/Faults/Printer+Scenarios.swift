import Foundation

/// Playing and stopping scenarios on a running printer, and clearing faults by cause
/// (`POST /api/v1/printers/<name>/scenarios`, `DELETE .../scenarios/<scenario>`, `DELETE .../faults?group=&reason=`).
extension Printer {
    /// Plays a scenario now: its faults are added in the group named after it; with `applySettings` (a scenario
    /// started at runtime) its speed and consumables take effect too. Nil when the printer cannot hold that many
    /// more faults (none of them is added then).
    @discardableResult
    public func play(_ scenario: Scenario, applySettings: Bool) -> [Int]? {
        guard faults.faults.count + scenario.faults.count <= FaultEngine.maximumFaults else { return nil }
        if applySettings {
            updatePrinter { state in
                if let speed = scenario.speed { state.speedOverride = speed }
                if let tracked = scenario.tracksConsumables { state.device.tracksConsumables = tracked }
            }
        }
        updatePrinter { state in
            if !state.scenarios.contains(scenario.name) { state.scenarios.append(scenario.name) }
        }
        var ids: [Int] = []
        for var fault in scenario.faults {
            if fault.group == nil { fault.group = scenario.name }
            guard let id = addFault(fault) else { break }
            ids.append(id)
        }
        log("scenario '\(scenario.name)' playing: \(ids.count) fault(s)")
        return ids
    }

    /// The scenarios played and not stopped, each with the number of its faults still held.
    public var playingScenarios: [(name: String, faults: Int)] {
        let held = faults.faults
        return status.withLock { $0.scenarios }.map { name in (name, held.count { $0.spec.group == name }) }
    }

    /// Stops a scenario: clears its faults (undoing what fired ones did) and, when no scenario plays any more,
    /// puts the speed and consumables back to the printer's own. Nil when the scenario is not playing.
    public func stopScenario(_ name: String) -> Int? {
        let wasPlaying = status.withLock { $0.scenarios.contains(name) }
        let cleared = clearFaults(group: name, reason: nil)
        guard wasPlaying || cleared > 0 else { return nil }
        let tracked = configuration.tracksConsumables
        updatePrinter { state in
            state.scenarios.removeAll { $0 == name }
            if state.scenarios.isEmpty {
                state.speedOverride = nil
                state.device.tracksConsumables = tracked
            }
        }
        log("scenario '\(name)' stopped: \(cleared) fault(s) cleared")
        return cleared
    }

    /// Clears the faults of a group and/or those that add a reason (every filter given must match), undoing what
    /// the fired ones did; returns how many were cleared.
    @discardableResult
    public func clearFaults(group: String?, reason: PrinterStateReason?) -> Int {
        let removed = faults.remove { fault in
            if let group, fault.spec.group != group { return false }
            if let reason {
                guard case .addReasons(let reasons) = fault.spec.effect, reasons.contains(reason) else { return false }
            }
            return true
        }
        for fault in removed where fault.firedAt != nil { undo(fault.spec) }
        if !removed.isEmpty { log("cleared \(removed.count) fault(s)") }
        return removed.count
    }
}

extension Scenario {
    /// The folders shipped scenarios are looked up in: `scenarios` beside each profile folder.
    public static func searchDirectories(profileDirectories: [String]) -> [String] {
        profileDirectories.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("scenarios").path
        }
    }

    /// The shipped scenarios found there (the first folder that has a name wins), sorted by name.
    public static func shipped(profileDirectories: [String]) -> [Scenario] {
        var found: [String: Scenario] = [:]
        for folder in searchDirectories(profileDirectories: profileDirectories) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") {
                let name = String(file.dropLast(".json".count))
                guard found[name] == nil, let scenario = try? Scenario.load(file: "\(folder)/\(file)") else {
                    continue
                }
                found[name] = scenario
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// A shipped scenario by name (letters, digits, `-`, `_` and `.` only: never a path).
    public static func shipped(named name: String, profileDirectories: [String]) -> Scenario? {
        guard !name.isEmpty, !name.hasPrefix("."),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { return nil }
        for folder in searchDirectories(profileDirectories: profileDirectories) {
            let path = "\(folder)/\(name).json"
            if FileManager.default.fileExists(atPath: path) { return try? Scenario.load(file: path) }
        }
        return nil
    }
}
