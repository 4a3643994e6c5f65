import PrintModel
import PrinterCore

/// The viewer of one job at `/jobs/<id>`: its state, each printed sheet as a front and back pair with the
/// page numbers placed on each side and each side's text beside it, the ticket the client sent next to what the
/// printer did, its warnings, documents and state history. Keys (with the script): ← → sides, [ ] jobs, z zoom.
enum JobPage {
    /// The jobs before and after this one in id order (the job list's order, newest first, reversed).
    struct Neighbours {
        var older: Int?
        var newer: Int?
    }

    static func html(_ job: Job, printer: Printer, neighbours: Neighbours) -> String {
        let e = HTML.escape
        let record = JobRecord(job)
        var body = "<nav class=\"crumbs\" aria-label=\"Jobs\"><a href=\"/\">All jobs</a> · "
        body += "<a href=\"\(WebContext.panelPath(printer))\">\(e(printer.name))</a> · "
        body +=
            neighbours.older.map { "<a href=\"/jobs/\($0)\" id=\"older-job\" rel=\"prev\">‹ job \($0)</a>" }
            ?? "<span class=\"pager-off\">‹ no older job</span>"
        body += " · "
        body +=
            neighbours.newer.map { "<a href=\"/jobs/\($0)\" id=\"newer-job\" rel=\"next\">job \($0) ›</a>" }
            ?? "<span class=\"pager-off\">no newer job ›</span>"
        body += " · <a href=\"/api/v1/jobs/\(job.id)\">record (JSON)</a> · "
        body += "<a href=\"/api/v1/jobs/\(job.id)/text\">text (JSON)</a></nav>"
        body +=
            "<h1>Job \(job.id): <span class=\"job-name\">\(e(job.name.isEmpty ? "(no name)" : job.name))</span></h1>"
        body += "<div id=\"job-summary\" data-live>\(summary(job, record: record))</div>"
        body += "<section class=\"viewer\" aria-labelledby=\"sides-title\"><h2 id=\"sides-title\">Printed sheets</h2>"
        body +=
            "<div class=\"toolbar\"><button type=\"button\" id=\"zoom\" aria-pressed=\"false\" data-needs-js disabled>"
        body += "Zoom to 100 %</button> <span id=\"side-position\" aria-live=\"polite\"></span>"
        body += "<p class=\"hint\">Keys: <kbd>←</kbd> <kbd>→</kbd> previous and next side, <kbd>[</kbd> <kbd>]</kbd> "
        body += "older and newer job, <kbd>z</kbd> zoom. Click a side for its PNG at full size.</p></div>"
        body += "<div id=\"sheets\" data-live>\(sheets(job, printer: printer))</div></section>"
        body += "<div id=\"job-details\" data-live>"
        body += ticket(record)
        body += warnings(record)
        body += history(job)
        body += documents(job)
        body += "</div>"
        return HTML.page(title: "vprinter job \(job.id)", body: body, live: .job(job.id))
    }

    /// State, reasons, message and the facts of the job.
    static func summary(_ job: Job, record: JobRecord) -> String {
        let e = HTML.escape
        var html = "<dl class=\"facts job-summary\"><dt>State</dt><dd>"
        html += "<span class=\"job-state\">\(HTML.stateBadge(job.state.keyword))</span></dd>"
        html += "<dt>Reasons</dt><dd class=\"job-state-reasons\">\(e(job.reasons.joined(separator: ", ")))</dd>"
        html += "<dt>Message</dt><dd>\(e(job.message))</dd>"
        html += "<dt>Printer</dt><dd>\(e(job.printerName))</dd>"
        html += "<dt>User</dt><dd>\(e(job.user))</dd>"
        html += "<dt>Client</dt><dd>\(e(job.client.address + (job.client.userAgent.map { " (\($0))" } ?? "")))</dd>"
        let times =
            [("Created", record.times.created), ("Processing", record.times.processing)]
            + [("Completed", record.times.completed)]
        for case (let name, let time?) in times {
            html += "<dt>\(name)</dt><dd><time>\(e(time))</time></dd>"
        }
        let sheets = record.sheets
        html += "<dt>Printed</dt><dd>\(job.impressions.count) side\(job.impressions.count == 1 ? "" : "s") on "
        html += "\(sheets) sheet\(sheets == 1 ? "" : "s") × \(job.copies) cop\(job.copies == 1 ? "y" : "ies")</dd>"
        let actual = [
            ("media-actual", record.mediaActual), ("sides-actual", record.sidesActual),
            ("print-color-mode-actual", record.printColorModeActual),
        ]
        for case (let key, let value?) in actual {
            html += "<dt>\(key)</dt><dd>\(e(value))</dd>"
        }
        return html + "</dl>"
    }

    /// The ticket as sent next to what the printer printed with: attributes it ignored or replaced are marked,
    /// and media, sides and print-color-mode show the value used (`*-actual`).
    static func ticket(_ record: JobRecord) -> String {
        let e = HTML.escape
        let sent = record.attributes
        let ignored = record.ignoredAttributes
        let actual: [String: String?] = [
            "media": record.mediaActual, "media-col": record.mediaActual, "sides": record.sidesActual,
            "print-color-mode": record.printColorModeActual,
        ]
        var html = "<section aria-labelledby=\"ticket-title\"><h2 id=\"ticket-title\">Ticket: sent and done</h2>"
        html += "<div class=\"scroll\"><table class=\"ticket\"><thead><tr><th scope=\"col\">Attribute</th>"
        html +=
            "<th scope=\"col\">Sent by the client</th><th scope=\"col\">What the printer did</th></tr></thead><tbody>"
        var names = Set(sent.keys)
        for entry in ignored { names.insert(entry.name) }
        // Media, sides and color mode are always shown: what was used when the client sent none.
        if !names.contains("media-col") { names.insert("media") }
        names.formUnion(["sides", "print-color-mode"])
        for name in names.sorted() {
            let ignoredEntry = ignored.first { $0.name == name }
            let sentValue: String
            if let value = sent[name] {
                sentValue = "<code>\(e(HTML.jsonText(value.anyValue)))</code>"
            } else if let entry = ignoredEntry {
                sentValue = "<code>\(e(HTML.jsonText(entry.sent.anyValue)))</code>"
            } else {
                sentValue = "<span class=\"muted\">not sent</span>"
            }
            var done: String
            var rowClass = ""
            if let entry = ignoredEntry {
                let reason = entry.reason
                let message = entry.message
                if let used = entry.used {
                    done = "<b>replaced</b> by <code>\(e(HTML.jsonText(used.anyValue)))</code>"
                } else {
                    done = "<b>ignored</b>"
                }
                done += " <small>(\(e(reason)): \(e(message)))</small>"
                rowClass = " class=\"changed\""
            } else if let value = actual[name] ?? nil {
                let asSent = sent[name]?.stringValue == value
                done = asSent ? "printed as sent" : "printed with <code>\(e(value))</code>"
                if sent[name] == nil { done += " <small>(the printer's default)</small>" }
            } else {
                done = "printed as sent"
            }
            html += "<tr\(rowClass)><th scope=\"row\">\(e(name))</th><td>\(sentValue)</td><td>\(done)</td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }

    /// What was wrong but printable.
    static func warnings(_ record: JobRecord) -> String {
        let e = HTML.escape
        let list = record.warnings
        var html = "<section aria-labelledby=\"warnings-title\"><h2 id=\"warnings-title\">Warnings</h2>"
        guard !list.isEmpty else { return html + "<p id=\"warning-count\">None: nothing was wrong.</p></section>" }
        html += "<ul class=\"warnings\" id=\"warning-list\">"
        for warning in list {
            var place: [String] = []
            if let document = warning.document { place.append("document \(document)") }
            if let page = warning.page { place.append("page \(page)") }
            html += "<li><b>\(e(warning.kind.rawValue))</b>"
            if !place.isEmpty { html += " (\(place.joined(separator: ", ")))" }
            html += ": \(e(warning.message))</li>"
        }
        return html + "</ul></section>"
    }

    /// Every state the job passed through.
    static func history(_ job: Job) -> String {
        let e = HTML.escape
        var html = "<section aria-labelledby=\"history-title\"><h2 id=\"history-title\">State history</h2>"
        html += "<div class=\"scroll\"><table class=\"history\"><thead><tr><th scope=\"col\">Time</th>"
        html += "<th scope=\"col\">State</th><th scope=\"col\">Reasons</th></tr></thead><tbody>"
        for entry in job.history {
            html += "<tr><td><time>\(JobRecord.iso8601(entry.time))</time></td>"
            html += "<td>\(HTML.stateBadge(entry.state.keyword))</td>"
            html += "<td>\(e(entry.reasons.joined(separator: ", ")))</td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }

    /// The documents as received, each linking to its file.
    static func documents(_ job: Job) -> String {
        let e = HTML.escape
        var html = "<section aria-labelledby=\"documents-title\"><h2 id=\"documents-title\">Documents</h2>"
        guard !job.documents.isEmpty else { return html + "<p>None received.</p></section>" }
        html += "<div class=\"scroll\"><table class=\"documents\"><thead><tr><th scope=\"col\">#</th>"
        html += "<th scope=\"col\">Name</th><th scope=\"col\">Format sent</th><th scope=\"col\">Format found</th>"
        html += "<th scope=\"col\">Compression</th><th scope=\"col\">Bytes</th><th scope=\"col\">Pages</th>"
        html += "<th scope=\"col\">SHA-256</th></tr></thead><tbody>"
        for document in job.documents {
            let url = "/api/v1/jobs/\(job.id)/files/\(e(document.file))"
            html += "<tr><td><a href=\"\(url)\">\(document.number)</a></td><td>\(e(document.name ?? ""))</td>"
            html +=
                "<td>\(e(document.format.rawValue))</td><td>\(e(document.detectedFormat?.rawValue ?? "unknown"))</td>"
            html += "<td>\(e(document.compression))</td><td>\(HTML.count(document.size))</td>"
            html +=
                "<td>\(document.pages.map(String.init) ?? "")</td><td><code class=\"hash\">\(e(document.sha256))</code></td>"
            html += "</tr>"
        }
        return html + "</tbody></table></div></section>"
    }
}
