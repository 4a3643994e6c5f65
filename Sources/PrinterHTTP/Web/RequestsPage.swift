import PrintModel
import RequestJournal

/// `/requests`: the request journal as a table, newest first. Each request opens (a `details` element, no script
/// needed) to every attribute it sent, group by group with each value's tag, and to what it was answered; a
/// request that created or touched a job links to the job's page. A request with findings (what the client did
/// wrong) shows its highest severity on its line, and each finding with its rule and section when opened.
enum RequestsPage {
    /// The most requests the page lists; the JSON API has them all.
    static let maximumRows = 500

    static func html(_ entries: [JournalEntry], isOn: Bool) -> String {
        var body = "<h1>Requests</h1>"
        guard isOn else {
            return HTML.page(
                title: "Requests", body: body + "<p>The request journal is off (<code>--journal-size 0</code>).</p>")
        }
        let shown = entries.suffix(maximumRows).reversed()
        body += "<p>The newest \(shown.count) of \(entries.count) requests in the journal, newest first; "
        body += "all of them, filtered, at <a href=\"/api/v1/requests\">/api/v1/requests</a>.</p>"
        guard !shown.isEmpty else { return HTML.page(title: "Requests", body: body + "<p>None yet.</p>") }
        body += "<ol class=\"requests\">"
        for entry in shown { body += row(entry) }
        body += "</ol>"
        return HTML.page(title: "Requests", body: body)
    }

    /// One request: a summary line that opens to its attributes.
    static func row(_ entry: JournalEntry) -> String {
        let e = HTML.escape
        let what =
            entry.ipp.map { "\($0.operation) → \($0.status)" }
            ?? "\(entry.http.method) \(entry.http.path) → \(entry.http.status)"
        var summary = "<span class=\"request-id\">#\(entry.id)</span> <time>\(e(entry.time))</time> "
        summary += "<strong>\(e(what))</strong> from \(e(entry.client.address))"
        if let agent = entry.client.userAgent { summary += " <span class=\"agent\">\(e(agent))</span>" }
        if let printer = entry.printer { summary += " to \(e(printer))" }
        if let severity = entry.highestSeverity {
            let count = entry.findings?.count ?? 0
            summary += " <span class=\"finding \(severity.rawValue)\">\(count) finding\(count == 1 ? "" : "s"): "
            summary += "\(severity.rawValue)</span>"
        }
        var html = "<li id=\"request-\(entry.id)\"><details><summary>\(summary)</summary>"
        var facts = [
            ("Connection", "\(entry.connection)\(entry.tls ? ", TLS" : "")"),
            ("Duration", "\(entry.durationMilliseconds) ms"),
        ]
        if let user = entry.user { facts.append(("User", e(user))) }
        if let problem = entry.problem { facts.append(("Problem", e(problem))) }
        if let ipp = entry.ipp {
            facts.append(("IPP", "\(e(ipp.version)), request-id \(ipp.requestID)"))
            if let job = ipp.jobID { facts.append(("Job", "<a href=\"/jobs/\(job)\">\(job)</a>")) }
            if let document = ipp.document {
                let detected = document.detectedFormat.map { " (found \(e($0)))" } ?? ""
                facts.append(("Document", "\(e(document.format))\(detected), \(HTML.count(document.size)) bytes"))
            }
        }
        html += "<dl>" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>"
        if let findings = entry.findings {
            html += "<ul class=\"findings\">"
            for finding in findings {
                html +=
                    "<li class=\"finding \(finding.severity.rawValue)\"><strong>\(finding.severity.rawValue)</strong> "
                html += "<code>\(e(finding.rule.rawValue))</code> (\(e(finding.reference))): \(e(finding.message))</li>"
            }
            html += "</ul>"
        }
        if let ipp = entry.ipp {
            for group in ipp.groups { html += attributes(group.attributes, caption: group.tag) }
            if !ipp.unsupported.isEmpty { html += attributes(ipp.unsupported, caption: "unsupported-attributes-tag") }
        }
        return html + "</details></li>"
    }

    /// The most values of one attribute the page shows; the JSON API has them all. A request of 100,000 values
    /// would otherwise be a page of 100,000 rows for each time it was sent.
    static let maximumValuesShown = 100

    /// A table of attributes: name, value tag and value, a collection's members nested; at most
    /// `maximumValuesShown` values of each, then how many it has.
    static func attributes(_ attributes: [JournaledAttribute], caption: String) -> String {
        var html = "<table class=\"attributes\"><caption>\(HTML.escape(caption))</caption><tbody>"
        for attribute in attributes {
            if attribute.values.count > maximumValuesShown {
                html += "<tr><th scope=\"row\">\(HTML.escape(attribute.name))</th><td></td><td>the first "
                html += "\(maximumValuesShown) of \(HTML.count(attribute.values.count)) values</td></tr>"
            }
            for (index, value) in attribute.values.prefix(maximumValuesShown).enumerated() {
                let name = index == 0 ? HTML.escape(attribute.name) : ""
                html += "<tr><th scope=\"row\">\(name)</th><td>\(HTML.escape(value.tag))</td><td>"
                if let members = value.members {
                    html += self.attributes(members, caption: "collection")
                } else {
                    html += HTML.escape(value.matchText ?? "")
                    if let language = value.language {
                        html += " <span class=\"agent\">(\(HTML.escape(language)))</span>"
                    }
                }
                html += "</td></tr>"
            }
        }
        return html + "</tbody></table>"
    }
}
