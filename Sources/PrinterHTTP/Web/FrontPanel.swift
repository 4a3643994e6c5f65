import PrinterCore

/// A printer's front panel at `/printers/<name>`: its state and reasons, and the controls a person has at a real
/// printer (power, pause, hold new jobs, doors, jams, offline, trays, supplies, the output bin, the scanner of an
/// MFP) plus the scenarios and faults of vprinter, then the printer's jobs and, with a scanner, its scan jobs.
///
/// Every control is a JSON API call (the ones a test makes, docs/api.md), sent by the page's script; the page
/// then shows the state that follows. A control for a part the profile does not have is disabled and says why.
enum FrontPanel {
    /// The fault group of the panel's offline faults, so that going online clears them all.
    static let offlineGroup = "front-panel-offline"
    /// The fault group of the panel's door, cover and jam faults.
    static let panelGroup = "front-panel"

    static func html(_ hosted: HostedPrinter, context: WebContext) -> String {
        let printer = hosted.printer
        let e = HTML.escape
        let api = WebContext.apiPath(printer)
        var body = "<p class=\"crumbs\"><a href=\"/\">All printers and jobs</a> · "
        body += "<a href=\"\(api)\">printer (JSON)</a> · <a href=\"\(api)/faults\">faults (JSON)</a>"
        if printer.scanner != nil { body += " · <a href=\"\(api)/scanner\">scanner (JSON)</a>" }
        body += "</p>"
        body += "<h1>Front panel: <span class=\"printer-name\">\(e(printer.name))</span></h1>"
        body += "<div class=\"panel\">"
        body += stateSection(printer)
        body += operationSection(printer, api: api)
        body += conditionSection(printer, api: api)
        body += traySection(printer, api: api)
        body += supplySection(printer, api: api)
        body += binSection(printer, api: api)
        body += scannerSection(printer, api: api, visible: context.visibleScans)
        body += scenarioSection(printer, api: api, context: context)
        body += faultSection(printer, api: api)
        body += "</div>"
        let list = JobList(query: context.query, fixedPrinter: printer.name, visible: context.visible)
        body += list.html(
            printers: [printer], action: WebContext.panelPath(printer),
            resetCall: "DELETE /api/v1/jobs?printer=\(HTML.percentEncode(printer.name))",
            resetWhat: "every job of this printer")
        body += ScanList.html(printers: [printer], showPrinter: false, visible: context.visibleScans)
        return HTML.page(title: "\(printer.name): front panel", body: body, live: .printer(printer.name))
    }

    /// State, reasons and message, what is loaded, and the printer's switches at a glance.
    static func stateSection(_ printer: Printer) -> String {
        let e = HTML.escape
        let overview = PrinterOverview(printer)
        var html = "<section class=\"card wide\" id=\"panel-state\" data-live aria-labelledby=\"state-title\">"
        html += "<h2 id=\"state-title\">State</h2><p class=\"state-line\">\(HTML.stateBadge(overview.state)) "
        html += "<span class=\"printer-state-message\">\(e(overview.message))</span></p>"
        let alert = overview.reasons.contains { PrinterStateReason(rawValue: $0).stopsPrinter } ? " reasons-alert" : ""
        html += "<dl class=\"facts\"><dt>Reasons</dt><dd class=\"printer-state-reasons\(alert)\" "
        html += "id=\"printer-state-reasons\">"
        html += "\(e(overview.reasons.joined(separator: ", ")))</dd>"
        html +=
            "<dt>Power</dt><dd id=\"power-state\">\(overview.isOn ? "on" : "off: not advertised, its IPP path does not answer")</dd>"
        html += "<dt>Accepting jobs</dt><dd>\(overview.isAcceptingJobs ? "yes" : "no")</dd>"
        html += "<dt>Loaded media</dt><dd class=\"media-ready\">"
        html += "\(e(overview.mediaReady.isEmpty ? "none" : overview.mediaReady.joined(separator: ", ")))</dd>"
        html += "<dt>Jobs</dt><dd>\(HTML.count(overview.jobCount))</dd></dl></section>"
        return html
    }

    /// Power, pause, hold new jobs, clear all faults.
    static func operationSection(_ printer: Printer, api: String) -> String {
        let on = printer.power.isOn
        let paused = printer.isPaused
        let holding = printer.holdsNewJobs
        var inner = "<ul class=\"switches\">"
        inner += "<li><span>Power: <b id=\"power-word\">\(on ? "on" : "off")</b></span>"
        inner += HTML.callButton(
            on ? "Switch off" : "Switch on", call: "POST \(api)/power", body: "{\"on\": \(!on)}", id: "power-toggle")
        inner += "</li><li><span>Printing: <b>\(paused ? "paused" : "running")</b></span>"
        inner += HTML.callButton(
            paused ? "Resume" : "Pause", call: "POST \(api)/pause", body: "{\"paused\": \(!paused)}",
            id: "pause-toggle")
        inner += "</li><li><span>New jobs: <b>\(holding ? "held" : "printed")</b></span>"
        inner += HTML.callButton(
            holding ? "Release held jobs" : "Hold new jobs", call: "POST \(api)/hold-new-jobs",
            body: "{\"hold\": \(!holding)}", id: "hold-toggle")
        inner += "</li><li><span>Faults held: <b>\(printer.faults.faults.count)</b></span>"
        inner += HTML.callButton(
            "Clear all faults", call: "DELETE \(api)/faults", id: "clear-faults",
            disabledReason: printer.faults.faults.isEmpty ? "no fault is held" : nil)
        inner += "</li></ul>"
        return section("operation", "Operation", HTML.controls(inner, label: "Power and operation"))
    }

    /// How the panel words a switch that sets and clears a condition: what the part is, its state with the
    /// condition on and off, and the buttons that set and clear it.
    struct SwitchWords {
        var label: String
        var onWord: String
        var offWord: String
        var setLabel: String
        var clearLabel: String

        /// The start of the switch's row, with its state now.
        func row(id: String, on: Bool) -> String {
            switchRow(label, id: id, word: on ? onWord : offWord)
        }

        /// The button's label: what it does from the state now.
        func buttonLabel(on: Bool) -> String { on ? clearLabel : setLabel }
    }

    /// A condition a person causes and ends at the printer: a door, the cover, a jam, offline.
    struct Condition {
        var id: String
        var reason: PrinterStateReason
        var words: SwitchWords
    }

    /// The start of a switch's row: what the switch is and its state now (in `<id>-word`), before its button.
    static func switchRow(_ label: String, id: String, word: String) -> String {
        "<li><span>\(label): <b id=\"\(id)-word\">\(word)</b></span>"
    }

    static let conditions = [
        Condition(
            id: "door", reason: "door-open-error",
            words: SwitchWords(
                label: "Door", onWord: "open", offWord: "closed", setLabel: "Open the door",
                clearLabel: "Close the door")),
        Condition(
            id: "cover", reason: "cover-open-error",
            words: SwitchWords(
                label: "Cover", onWord: "open", offWord: "closed", setLabel: "Open the cover",
                clearLabel: "Close the cover")),
        Condition(
            id: "jam", reason: "media-jam-error",
            words: SwitchWords(
                label: "Paper path", onWord: "jammed", offWord: "clear", setLabel: "Jam the paper",
                clearLabel: "Clear the jam")),
    ]

    /// Doors, cover, jam and offline: each adds its printer-state-reason as a fault and clears the faults that
    /// add it (whoever added them: the panel, a scenario or a test).
    static func conditionSection(_ printer: Printer, api: String) -> String {
        let reasons = Set(printer.status.withLock { $0.reasons })
        var inner = "<ul class=\"switches\">"
        for condition in conditions {
            let active = reasons.contains(condition.reason)
            let words = condition.words
            inner += words.row(id: condition.id, on: active)
            if active {
                inner += HTML.callButton(
                    words.buttonLabel(on: true), call: "DELETE \(api)/faults?reason=\(condition.reason)",
                    id: "\(condition.id)-toggle")
            } else {
                let fault =
                    "{\"name\": \"\(words.label.lowercased()): \(words.onWord) (front panel)\", "
                    + "\"group\": \"\(panelGroup)\", \"effect\": {\"add-reasons\": [\"\(condition.reason)\"]}}"
                inner += HTML.callButton(
                    words.buttonLabel(on: false), call: "POST \(api)/faults", body: fault,
                    id: "\(condition.id)-toggle")
            }
            inner += "</li>"
        }
        let offline = reasons.contains("offline-report")
        inner += switchRow("Network", id: "offline", word: offline ? "offline" : "online")
        if offline {
            inner += HTML.callButton(
                "Go online",
                call: "DELETE \(api)/faults?group=\(offlineGroup) ; DELETE \(api)/faults?reason=offline-report",
                id: "offline-toggle")
        } else {
            inner += HTML.callButton(
                "Go offline", call: "POST \(api)/faults", body: offlineFaults, id: "offline-toggle")
        }
        inner += "</li></ul><p class=\"hint\">Offline is what the shipped <code>offline</code> scenario does: "
        inner += "<code>offline-report</code>, and Print-Job and Create-Job answered "
        inner += "<code>server-error-service-unavailable</code>.</p>"
        return section("conditions", "Doors, jams, offline", HTML.controls(inner, label: "Conditions"))
    }

    /// The faults of going offline (those of the shipped offline scenario, at once).
    static let offlineFaults =
        "{\"faults\": [{\"name\": \"offline (front panel)\", \"group\": \"\(offlineGroup)\", "
        + "\"effect\": {\"add-reasons\": [\"offline-report\"]}}, "
        + "{\"name\": \"refuse Print-Job (offline)\", \"group\": \"\(offlineGroup)\", "
        + "\"trigger\": {\"operation\": \"Print-Job\", \"count\": 1000000}, "
        + "\"effect\": {\"status\": \"server-error-service-unavailable\", \"message\": \"The printer is offline.\"}}, "
        + "{\"name\": \"refuse Create-Job (offline)\", \"group\": \"\(offlineGroup)\", "
        + "\"trigger\": {\"operation\": \"Create-Job\", \"count\": 1000000}, "
        + "\"effect\": {\"status\": \"server-error-service-unavailable\", \"message\": \"The printer is offline.\"}}]}"

    /// A panel section, refreshed by the event stream.
    static func section(_ id: String, _ title: String, _ inner: String, wide: Bool = false) -> String {
        "<section class=\"card\(wide ? " wide" : "")\" id=\"panel-\(id)\" data-live aria-labelledby=\"\(id)-title\">"
            + "<h2 id=\"\(id)-title\">\(HTML.escape(title))</h2>\(inner)</section>"
    }

    /// A level as a meter with its label: `percent` nil is unknown.
    static func meter(label: String, percent: Int?, compact: Bool = false) -> String {
        let e = HTML.escape
        guard let percent else {
            return "<span class=\"level\">\(e(label)): unknown</span>"
        }
        let meter =
            "<meter min=\"0\" max=\"100\" low=\"11\" high=\"11\" optimum=\"100\" value=\"\(percent)\" "
            + "aria-label=\"\(e(label))\">\(percent) %</meter>"
        return compact
            ? "<span class=\"level\" title=\"\(e(label)) \(percent) %\">\(meter) \(percent) %</span>"
            : "<span class=\"level\">\(e(label)) \(meter) <b>\(percent) %</b></span>"
    }
}
