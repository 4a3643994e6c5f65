/// printer-alert and printer-alert-description (PWG 5100.9): one alert per printer-state-reason, in the
/// `code=...;severity=...;group=...` form of the Printer MIB (RFC 3805 prtAlertCode, prtAlertSeverityLevel).
enum PrinterAlerts {
    struct Alert: Equatable {
        var code: String
        var description: String
    }

    /// The alerts for a set of printer-state-reasons; with no reason, one informational `other` alert saying the
    /// printer is ready (ipp-2.2.test expects at least one value).
    static func alerts(for reasons: [PrinterStateReason]) -> [Alert] {
        let real = reasons.filter { $0 != .none }
        guard !real.isEmpty else {
            return [Alert(code: "code=other;severity=other;group=generalPrinter;training=none", description: "Ready.")]
        }
        return real.map { reason in
            let severity =
                switch reason.severity {
                case .error: "critical"
                case .warning: "warning"
                case .report, .unstated: "other"
                }
            let (code, group) = mibCode(reason.base)
            return Alert(
                code: "code=\(code);severity=\(severity);group=\(group);training=untrained",
                description: reason.rawValue)
        }
    }

    /// The RFC 3805 alert code and group for a reason.
    static func mibCode(_ reason: String) -> (String, String) {
        switch reason {
        case "media-jam": ("jam", "mediaPath")
        case "media-empty", "media-needed": ("inputMediaSupplyEmpty", "input")
        case "media-low": ("inputMediaSupplyLow", "input")
        case "cover-open": ("coverOpen", "cover")
        case "door-open": ("doorOpen", "cover")
        case "interlock-open": ("interlockOpen", "interlock")
        case "input-tray-missing": ("inputTrayMissing", "input")
        case "output-area-full": ("outputMediaTrayFull", "output")
        case "output-area-almost-full": ("outputMediaTrayAlmostFull", "output")
        case "toner-empty", "marker-supply-empty": ("markerTonerEmpty", "marker")
        case "toner-low", "marker-supply-low": ("markerTonerAlmostEmpty", "marker")
        case "paused", "moving-to-paused": ("serviceRequested", "generalPrinter")
        case "offline": ("powerDown", "generalPrinter")
        default: ("other", "generalPrinter")
        }
    }
}
