import PrintModel
import PrinterCore
import Scanner

/// The scan jobs of the web page, newest first: on the home page (every scanning printer's) and on the front panel
/// of a printer with a scanner (its own). Each row says how the job was asked for (source, resolution, color mode,
/// format), how it went (state, and why when it did not complete), and links to its images and its record through
/// `GET /api/v1/scans/{id}/files/{file}`.
///
/// A printer without a scanner adds nothing, and a page with no scanning printer has no Scans section at all.
enum ScanList {
    /// The most rows shown; the API lists every scan job kept.
    static let maximumRows = 50
    /// Formats a browser shows as an image, which get a thumbnail.
    static let thumbnailFormats: Set<ScanPage.Format> = [.png, .jpeg]

    /// The Scans section for `printers`, or nothing when none of them has a scanner. `showPrinter` adds the
    /// printer's column (the home page); `visible` keeps the scan jobs the reader may see (nil: every one).
    static func html(printers: [Printer], showPrinter: Bool, visible: ((ScanJob) -> Bool)? = nil) -> String {
        let scanning = printers.filter { $0.scanner != nil }
        guard !scanning.isEmpty else { return "" }
        let jobs = scanning.flatMap { $0.scanner?.jobs ?? [] }.filter { visible?($0) ?? true }
            .sorted { newerFirst($0, $1) }
        let query = scanning.count == 1 ? "?printer=\(HTML.percentEncode(scanning[0].name))" : ""
        var html = "<section class=\"scans\" id=\"scans\" aria-labelledby=\"scans-title\">"
        html += "<h2 id=\"scans-title\">Scans</h2><div id=\"scan-list\" data-live>"
        html += summary(shown: min(jobs.count, maximumRows), total: jobs.count, query: query)
        if !jobs.isEmpty {
            html += "<div class=\"scroll\"><table class=\"scan-table\"><caption class=\"visually-hidden\">Scan jobs, "
            html += "newest first</caption><thead><tr><th scope=\"col\">Scan</th>"
            if showPrinter { html += "<th scope=\"col\">Printer</th>" }
            html += "<th scope=\"col\">State</th><th scope=\"col\">Source</th><th scope=\"col\">Resolution</th>"
            html += "<th scope=\"col\">Color mode</th><th scope=\"col\">Format</th><th scope=\"col\">Images</th>"
            html += "<th scope=\"col\">Created</th><th scope=\"col\">Client</th><th scope=\"col\">Files</th>"
            html += "</tr></thead><tbody>"
            for job in jobs.prefix(maximumRows) { html += row(job, showPrinter: showPrinter) }
            html += "</tbody></table></div>"
        }
        return html + "</div></section>"
    }

    /// Newest first: by creation time, then by number (jobs of one scanner made in the same second).
    static func newerFirst(_ one: ScanJob, _ other: ScanJob) -> Bool {
        one.createdSeconds != other.createdSeconds
            ? one.createdSeconds > other.createdSeconds : one.number > other.number
    }

    static func summary(shown: Int, total: Int, query: String) -> String {
        let json = "<a href=\"/api/v1/scans\(HTML.escape(query))\">scans (JSON)</a>"
        guard total > 0 else {
            return "<p class=\"empty\" id=\"scan-count\">No scans yet. Scan with an eSCL client (AirScan, "
                + "sane-airscan) and they appear here. · \(json)</p>"
        }
        let more = total > shown ? " (the newest \(shown) shown)" : ""
        return "<p id=\"scan-count\"><b>\(HTML.count(total))</b> scan job\(total == 1 ? "" : "s")\(more), newest "
            + "first. · \(json)</p>"
    }

    /// One scan job's row; its id names the printer too, as each scanner numbers its jobs from 1.
    static func row(_ job: ScanJob, showPrinter: Bool) -> String {
        let e = HTML.escape
        let printer = job.printer ?? ""
        let id = "scan-\(PrinterConfiguration.pathSegment(for: printer))-\(job.number)"
        let settings = job.settings
        var html =
            "<tr class=\"scan\" id=\"\(e(id))\"><td><a href=\"/api/v1/scans/\(job.number)\">\(job.number)</a></td>"
        if showPrinter {
            let panel = "/printers/\(HTML.percentEncode(PrinterConfiguration.pathSegment(for: printer)))"
            html += "<td><a href=\"\(panel)\">\(e(printer))</a></td>"
        }
        html += "<td class=\"scan-state\">\(HTML.stateBadge(job.state.rawValue.lowercased()))"
        if job.state != .completed {
            html += " <small class=\"scan-reason\">\(e(job.reason))</small>"
            if let message = job.message { html += "<br><span class=\"scan-message\">\(e(message))</span>" }
        }
        html += "</td><td>\(e(settings.source.rawValue))\(settings.duplex ? ", duplex" : "")</td>"
        html += "<td>\(settings.resolution) dpi</td><td>\(e(settings.colorMode.rawValue))</td>"
        html += "<td>\(e(settings.format.rawValue))</td>"
        html += "<td class=\"scan-images\">\(job.images.count) of \(job.imagesPlanned)</td>"
        html += "<td><time datetime=\"\(e(job.created))\">"
        html += "\(e(job.created.replacingOccurrences(of: "T", with: " ")))</time></td>"
        html += "<td class=\"scan-client\">\(e(job.client ?? "—"))</td><td class=\"scan-files\">"
        for image in job.images { html += link(job, image) }
        html += "<a href=\"\(fileURL(job, "scan.json"))\" class=\"scan-record\">scan.json</a>"
        return html + "</td></tr>"
    }

    /// An image of the job as a link to its file: a thumbnail (scaled by the style sheet, loaded when scrolled to)
    /// for the formats a browser shows, then its name, sheet and side.
    static func link(_ job: ScanJob, _ image: ScanJob.Image) -> String {
        let e = HTML.escape
        let url = fileURL(job, image.file)
        var html = "<a href=\"\(url)\" class=\"scan-image\">"
        if thumbnailFormats.contains(job.settings.format) {
            html += "<img src=\"\(url)\" alt=\"\" width=\"\(max(1, image.width))\" height=\"\(max(1, image.height))\" "
            html += "loading=\"lazy\" decoding=\"async\">"
        }
        html += "<span>\(e(image.file)) <small>(sheet \(image.sheet), \(e(image.side)))</small></span></a>"
        return html
    }

    /// The API's URL of one of the job's files, escaped for an attribute.
    static func fileURL(_ job: ScanJob, _ file: String) -> String {
        "/api/v1/scans/\(job.number)/files/\(HTML.escape(HTML.percentEncode(file)))"
    }
}
