/// The printer's web page at `/` (printer-more-info): one section per printer with its state, reasons, supplies
/// and loaded media, then its jobs newest first with a thumbnail of each printed side.
enum StatusPage {
    /// The most jobs listed per printer; older ones are counted, not listed (the API lists them all).
    static let maximumJobsShown = 200
    /// The most thumbnails shown for one job; the job's own page shows every side.
    static let maximumThumbnailsPerJob = 8

    /// The page; `visible` keeps the jobs the viewer may see (their own, when credentials are asked for).
    static func html(printers: [Printer], visible: (Job) -> Bool = { _ in true }) -> String {
        var body = "<h1>vprinter</h1>"
        for printer in printers {
            body += section(PrinterOverview(printer), jobs: printer.jobs.filter(visible))
        }
        return HTML.page(title: "vprinter", body: body)
    }

    /// One printer's section.
    static func section(_ printer: PrinterOverview, jobs: [Job]) -> String {
        let e = HTML.escape
        var html = "<section class=\"printer\" data-printer=\"\(e(printer.name))\"><h2>\(e(printer.name))</h2>"
        html += "<p>State: <b class=\"printer-state state-\(e(printer.state))\">\(e(printer.state))</b> — "
        html += "\(e(printer.message)) Reasons: <span class=\"printer-state-reasons\">"
        html += "\(e(printer.reasons.joined(separator: ", ")))</span>"
        html += printer.isAcceptingJobs ? "" : " <b>(not accepting jobs)</b>"
        html += "</p>"
        html += "<h3 id=\"supplies\">Supplies</h3><table class=\"supplies\">"
        for supply in printer.supplies {
            let level = supply.level.map { "\($0)%" } ?? "unknown"
            let width = supply.level ?? 0
            html += "<tr><td>\(e(supply.description))</td><td><span class=\"meter\"><span style=\"width:\(width)%\">"
            html += "</span></span> \(level)</td></tr>"
        }
        html += "</table><p>Loaded media: <span class=\"media-ready\">"
        html += "\(e(printer.mediaReady.isEmpty ? "none" : printer.mediaReady.joined(separator: ", ")))</span></p>"
        html += "<h3>Jobs</h3>"
        guard !jobs.isEmpty else { return html + "<p class=\"no-jobs\">No jobs yet.</p></section>" }
        html += "<table class=\"jobs\"><tr><th>Job</th><th>State</th><th>Name</th><th>User</th><th>Format</th>"
        html += "<th>Printed sides</th></tr>"
        for job in jobs.reversed().prefix(maximumJobsShown) {
            html += row(job)
        }
        html += "</table>"
        if jobs.count > maximumJobsShown {
            html += "<p class=\"more-jobs\">\(jobs.count - maximumJobsShown) older jobs are not listed here; "
            html += "<a href=\"/api/v1/jobs?printer=\(percentEncode(printer.name))\">all jobs as JSON</a>.</p>"
        }
        return html + "</section>"
    }

    /// One job's row: id (linking to its page), state, name, user, formats, thumbnails linking to the full PNGs.
    static func row(_ job: Job) -> String {
        let e = HTML.escape
        let format = job.documents.map { $0.detectedFormat ?? $0.format }.joined(separator: ", ")
        var html = "<tr class=\"job\" id=\"job-\(job.id)\"><td><a href=\"/jobs/\(job.id)\">\(job.id)</a></td>"
        html += "<td class=\"job-state\">\(job.state.keyword)</td><td class=\"job-name\">\(e(job.name))</td>"
        html += "<td>\(e(job.user))</td><td>\(e(format))</td><td class=\"thumbs\">"
        for impression in job.impressions.prefix(maximumThumbnailsPerJob) {
            html += thumbnail(jobID: job.id, impression)
        }
        if job.impressions.count > maximumThumbnailsPerJob {
            html += " <a href=\"/jobs/\(job.id)\">+\(job.impressions.count - maximumThumbnailsPerJob) more</a>"
        }
        return html + "</td></tr>"
    }

    /// A printed side as a small image (scaled by the browser) linking to the full PNG.
    static func thumbnail(jobID: Int, _ impression: ImpressionRecord) -> String {
        let url = "/api/v1/jobs/\(jobID)/files/\(HTML.escape(impression.file))"
        let label = "Job \(jobID), sheet \(impression.sheet) \(HTML.escape(impression.side))"
        return "<a href=\"\(url)\"><img class=\"thumbnail\" src=\"\(url)\" alt=\"\(label)\" title=\"\(label)\" "
            + "loading=\"lazy\"></a>"
    }

    /// Percent-encodes a query value (RFC 3986 section 2.1): everything but unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    /// The string with leading zeros up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
