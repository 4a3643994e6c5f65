import PrinterCore
import Profiles

/// The printers at a glance: state, reasons, power, supplies and jobs of each, a link to its front panel, and
/// (when a fleet runs them) a form that creates a printer from a profile and a button that deletes one.
enum PrinterList {
    static func html(_ context: WebContext) -> String {
        let e = HTML.escape
        var html = "<section class=\"printers\" aria-labelledby=\"printers\"><h2 id=\"printers\">Printers</h2>"
        html += "<div id=\"printer-list\" data-live><div class=\"scroll\"><table class=\"printer-table\">"
        html += "<thead><tr><th scope=\"col\">Printer</th><th scope=\"col\">State</th><th scope=\"col\">Reasons</th>"
        html += "<th scope=\"col\">Power</th><th scope=\"col\">Supplies</th><th scope=\"col\">Jobs</th>"
        html += "<th scope=\"col\">URI</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th>"
        html += "</tr></thead><tbody>"
        for hosted in context.printers {
            let overview = PrinterOverview(hosted.printer)
            let segment = PrinterConfiguration.pathSegment(for: overview.name)
            html += "<tr class=\"printer\" id=\"printer-\(e(segment))\" data-printer=\"\(e(overview.name))\">"
            html += "<th scope=\"row\"><a href=\"\(WebContext.panelPath(hosted.printer))\">\(e(overview.name))</a>"
            if hosted.isRuntime { html += " <small>(created at runtime)</small>" }
            html += "</th><td>\(HTML.stateBadge(overview.state))"
            if !overview.isAcceptingJobs { html += " <small>not accepting jobs</small>" }
            html += "</td><td class=\"printer-state-reasons\">\(e(overview.reasons.joined(separator: ", ")))</td>"
            html += "<td class=\"power power-\(overview.isOn ? "on" : "off")\">\(overview.isOn ? "on" : "off")</td>"
            html += "<td>"
            for supply in overview.supplies {
                html += FrontPanel.meter(label: supply.description, percent: supply.level, compact: true)
            }
            if overview.supplies.isEmpty { html += "—" }
            html += "</td><td>\(HTML.count(overview.jobCount))</td>"
            html += "<td><code>ipp://…\(e(overview.resourcePath))</code></td><td>"
            html += "<a href=\"\(WebContext.panelPath(hosted.printer))\">Front panel</a> "
            if context.canCreatePrinters {
                html += HTML.callButton(
                    "Delete", call: "DELETE \(WebContext.apiPath(hosted.printer))",
                    confirm: "Delete the printer '\(overview.name)'? Its advertisement goes away and its "
                        + "unfinished jobs are aborted; its records stay in the output folder.",
                    id: "delete-\(segment)", ariaLabel: "Delete the printer \(overview.name)", standalone: true)
            }
            html += "</td></tr>"
        }
        html += "</tbody></table></div></div>"
        html += createForm(context)
        return html + "</section>"
    }

    /// Creating a printer at runtime: `POST /api/v1/printers {"name", "profile", "scenario"}`.
    static func createForm(_ context: WebContext) -> String {
        let e = HTML.escape
        guard context.canCreatePrinters else {
            return "<p class=\"why\">Printers cannot be created here: this printer runs embedded in a program "
                + "(VirtualPrinterKit), not as the vprinter command.</p>"
        }
        let profiles = PrinterProfile.shippedNames(in: context.profileDirectories)
        let scenarios = Scenario.shipped(profileDirectories: context.profileDirectories)
        var inner = "<form class=\"create\" id=\"create-printer\" data-call=\"POST /api/v1/printers\">"
        inner += "<label>Name <input name=\"name\" id=\"create-name\" required maxlength=\"63\" "
        inner += "pattern=\"[^\\/]+\" autocomplete=\"off\"></label>"
        inner += "<label>Profile <select name=\"profile\" id=\"create-profile\">"
        for profile in profiles {
            inner += "<option\(profile == "duplex-laser" ? " selected" : "")>\(e(profile))</option>"
        }
        inner += "</select></label><label>Scenario <select name=\"scenario\" id=\"create-scenario\">"
        inner += "<option value=\"\">none</option>"
        for scenario in scenarios { inner += "<option>\(e(scenario.name))</option>" }
        inner += "</select></label><button type=\"submit\" id=\"create-submit\">Create printer</button></form>"
        if profiles.isEmpty { inner += "<p class=\"why\">No shipped profiles were found.</p>" }
        return HTML.controls(inner, label: "Create a printer")
    }
}
