import PrinterCore
import Scanner

/// The front panel's scanner card, for a printer whose profile has a scanner (docs/api.md "The web page"): its
/// state, the sheets in its feeder with a form that loads them, and a switch for each of its faults. Each control is
/// one `POST /api/v1/printers/<name>/scanner` call.
extension FrontPanel {
    /// A scanner fault as the panel words it, and whether only a scanner with a feeder can have it.
    struct ScannerCondition {
        var fault: ScannerFault
        var words: SwitchWords
        /// True for a fault of the feeder, which a scanner without one cannot have.
        var needsFeeder: Bool
    }

    static let scannerConditions = [
        ScannerCondition(
            fault: .feederEmpty,
            words: SwitchWords(
                label: "Feeder sensor", onWord: "reports empty", offWord: "reports what is loaded",
                setLabel: "Report empty", clearLabel: "Report what is loaded"), needsFeeder: true),
        ScannerCondition(
            fault: .feederJam,
            words: SwitchWords(
                label: "Feeder", onWord: "jammed", offWord: "clear", setLabel: "Jam the feeder",
                clearLabel: "Clear the jam"), needsFeeder: true),
        ScannerCondition(
            fault: .coverOpen,
            words: SwitchWords(
                label: "Scanner cover", onWord: "open", offWord: "closed", setLabel: "Open the cover",
                clearLabel: "Close the cover"), needsFeeder: false),
        ScannerCondition(
            fault: .busy,
            words: SwitchWords(
                label: "Other clients", onWord: "busy", offWord: "none", setLabel: "Make it busy",
                clearLabel: "End the other client's scan"), needsFeeder: false),
    ]

    /// The scanner's card, or nothing for a printer without a scanner.
    static func scannerSection(_ printer: Printer, api: String, visible: ((ScanJob) -> Bool)? = nil) -> String {
        guard let scanner = printer.scanner else { return "" }
        let status = scanner.status
        let faults = scanner.faults
        let capabilities = scanner.capabilities
        let call = "POST \(api)/scanner"
        var inner = "<dl class=\"facts\"><dt>State</dt><dd id=\"scanner-state\">"
        inner += "\(HTML.stateBadge(status.state.rawValue.lowercased()))</dd>"
        if let feederState = status.feederState {
            inner += "<dt>Feeder</dt><dd id=\"scanner-feeder-state\">\(HTML.escape(feederState))</dd>"
        }
        inner +=
            "<dt>Scan jobs</dt><dd><a href=\"#scans\">\(HTML.count(scanner.jobs.count { visible?($0) ?? true }))</a></dd></dl>"
        if capabilities.feeder != nil {
            let sheets = scanner.feederSheets
            let capacity = capabilities.feederCapacity
            inner += "<p><span id=\"scanner-feeder-sheets\">\(sheets == 0 ? "<b>empty</b>" : "\(sheets) of")"
            inner += "\(sheets == 0 ? " (holds \(capacity))" : " \(capacity) sheets")</span> "
            inner += "<meter min=\"0\" max=\"\(capacity)\" value=\"\(sheets)\" aria-label=\"Sheets in the feeder\">"
            inner += "</meter></p><form class=\"load\" data-call=\"\(call)\" id=\"scanner-feeder-form\">"
            inner += "<label>Sheets <input type=\"number\" name=\"feeder-sheets\" id=\"scanner-feeder-level\" "
            inner += "min=\"0\" max=\"\(capacity)\" value=\"\(capacity)\" inputmode=\"numeric\"></label>"
            inner += "<button type=\"submit\" id=\"scanner-feeder-load\" aria-label=\"Load the scanner's feeder\">"
            inner += "Load</button></form>"
        } else {
            inner += "<p class=\"why\">This scanner has no feeder: it scans from the glass only.</p>"
        }
        inner += "<ul class=\"switches\">"
        for condition in scannerConditions {
            let id = "scanner-\(condition.fault.rawValue)"
            let active = faults.contains(condition.fault)
            var next = faults
            if active { next.remove(condition.fault) } else { next.insert(condition.fault) }
            let body = "{\"faults\": [\(next.map { "\"\($0.rawValue)\"" }.sorted().joined(separator: ", "))]}"
            inner += condition.words.row(id: id, on: active)
            inner += HTML.callButton(
                condition.words.buttonLabel(on: active), call: call, body: body, id: "\(id)-toggle",
                ariaLabel: "\(active ? "Clear" : "Set") the scanner fault \(condition.fault.rawValue)",
                disabledReason: condition.needsFeeder && capabilities.feeder == nil && !active ? "no feeder" : nil)
            inner += "</li>"
        }
        inner += "</ul>"
        inner += HTML.callButton(
            "Clear the scanner's faults", call: call, body: "{\"faults\": []}", id: "scanner-clear-faults",
            disabledReason: faults.isEmpty ? "no scanner fault is set" : nil)
        inner += "<p class=\"hint\">Clients see these as a real scanner shows them: in eSCL ScannerStatus and in "
        inner += "the answers to new scan jobs and their images. <a href=\"\(api)/scanner\">scanner (JSON)</a></p>"
        return section("scanner", "Scanner", HTML.controls(inner, label: "Scanner"))
    }
}
