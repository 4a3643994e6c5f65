import IPP
import Profiles

/// Why a fault or scenario description is not acceptable; says which key and why.
public enum FaultSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON does not have the shape of a fault: `path` names the key, `problem` what is wrong.
    case invalid(path: String, problem: String)

    public var description: String {
        switch self {
        case .invalid(let path, let problem): "\(path): \(problem)"
        }
    }
}

extension FaultSpec {
    /// The longest delay or clear-after accepted, in seconds.
    public static let maximumSeconds: Double = 3600
    /// The most requests a request trigger may count.
    public static let maximumRequestCount = 1_000_000
    /// The longest fault group name, in bytes.
    public static let maximumGroupBytes = 127

    /// Reads a fault from its JSON object (docs/scenarios.md).
    public init(json: Any, path: String = "fault") throws(FaultSpecError) {
        guard let object = json as? [String: Any] else { throw .invalid(path: path, problem: "expected an object") }
        let known: Set<String> = ["name", "trigger", "effect", "clear-after", "group"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw .invalid(path: "\(path).\(unknown)", problem: "unknown key")
        }
        name = object["name"] as? String
        trigger = try Self.trigger(object["trigger"] ?? "now", path: "\(path).trigger")
        guard let effectJSON = object["effect"] else { throw .invalid(path: "\(path).effect", problem: "required") }
        effect = try Self.effect(effectJSON, path: "\(path).effect")
        if let seconds = object["clear-after"] {
            clearAfter = try Self.seconds(seconds, path: "\(path).clear-after")
        }
        if let value = object["group"] { group = try Self.group(value, path: "\(path).group") }
        if effect.isRequestEffect, case .requests = trigger {
        } else if effect.isRequestEffect {
            throw .invalid(path: "\(path).trigger", problem: "this effect needs an operation trigger")
        }
    }

    /// A fault group name: a string of 1 to ``maximumGroupBytes`` bytes.
    static func group(_ json: Any, path: String) throws(FaultSpecError) -> String {
        guard let text = json as? String, !text.isEmpty, text.utf8.count <= maximumGroupBytes else {
            throw .invalid(path: path, problem: "expected a name of 1 to \(maximumGroupBytes) bytes")
        }
        return text
    }

    static func trigger(_ json: Any, path: String) throws(FaultSpecError) -> FaultTrigger {
        if let word = json as? String {
            guard word == "now" else { throw .invalid(path: path, problem: "expected \"now\" or an object") }
            return .now
        }
        guard let object = json as? [String: Any], object.count >= 1 else {
            throw .invalid(path: path, problem: "expected \"now\" or an object")
        }
        let allowed: Set<String> = object["operation"] != nil ? ["operation", "count"] : []
        if object.count > 1, let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(path: "\(path).\(extra)", problem: "a trigger has one kind (count goes with operation)")
        }
        if let count = object["after-jobs"] {
            return .afterJobs(try integer(count, path: "\(path).after-jobs", range: 0...1_000_000))
        }
        if let page = object["page"] { return .atPage(try integer(page, path: "\(path).page", range: 1...1_000_000)) }
        if let seconds = object["after-seconds"] {
            return .afterSeconds(try Self.seconds(seconds, path: "\(path).after-seconds"))
        }
        if let operation = object["operation"] as? String {
            guard operation == "any" || operationCode(operation) != nil else {
                throw .invalid(path: "\(path).operation", problem: "unknown operation \(operation)")
            }
            let count =
                try object["count"].map { (value) throws(FaultSpecError) in
                    try integer(value, path: "\(path).count", range: 1...maximumRequestCount)
                } ?? 1
            return .requests(operation: operation, count: count)
        }
        throw .invalid(path: path, problem: "expected after-jobs, page, after-seconds or operation")
    }

    static func effect(_ json: Any, path: String) throws(FaultSpecError) -> FaultEffect {
        guard let object = json as? [String: Any], object.count >= 1 else {
            throw .invalid(path: path, problem: "expected an object")
        }
        func reasons(_ key: String) throws(FaultSpecError) -> [PrinterStateReason] {
            guard let list = object[key] as? [String], !list.isEmpty,
                list.allSatisfy({
                    !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                })
            else {
                throw .invalid(path: "\(path).\(key)", problem: "expected a list of printer-state-reasons keywords")
            }
            return list.map(PrinterStateReason.init(rawValue:))
        }
        if object["add-reasons"] != nil { return .addReasons(try reasons("add-reasons")) }
        if object["remove-reasons"] != nil { return .removeReasons(try reasons("remove-reasons")) }
        if let reason = object["abort-job"] as? String {
            return .abortJob(reason: reason, message: object["message"] as? String ?? "Aborted by a simulated fault.")
        }
        if let reason = object["hold-job"] as? String { return .holdJob(reason: reason) }
        if let keyword = object["status"] as? String {
            guard let status = IPPStatus(keyword: keyword) else {
                throw .invalid(path: "\(path).status", problem: "unknown IPP status \(keyword)")
            }
            return .status(status, message: object["message"] as? String ?? "Simulated \(keyword).")
        }
        if let seconds = object["delay"] { return .delay(try Self.seconds(seconds, path: "\(path).delay")) }
        if let mode = object["close-connection"] as? String {
            guard mode == "before-response" || mode == "mid-response" else {
                throw .invalid(path: "\(path).close-connection", problem: "expected before-response or mid-response")
            }
            return .closeConnection(midResponse: mode == "mid-response")
        }
        if let rate = object["slow-read"] {
            return .slowRead(bytesPerSecond: try integer(rate, path: "\(path).slow-read", range: 1...1 << 30))
        }
        if let tray = object["tray"] as? [String: Any] {
            return .setTray(
                source: tray["source"] as? String,
                level: try integer(tray["level"] ?? -1, path: "\(path).tray.level", range: 0...100_000))
        }
        if let supply = object["supply"] as? [String: Any] {
            let index = try supply["index"].map { (value) throws(FaultSpecError) in
                try integer(value, path: "\(path).supply.index", range: 1...64)
            }
            return .setSupply(
                index: index, level: try integer(supply["level"] ?? -1, path: "\(path).supply.level", range: 0...100))
        }
        if let power = object["power"] {
            guard let word = power as? String, word == "on" || word == "off" else {
                throw .invalid(path: "\(path).power", problem: "expected \"on\" or \"off\"")
            }
            return .power(on: word == "on")
        }
        if let named = object["scanner-fault"] {
            guard let name = named as? String, let fault = ScannerFault(rawValue: name) else {
                let known = ScannerFault.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid(path: "\(path).scanner-fault", problem: "expected one of \(known)")
            }
            return .scannerFault(fault)
        }
        if let bin = object["output-bin"] as? [String: Any] {
            return .setOutputBin(
                level: try integer(bin["level"] ?? -1, path: "\(path).output-bin.level", range: 0...100_000))
        }
        throw .invalid(path: path, problem: "unknown effect (see docs/scenarios.md)")
    }

    static func integer(_ json: Any, path: String, range: ClosedRange<Int>) throws(FaultSpecError) -> Int {
        guard case .integer(let number)? = JSONNumber(json), range.contains(number) else {
            throw .invalid(
                path: path, problem: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func seconds(_ json: Any, path: String) throws(FaultSpecError) -> Double {
        let number: Double
        switch JSONNumber(json) {
        case .integer(let value)?: number = Double(value)
        case .fraction(let value)?: number = value
        default: throw .invalid(path: path, problem: "expected seconds from 0 to \(Int(maximumSeconds))")
        }
        guard number >= 0, number <= maximumSeconds else {
            throw .invalid(path: path, problem: "expected seconds from 0 to \(Int(maximumSeconds))")
        }
        return number
    }

    /// The operation code for an operation name such as `Print-Job`.
    static func operationCode(_ name: String) -> IPPOperation? {
        (0...0x0040).map { IPPOperation(rawValue: UInt16($0)) }.first { $0.description == name }
    }
}
