import Foundation
import IPP
import PrinterCore

/// What the web page and `GET /api/v1/printers` show of one printer, read at one moment: state, reasons,
/// supplies, trays and what is loaded in them, output bins, power.
struct PrinterOverview {
    /// One marker supply (PWG 5100.13 printer-supply and printer-supply-description).
    struct Supply {
        var description: String
        /// Percent, or nil when the printer does not know.
        var level: Int?
        var type: String
        var colorantName: String
        var supplyClass: String

        var json: [String: Any] {
            [
                "description": description, "level": level.map { $0 as Any } ?? NSNull(), "type": type,
                "colorant-name": colorantName, "class": supplyClass,
            ]
        }
    }

    var name: String
    var resourcePath: String
    var uuid: String
    var state: String
    var reasons: [String]
    var message: String
    var isAcceptingJobs: Bool
    var supplies: [Supply]
    var mediaReady: [String]
    var jobCount: Int
    var trays: [Printer.TrayStatus]
    var bins: [Printer.BinStatus]
    var isOn: Bool
    var isPaused: Bool
    var holdsNewJobs: Bool

    init(_ printer: Printer) {
        let (state, reasons, accepting, device) = printer.status.withLock {
            ($0.state, $0.reasons, $0.isAcceptingJobs, $0.device.attributes)
        }
        var attributes = printer.cache.attributes
        for attribute in device { attributes[attribute.name] = attribute }
        name = printer.name
        resourcePath = printer.configuration.resourcePath
        uuid = printer.configuration.uuid
        self.state = state.keyword
        self.reasons = PrinterStateReason.keywords(of: reasons)
        switch state {
        case .idle: message = "Idle."
        case .processing: message = "Printing."
        case .stopped: message = "Stopped: \(self.reasons.joined(separator: ", "))."
        }
        isAcceptingJobs = accepting
        let descriptions = attributes["printer-supply-description"]?.values.compactMap(\.stringValue) ?? []
        supplies = (attributes["printer-supply"]?.values ?? []).enumerated().map { index, value in
            Self.supply(value, description: index < descriptions.count ? descriptions[index] : nil)
        }
        mediaReady = attributes["media-ready"]?.values.compactMap(\.stringValue) ?? []
        jobCount = printer.jobCount
        trays = printer.trays
        bins = printer.outputBins
        isOn = printer.power.isOn
        isPaused = printer.isPaused
        holdsNewJobs = printer.holdsNewJobs
    }

    /// Reads a printer-supply value, `key=value;key=value;` (PWG 5100.13 section 6.5.x).
    static func supply(_ value: IPPValue, description: String?) -> Supply {
        let text: String
        if case .octetString(let bytes) = value {
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            text = value.stringValue ?? ""
        }
        var fields: [String: String] = [:]
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let level = fields["level"].flatMap(Int.init).flatMap { $0 >= 0 && $0 <= 100 ? $0 : nil }
        return Supply(
            description: description ?? fields["type"] ?? "supply", level: level, type: fields["type"] ?? "",
            colorantName: fields["colorantname"] ?? "", supplyClass: fields["class"] ?? "")
    }

    /// The printer as `GET /api/v1/printers` answers it; `authority` is the host and port the client used.
    func json(authority: String, secure: Bool = false) -> [String: Any] {
        [
            "printer-name": name, "printer-uuid": uuid, "printer-state": state, "printer-state-reasons": reasons,
            "printer-state-message": message, "printer-is-accepting-jobs": isAcceptingJobs,
            "resource": resourcePath,
            "printer-uri-supported": "\(secure ? "ipps" : "ipp")://\(authority)\(resourcePath)",
            "printer-more-info": "\(secure ? "https" : "http")://\(authority)/", "printer-supply": supplies.map(\.json),
            "media-ready": mediaReady, "job-count": jobCount,
            "trays": trays.map { tray -> [String: Any] in
                var object: [String: Any] = [
                    "name": tray.name, "level": tray.level, "capacity": tray.capacity, "manual": tray.isManual,
                    "roll": tray.isRoll,
                ]
                if let media = tray.media { object["media"] = media }
                if let type = tray.mediaType { object["media-type"] = type }
                return object
            },
            "output-bins": bins.map { ["name": $0.name, "level": $0.level, "capacity": $0.capacity] },
        ]
    }
}
