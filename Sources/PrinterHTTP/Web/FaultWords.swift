import Foundation
import PrinterCore

/// Faults in words for the front panel's list ("when a job prints page 2: adds media-jam-error").
enum FaultWords {
    static func trigger(_ trigger: FaultTrigger) -> String {
        switch trigger {
        case .now: "at once"
        case .afterJobs(let count): "after \(count) more job\(count == 1 ? "" : "s") end"
        case .atPage(let page): "when a job prints side \(page)"
        case .afterSeconds(let seconds): "\(number(seconds)) s after it was added"
        case .requests(let operation, let count):
            "on the next \(count == 1 ? "" : "\(count) ")\(operation) request\(count == 1 ? "" : "s")"
        }
    }

    static func effect(_ effect: FaultEffect) -> String {
        switch effect {
        case .addReasons(let reasons): "adds \(reasons.map(\.rawValue).joined(separator: ", "))"
        case .removeReasons(let reasons): "removes \(reasons.map(\.rawValue).joined(separator: ", "))"
        case .abortJob(let reason, _): "aborts the job (\(reason))"
        case .holdJob(let reason): "holds the next job (\(reason))"
        case .status(let status, _): "answers \(status)"
        case .delay(let seconds): "answers \(number(seconds)) s late"
        case .closeConnection(let midResponse): midResponse ? "breaks off its answer" : "closes without an answer"
        case .slowRead(let rate): "reads the document at \(rate) bytes/s"
        case .setTray(let source, let level): "sets \(source.map { "tray \($0)" } ?? "every tray") to \(level) sheets"
        case .setSupply(let index, let level): "sets \(index.map { "supply \($0)" } ?? "every supply") to \(level) %"
        case .setOutputBin(let level): "sets the output bin to \(level) sheets"
        case .power(let on): on ? "switches the printer on" : "switches the printer off"
        case .scannerFault(let fault): "scanner: \(fault.rawValue)"
        }
    }

    /// Seconds as a person writes them: whole seconds without a point, others with up to two decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
