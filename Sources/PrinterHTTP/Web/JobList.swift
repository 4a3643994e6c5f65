import Foundation
import PrintModel
import PrinterCore

/// The job list of the web page: newest first, one page of ``pageSize`` rows rendered on the server whatever
/// the number of jobs, with a search form (name or user, text, state, printer) that works without JavaScript.
///
/// The filters are those of `GET /api/v1/jobs` (``JobQuery``) for state, printer and text, plus `q`: a part of
/// the job's name or user, in any case, which a person types more often than an exact name.
struct JobList {
    /// Rows per page.
    static let pageSize = 50
    /// The longest `q` accepted, in characters.
    static let maximumSearchLength = 200
    /// The most thumbnails a row shows; the viewer shows every side.
    static let thumbnailsPerRow = 2
    /// The highest page number taken from a query (a larger one shows this page: past the end, an empty list).
    static let maximumPage = 1_000_000

    var search: String?
    var text: String?
    var state: String?
    var printer: String?
    var page = 1
    /// Why the query could not be applied, for the form.
    var problem: String?

    /// True on a printer's own page: the printer is not a choice of the form.
    var isPrinterFixed = false
    /// The jobs the reader may see (their own, when credentials are asked for: docs/security.md); nil: every job.
    var visible: ((Job) -> Bool)?

    /// The list a request asks for; `fixedPrinter` is the printer of a front panel page.
    init(query: [(name: String, value: String)], fixedPrinter: String? = nil, visible: ((Job) -> Bool)? = nil) {
        self.visible = visible
        for (name, value) in query where !value.isEmpty {
            switch name {
            case "q": search = String(value.prefix(Self.maximumSearchLength))
            case "text": text = value
            case "state": state = value
            case "printer": printer = value
            case "page": page = max(1, min(Int(value) ?? 1, Self.maximumPage))
            default: break
            }
        }
        if let fixedPrinter {
            printer = fixedPrinter
            isPrinterFixed = true
        }
    }

    /// The filters that ``JobQuery`` applies (state, printer, text).
    func jobQuery() throws(JobQueryError) -> JobQuery {
        var parameters: [(name: String, value: String)] = []
        if let state { parameters.append(("state", state)) }
        if let printer { parameters.append(("printer", printer)) }
        if let text { parameters.append(("text", text)) }
        return try JobQuery(parameters: parameters)
    }

    /// One page of the matching jobs, newest first, and how many match in all. Without filters (and with every
    /// job visible) only the page's jobs are read (ids are enough to count and order them); with filters each
    /// job is checked once.
    mutating func select(from printers: [Printer]) -> (jobs: [Job], total: Int) {
        let query: JobQuery
        do throws(JobQueryError) {
            query = try jobQuery()
        } catch {
            problem = error.description
            return ([], 0)
        }
        let chosen = printers.filter { query.printer == nil || $0.name == query.printer }
        let start = (page - 1) * Self.pageSize
        if search == nil, query.states == nil, query.text == nil, visible == nil {
            var ids: [(id: Int, printer: Printer)] = []
            for printer in chosen { ids += printer.jobIDList.map { ($0, printer) } }
            ids.sort { $0.id > $1.id }
            guard start < ids.count else { return ([], ids.count) }
            let page = ids[start..<min(ids.count, start + Self.pageSize)].compactMap { $0.printer.job($0.id) }
            return (page, ids.count)
        }
        let needle = search?.lowercased()
        var matching: [Job] = []
        for printer in chosen {
            var jobs = printer.jobs
            if let visible { jobs = jobs.filter(visible) }
            if let states = query.states {
                jobs = jobs.filter { job in states.contains { JobQuery.state(job.state.keyword, is: $0) } }
            }
            if let needle {
                jobs = jobs.filter { $0.name.lowercased().contains(needle) || $0.user.lowercased().contains(needle) }
            }
            if query.text != nil {
                // The API's text filter: sides read by OCR the first time (docs/api.md "Queries").
                jobs = jobs.filter { query.matches(text: (printer.sideTexts(jobID: $0.id) ?? []).compactMap(\.text)) }
            }
            matching += jobs
        }
        matching.sort { $0.id > $1.id }
        guard start < matching.count else { return ([], matching.count) }
        return (Array(matching[start..<min(matching.count, start + Self.pageSize)]), matching.count)
    }

    /// The query string of this list on another page.
    func queryString(page: Int) -> String {
        var parts: [String] = []
        if let search { parts.append("q=\(HTML.percentEncode(search))") }
        if let text { parts.append("text=\(HTML.percentEncode(text))") }
        if let state { parts.append("state=\(HTML.percentEncode(state))") }
        if let printer, !isPrinterFixed { parts.append("printer=\(HTML.percentEncode(printer))") }
        if page > 1 { parts.append("page=\(page)") }
        return parts.isEmpty ? "?" : "?" + parts.joined(separator: "&")
    }

    var isFiltered: Bool { search != nil || text != nil || state != nil || (printer != nil && !isPrinterFixed) }

    /// The states offered in the form.
    static let stateChoices = [
        ("", "any state"), ("active", "not ended"), ("ended", "ended"), ("pending", "pending"),
        ("pending-held", "pending-held"), ("processing", "processing"), ("processing-stopped", "processing-stopped"),
        ("completed", "completed"), ("canceled", "canceled"), ("aborted", "aborted"),
    ]

    /// The search form, the list and its pager; `printerNames` fills the printer choice (several printers).
    func html(printers: [Printer], action: String, resetCall: String, resetWhat: String) -> String {
        var list = self
        let (jobs, total) = list.select(from: printers)
        let e = HTML.escape
        var html = "<section class=\"jobs\" aria-labelledby=\"jobs-title\"><h2 id=\"jobs-title\">Jobs</h2>"
        html += "<form class=\"search\" method=\"get\" action=\"\(e(action))\" role=\"search\">"
        html += "<label>Name or user <input type=\"search\" name=\"q\" id=\"search-q\" value=\"\(e(search ?? ""))\" "
        html += "maxlength=\"\(Self.maximumSearchLength)\" autocomplete=\"off\"></label>"
        html += "<label>Text on a side <input type=\"search\" name=\"text\" id=\"search-text\" "
        html += "value=\"\(e(text ?? ""))\" maxlength=\"\(JobQuery.maximumTextLength)\"></label>"
        html += "<label>State <select name=\"state\" id=\"search-state\">"
        for (value, label) in Self.stateChoices {
            html += "<option value=\"\(value)\"\(value == (state ?? "") ? " selected" : "")>\(label)</option>"
        }
        html += "</select></label>"
        if !isPrinterFixed, printers.count > 1 {
            html +=
                "<label>Printer <select name=\"printer\" id=\"search-printer\"><option value=\"\">any printer</option>"
            for printer in printers {
                let selected = printer.name == self.printer ? " selected" : ""
                html += "<option value=\"\(e(printer.name))\"\(selected)>\(e(printer.name))</option>"
            }
            html += "</select></label>"
        }
        html += "<button type=\"submit\" id=\"search-submit\">Search</button>"
        if isFiltered { html += " <a href=\"\(e(action))\">Show all jobs</a>" }
        html += "</form>"
        if let problem = list.problem {
            html += "<p class=\"error\" role=\"alert\">The search cannot be applied: \(e(problem)).</p>"
        }
        html += HTML.controls(
            HTML.callButton(
                "Reset: delete \(resetWhat)", call: resetCall,
                confirm: "Delete \(resetWhat) and their files? "
                    + "This cannot be undone.", id: "reset-jobs"), label: "Reset")
        html += "<div id=\"job-list\" data-live>"
        html += summary(count: jobs.count, total: total)
        if !jobs.isEmpty {
            let showPrinter = !isPrinterFixed && printers.count > 1
            html += "<div class=\"scroll\"><table class=\"job-table\"><caption class=\"visually-hidden\">Jobs, newest "
            html += "first</caption><thead><tr><th scope=\"col\">Job</th><th scope=\"col\">State</th>"
            html += "<th scope=\"col\">Name</th><th scope=\"col\">User</th>"
            if showPrinter { html += "<th scope=\"col\">Printer</th>" }
            html += "<th scope=\"col\">Format</th><th scope=\"col\">Sides</th><th scope=\"col\">Created</th>"
            html += "<th scope=\"col\">Printed</th></tr></thead><tbody>"
            for job in jobs { html += Self.row(job, showPrinter: showPrinter) }
            html += "</tbody></table></div>"
        }
        html += pager(total: total)
        return html + "</div></section>"
    }

    func summary(count: Int, total: Int) -> String {
        guard total > 0 else {
            return isFiltered
                ? "<p class=\"empty\" id=\"job-count\">No job matches this search.</p>"
                : "<p class=\"empty\" id=\"job-count\">No jobs yet. Print to the printer and they appear here.</p>"
        }
        guard count > 0 else {
            return "<p id=\"job-count\">Page \(page) is past the last job (\(HTML.count(total)) jobs).</p>"
        }
        let first = (page - 1) * Self.pageSize + 1
        return "<p id=\"job-count\">Jobs \(HTML.count(first))–\(HTML.count(first + count - 1)) of "
            + "<b>\(HTML.count(total))</b>\(isFiltered ? " matching" : ""), newest first.</p>"
    }

    func pager(total: Int) -> String {
        let pages = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        guard pages > 1 else { return "" }
        func link(_ label: String, _ target: Int, rel: String, id: String) -> String {
            guard target != page, target >= 1, target <= pages else {
                return "<span class=\"pager-off\" aria-disabled=\"true\">\(label)</span>"
            }
            return "<a href=\"\(HTML.escape(queryString(page: target)))\" rel=\"\(rel)\" id=\"\(id)\">\(label)</a>"
        }
        return "<nav class=\"pager\" aria-label=\"Pages of jobs\">"
            + link("« Newest", 1, rel: "first", id: "page-first")
            + link("‹ Newer", page - 1, rel: "prev", id: "page-prev")
            + "<span>Page \(HTML.count(min(page, pages))) of \(HTML.count(pages))</span>"
            + link("Older ›", page + 1, rel: "next", id: "page-next")
            + link("Oldest »", pages, rel: "last", id: "page-last")
            + "</nav>"
    }

    /// One job's row: id and name link to the viewer.
    static func row(_ job: Job, showPrinter: Bool) -> String {
        let e = HTML.escape
        let format = job.documents.map(\.effectiveFormat.rawValue).joined(separator: ", ")
        var html = "<tr class=\"job\" id=\"job-\(job.id)\"><td><a href=\"/jobs/\(job.id)\">\(job.id)</a></td>"
        html += "<td class=\"job-state\">\(HTML.stateBadge(job.state.keyword))</td>"
        html +=
            "<td class=\"job-name\"><a href=\"/jobs/\(job.id)\">\(e(job.name.isEmpty ? "(no name)" : job.name))</a></td>"
        html += "<td class=\"job-user\">\(e(job.user))</td>"
        if showPrinter { html += "<td>\(e(job.printerName))</td>" }
        html += "<td>\(e(format))</td><td>\(job.impressions.count)</td>"
        let created = JobRecord.iso8601(job.timeCreated)
        html += "<td><time datetime=\"\(created)\">\(created.replacingOccurrences(of: "T", with: " "))</time></td>"
        html += "<td class=\"thumbs\">"
        for impression in job.impressions.prefix(thumbnailsPerRow) {
            html += thumbnail(jobID: job.id, impression)
        }
        if job.impressions.count > thumbnailsPerRow {
            html += "<a href=\"/jobs/\(job.id)\" class=\"more\">+\(job.impressions.count - thumbnailsPerRow)</a>"
        }
        return html + "</td></tr>"
    }

    /// A printed side as a small image (scaled by the browser, loaded when scrolled to) linking to the viewer.
    static func thumbnail(jobID: Int, _ impression: PrintedSide) -> String {
        let url = "/api/v1/jobs/\(jobID)/files/\(HTML.escape(impression.file))"
        let label = "Job \(jobID), sheet \(impression.sheet) \(impression.side.rawValue)"
        let height = 64
        let width = impression.height > 0 ? max(1, impression.width * height / impression.height) : 48
        return "<a href=\"/jobs/\(jobID)#side-\(impression.number)\"><img class=\"thumbnail\" src=\"\(url)\" "
            + "alt=\"\(label)\" width=\"\(width)\" height=\"\(height)\" loading=\"lazy\" decoding=\"async\"></a>"
    }
}
