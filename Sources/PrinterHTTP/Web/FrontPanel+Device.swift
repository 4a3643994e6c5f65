import PrintModel
import PrinterCore
import Profiles

/// The front panel's device parts: trays, supplies, the output bin; and vprinter's scenarios and faults.
extension FrontPanel {
    /// Each input tray: its level and loaded media, and a form that loads it (size, type, sheets), empties or
    /// fills it (`POST .../trays`); a roll is emptied or reloaded.
    static func traySection(_ printer: Printer, api: String) -> String {
        let e = HTML.escape
        let attributes = printer.cache
        let sizes = attributes["media-supported"]?.values.compactMap(\.stringValue) ?? []
        let types = attributes["media-type-supported"]?.values.compactMap(\.stringValue) ?? []
        let trays = printer.trays
        var inner = ""
        if !trays.contains(where: \.canRunOut) {
            inner += "<p class=\"why\">This profile has no tray that holds a counted number of sheets, nor a roll "
            inner += "(media-source-supported: \(e(trays.map(\.name).joined(separator: ", "))))."
            inner += " There is nothing to load or empty.</p>"
        }
        inner += "<ul class=\"trays\">"
        for tray in trays {
            let id = "tray-\(PrinterConfiguration.pathSegment(for: tray.name))"
            inner += "<li class=\"tray\" id=\"\(e(id))\"><h3>\(e(tray.name))</h3>"
            let loaded = tray.media.map { "\($0)\(tray.mediaType.map { ", \($0)" } ?? "")" } ?? "nothing known"
            guard tray.holdsSheets else {
                if tray.isRoll && tray.canRunOut {
                    inner += "<p><span class=\"tray-level\">\(tray.level == 0 ? "<b>empty</b>" : "a roll is loaded")"
                    inner += "</span> (its length is not counted)<br>Loaded: <span class=\"tray-media\">"
                    inner += "\(e(loaded))</span></p>"
                    inner += emptyAndFillButtons(tray, api: api, id: id, full: tray.level != 0)
                } else {
                    let why =
                        tray.name == "auto"
                        ? "auto is not a tray: the printer takes the paper from the first loaded tray."
                        : "This source's paper is not counted (its capacity is unknown)."
                    inner += "<p class=\"why\">\(why)</p>"
                }
                inner += "</li>"
                continue
            }
            inner += "<p><span class=\"tray-level\">\(tray.level == 0 ? "<b>empty</b>" : "\(max(0, tray.level)) of")"
            inner += "\(tray.level == 0 ? " (holds \(tray.capacity))" : " \(tray.capacity) sheets")</span>"
            inner += " <meter min=\"0\" max=\"\(tray.capacity)\" value=\"\(max(0, tray.level))\" "
            inner += "aria-label=\"\(e(tray.name)) sheets\"></meter><br>Loaded: <span class=\"tray-media\">"
            inner += "\(e(loaded))</span>\(tray.isManual ? " (manual feed: one sheet at a time)" : "")</p>"
            inner += "<form class=\"load\" data-call=\"POST \(api)/trays\" id=\"\(e(id))-form\">"
            inner += "<input type=\"hidden\" name=\"source\" value=\"\(e(tray.name))\">"
            inner += "<label>Size <select name=\"media\" id=\"\(e(id))-media\">"
            for size in sizes where MediaSize(pwgName: size) != nil {
                inner += "<option\(size == tray.media ? " selected" : "")>\(e(size))</option>"
            }
            inner += "</select></label>"
            if !types.isEmpty {
                inner += "<label>Type <select name=\"media-type\" id=\"\(e(id))-type\">"
                for type in types { inner += "<option\(type == tray.mediaType ? " selected" : "")>\(e(type))</option>" }
                inner += "</select></label>"
            }
            inner += "<label>Sheets <input type=\"number\" name=\"level\" id=\"\(e(id))-level\" min=\"0\" "
            inner += "max=\"\(tray.capacity)\" value=\"\(tray.capacity)\" inputmode=\"numeric\"></label>"
            inner +=
                "<button type=\"submit\" id=\"\(e(id))-load\" aria-label=\"Load the tray \(e(tray.name))\">Load</button></form>"
            inner += emptyAndFillButtons(tray, api: api, id: id, full: tray.level == tray.capacity)
            inner += "</li>"
        }
        inner += "</ul>"
        return section("trays", "Paper trays", HTML.controls(inner, label: "Trays"))
    }

    /// The Empty and Fill buttons of a tray or roll (`POST .../trays`).
    private static func emptyAndFillButtons(_ tray: Printer.TrayStatus, api: String, id: String, full: Bool) -> String {
        let source = HTML.jsonString(tray.name)
        let kind = tray.isRoll ? "roll" : "tray"
        return HTML.callButton(
            "Empty", call: "POST \(api)/trays", body: "{\"source\": \(source), \"level\": 0}", id: "\(id)-empty",
            ariaLabel: "Empty the \(kind) \(tray.name)",
            disabledReason: tray.level == 0 ? "already empty" : nil)
            + " "
            + HTML.callButton(
                "Fill", call: "POST \(api)/trays", body: "{\"source\": \(source)}", id: "\(id)-fill",
                ariaLabel: "Fill the \(kind) \(tray.name)",
                disabledReason: full ? (tray.isRoll ? "already loaded" : "already full") : nil)
    }

    /// Each marker supply: its level, set or replaced (`POST .../supplies`).
    static func supplySection(_ printer: Printer, api: String) -> String {
        let e = HTML.escape
        let supplies = PrinterOverview(printer).supplies
        guard !supplies.isEmpty else {
            return section(
                "supplies", "Supplies",
                "<p class=\"why\">This profile lists no supplies (printer-supply): nothing to set.</p>")
        }
        var inner = "<ul class=\"supplies\">"
        for (offset, supply) in supplies.enumerated() {
            let index = offset + 1
            let id = "supply-\(index)"
            inner += "<li id=\"\(id)\">\(meter(label: supply.description, percent: supply.level))"
            inner += "<form class=\"supply\" data-call=\"POST \(api)/supplies\" id=\"\(id)-form\">"
            inner += "<input type=\"hidden\" name=\"index\" value=\"\(index)\" data-type=\"number\">"
            inner += "<label>Level (%) <input type=\"number\" name=\"level\" id=\"\(id)-level\" min=\"0\" "
            inner += "max=\"100\" value=\"\(supply.level ?? 100)\" inputmode=\"numeric\"></label>"
            inner +=
                "<button type=\"submit\" id=\"\(id)-set\" aria-label=\"Set \(e(supply.description))\">Set</button></form>"
            inner += HTML.callButton(
                supply.supplyClass == "receptacleThatIsFilled" ? "Empty it" : "Replace", call: "POST \(api)/supplies",
                body: "{\"index\": \(index), \"level\": \(supply.supplyClass == "receptacleThatIsFilled" ? 0 : 100)}",
                id: "\(id)-replace",
                ariaLabel:
                    "\(supply.supplyClass == "receptacleThatIsFilled" ? "Empty" : "Replace") \(supply.description)")
            inner +=
                " <small>\(e(supply.type))\(supply.colorantName.isEmpty ? "" : ", \(e(supply.colorantName))")</small>"
            inner += "</li>"
        }
        inner += "</ul>"
        return section("supplies", "Supplies", HTML.controls(inner, label: "Supplies"))
    }

    /// The output bin: how full it is; emptied or filled (`POST .../output-bin`).
    static func binSection(_ printer: Printer, api: String) -> String {
        let e = HTML.escape
        let bins = printer.outputBins.filter { $0.capacity > 0 }
        guard let bin = bins.first else {
            return section(
                "bin", "Output bin",
                "<p class=\"why\">This profile's output bin has no known capacity (printer-output-tray): it never "
                    + "fills.</p>")
        }
        var inner = "<p>\(e(bin.name)): <b id=\"bin-level\">\(max(0, bin.level)) of \(bin.capacity) sheets</b> "
        inner += "<meter min=\"0\" max=\"\(bin.capacity)\" value=\"\(max(0, bin.level))\" "
        inner += "aria-label=\"\(e(bin.name)) sheets\"></meter></p>"
        inner += HTML.callButton(
            "Empty the bin", call: "POST \(api)/output-bin", body: "{\"level\": 0}", id: "bin-empty",
            disabledReason: bin.level <= 0 ? "already empty" : nil)
        inner += " "
        inner += HTML.callButton(
            "Fill the bin", call: "POST \(api)/output-bin", body: "{\"level\": \(bin.capacity)}", id: "bin-fill",
            disabledReason: bin.level >= bin.capacity ? "already full" : nil)
        return section("bin", "Output bin", HTML.controls(inner, label: "Output bin"))
    }

    /// Shipped scenarios to play, and those playing with their faults (`POST|DELETE .../scenarios`).
    static func scenarioSection(_ printer: Printer, api: String, context: WebContext) -> String {
        let e = HTML.escape
        let shipped = Scenario.shipped(profileDirectories: context.profileDirectories)
        let playing = printer.playingScenarios
        var inner = ""
        if shipped.isEmpty {
            inner += "<p class=\"why\">No shipped scenarios were found (a <code>scenarios</code> folder beside the "
            inner += "profiles).</p>"
        } else {
            inner += "<form class=\"scenario\" data-call=\"POST \(api)/scenarios\" id=\"scenario-form\">"
            inner += "<label>Scenario <select name=\"scenario\" id=\"scenario-name\">"
            for scenario in shipped {
                inner += "<option value=\"\(e(scenario.name))\" title=\"\(e(scenario.description))\">"
                inner += "\(e(scenario.name))</option>"
            }
            inner += "</select></label><button type=\"submit\" id=\"scenario-play\">Play</button></form>"
        }
        if playing.isEmpty {
            inner += "<p id=\"scenarios-playing\">No scenario is playing.</p>"
        } else {
            inner += "<ul id=\"scenarios-playing\">"
            for scenario in playing {
                let description = shipped.first { $0.name == scenario.name }?.description ?? ""
                inner += "<li><b>\(e(scenario.name))</b>: \(scenario.faults) fault\(scenario.faults == 1 ? "" : "s") "
                inner += "held. <small>\(e(description))</small> "
                inner += HTML.callButton(
                    "Stop", call: "DELETE \(api)/scenarios/\(HTML.percentEncode(scenario.name))",
                    id: "stop-\(PrinterConfiguration.pathSegment(for: scenario.name))",
                    ariaLabel: "Stop the scenario \(scenario.name)")
                inner += "</li>"
            }
            inner += "</ul>"
        }
        return section("scenarios", "Scenarios", HTML.controls(inner, label: "Scenarios"))
    }

    /// The faults held, each cleared on its own (`DELETE .../faults/<id>`).
    static func faultSection(_ printer: Printer, api: String) -> String {
        let e = HTML.escape
        let faults = printer.faults.faults
        guard !faults.isEmpty else {
            return section("faults", "Faults held", "<p id=\"fault-count\">None.</p>", wide: true)
        }
        var inner = "<div class=\"scroll\"><table class=\"faults\"><thead><tr><th scope=\"col\">#</th>"
        inner += "<th scope=\"col\">Name</th><th scope=\"col\">When</th><th scope=\"col\">What</th>"
        inner += "<th scope=\"col\">Fired</th><th scope=\"col\"><span class=\"visually-hidden\">Clear</span></th>"
        inner += "</tr></thead><tbody>"
        for fault in faults {
            let group = fault.spec.group.map { " <small>(\(e($0)))</small>" } ?? ""
            var what = FaultWords.effect(fault.spec.effect)
            if let seconds = fault.spec.clearAfter { what += "; clears itself \(FaultWords.number(seconds)) s later" }
            inner += "<tr><td>\(fault.id)</td><td>\(e(fault.spec.name ?? ""))\(group)</td>"
            inner += "<td>\(e(FaultWords.trigger(fault.spec.trigger)))</td><td>\(e(what))</td>"
            inner += "<td>\(fault.firedAt.map { JobRecord.iso8601($0) } ?? "not yet")</td><td>"
            inner += HTML.callButton(
                "Clear", call: "DELETE \(api)/faults/\(fault.id)", id: "clear-fault-\(fault.id)",
                ariaLabel: "Clear fault \(fault.id)")
            inner += "</td></tr>"
        }
        inner += "</tbody></table></div>"
        return section("faults", "Faults held", HTML.controls(inner, label: "Faults"), wide: true)
    }
}
