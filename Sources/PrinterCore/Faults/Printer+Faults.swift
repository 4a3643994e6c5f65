import Dispatch
import Foundation
import PrintModel

/// Playing faults on a printer: adding, firing, clearing, and the levels of the simulated device.
extension Printer {
    /// Adds a fault; fires it at once for `now`, or schedules it for `after-seconds`. Nil when the printer holds
    /// too many faults.
    @discardableResult
    public func addFault(_ spec: FaultSpec) -> Int? {
        guard let fault = faults.add(spec) else { return nil }
        log("fault \(fault.id) added: \(spec.name ?? "\(spec.effect)")")
        switch spec.trigger {
        case .now:
            fire(fault.id, jobID: nil)
        case .afterSeconds(let seconds):
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in fire(fault.id, jobID: nil) }
        default:
            break
        }
        return fault.id
    }

    /// The faults held, as JSON objects for the API.
    public var faultList: [[String: Any]] {
        faults.faults.map { fault in
            var object: [String: Any] = [
                "id": fault.id, "trigger": "\(fault.spec.trigger)", "effect": "\(fault.spec.effect)",
            ]
            if let name = fault.spec.name { object["name"] = name }
            if let time = fault.firedAt { object["fired"] = JobRecord.iso8601(time) }
            if let clear = fault.spec.clearAfter { object["clear-after"] = clear }
            if let group = fault.spec.group { object["group"] = group }
            if case .addReasons(let reasons) = fault.spec.effect { object["reasons"] = reasons.map(\.rawValue) }
            return object
        }
    }

    /// Clears one fault (or all): undoes what the fired ones did to the printer-state-reasons.
    @discardableResult
    public func clearFaults(_ id: Int? = nil) -> Int {
        let removed = faults.remove(id)
        for fault in removed where fault.firedAt != nil { undo(fault.spec) }
        if !removed.isEmpty { log("cleared \(removed.count) fault(s)") }
        return removed.count
    }

    /// Fires a fault (once), for the job that triggered it if any.
    func fire(_ id: Int, jobID: Int?) {
        guard let fault = faults.markFired(id, at: WallClock.now()) else { return }
        log("fault \(id) fired: \(fault.spec.effect)")
        counters.faultsFired.add(1, ordering: .relaxed)
        apply(fault.spec.effect, jobID: jobID)
        if let seconds = fault.spec.clearAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                if !faults.remove(id).isEmpty { undo(fault.spec) }
            }
        }
    }

    /// Applies a printer-side effect.
    func apply(_ effect: FaultEffect, jobID: Int?) {
        switch effect {
        case .addReasons(let reasons):
            updatePrinter { state in
                for reason in reasons where !state.faultReasons.contains(reason) { state.faultReasons.append(reason) }
            }
        case .removeReasons(let reasons):
            updatePrinter { $0.faultReasons.removeAll { reasons.contains($0) } }
        case .abortJob(let reason, let message):
            let target = jobID ?? jobs.first { $0.state == .processing || $0.state == .processingStopped }?.id
            if let target {
                finish(target, with: .aborted(reason: reason, message: message))
            } else {
                faults.setPendingAbort(reason: reason, message: message)
            }
        case .holdJob(let reason):
            faults.setPendingHold(reason)
        case .setTray(let source, let level):
            setTrayLevel(source: source, level: level)
        case .setSupply(let index, let level):
            setSupplyLevel(index: index, level: level)
        case .setOutputBin(let level):
            setOutputBinLevel(level)
        case .power(let on):
            power.set(on: on)
        case .scannerFault(let fault):
            scanner?.set(fault, true)
        case .status, .delay, .closeConnection, .slowRead:
            break  // request effects act in PrinterService
        }
    }

    /// Undoes an effect when its fault clears: added reasons go, emptied trays are refilled, supplies replaced,
    /// the output bin emptied.
    func undo(_ spec: FaultSpec) {
        switch spec.effect {
        case .addReasons(let reasons):
            updatePrinter { $0.faultReasons.removeAll { reasons.contains($0) } }
        case .setTray(let source, _):
            setTrayLevel(source: source, level: nil)
        case .setSupply(let index, _):
            setSupplyLevel(index: index, level: 100)
        case .setOutputBin:
            setOutputBinLevel(0)
        case .power(let on):
            power.set(on: !on)
        case .scannerFault(let fault):
            scanner?.set(fault, false)
        default:
            break
        }
    }

    /// Sets a tray's level in sheets, at most its capacity (nil fills it), or empties (0) or reloads a roll; nil
    /// source = every tray and roll that can run out. Returns false when no such tray exists.
    @discardableResult
    public func setTrayLevel(source: String?, level: Int?) -> Bool {
        var found = false
        updatePrinter { state in
            for index in state.device.trays.indices where source == nil || state.device.trays[index].name == source {
                guard state.device.trays[index].canRunOut else { continue }
                found = true
                state.device.trays[index].setLevel(level)
            }
        }
        return found
    }

    /// Sets a supply's level in percent; nil index = every supply. Returns false for an unknown supply.
    @discardableResult
    public func setSupplyLevel(index: Int?, level: Int) -> Bool {
        var found = false
        updatePrinter { state in
            for i in state.device.supplies.indices where index == nil || i + 1 == index {
                found = true
                state.device.supplies[i].level = max(0, min(100, level))
                state.device.supplies[i].pendingUse = 0
            }
        }
        return found
    }

    /// Sets the output bin's level in sheets (0 empties it).
    public func setOutputBinLevel(_ level: Int) {
        updatePrinter { state in
            for i in state.device.bins.indices where state.device.bins[i].capacity > 0 {
                state.device.bins[i].level = max(0, min(state.device.bins[i].capacity, level))
            }
        }
    }

    /// The request effects of the faults for one request.
    package func requestFaultEffects(operation: String) -> [FaultEffect] {
        faults.requestEffects(operation: operation)
    }
}
