import Foundation

/// The page of one job at `/jobs/<id>`: its state, its ticket (the job template attributes as received), its
/// documents and every printed side.
enum JobPage {
    static func html(_ job: Job) -> String {
        let e = HTML.escape
        let record = JobRecorder.record(of: job)
        var body = "<p><a href=\"/\">← all jobs</a> · <a href=\"/api/v1/jobs/\(job.id)\">job record (JSON)</a></p>"
        body += "<h1>Job \(job.id): <span class=\"job-name\">\(e(job.name))</span></h1>"
        body += "<table class=\"job-summary\">"
        body += summaryRow("Printer", e(job.printerName))
        body += summaryRow("State", "<b class=\"job-state\">\(job.state.keyword)</b>")
        body += summaryRow("Reasons", e(job.reasons.joined(separator: ", ")))
        body += summaryRow("Message", e(job.message))
        body += summaryRow("User", e(job.user))
        body += summaryRow("Client", e(job.client.address + (job.client.userAgent.map { " (\($0))" } ?? "")))
        if let times = record["times"] as? [String: String] {
            for key in ["created", "processing", "completed"] {
                if let time = times[key] { body += summaryRow("Time \(key)", e(time)) }
            }
        }
        body += summaryRow("Sheets", "\(record["sheets"] ?? 0) × \(job.copies) copies")
        body += "</table>"
        body += ticket(record["attributes"] as? [String: Any] ?? [:])
        body += documents(job)
        body += "<h2>Printed sides</h2>"
        if job.impressions.isEmpty { body += "<p>None yet.</p>" }
        body += "<div class=\"thumbs sides\">"
        for impression in job.impressions {
            body += StatusPage.thumbnail(jobID: job.id, impression)
        }
        body += "</div>"
        return HTML.page(title: "vprinter job \(job.id)", body: body)
    }

    static func summaryRow(_ label: String, _ valueHTML: String) -> String {
        "<tr><th>\(label)</th><td>\(valueHTML)</td></tr>"
    }

    /// The job template attributes, one row each, values as JSON.
    static func ticket(_ attributes: [String: Any]) -> String {
        var html = "<h2>Ticket</h2>"
        guard !attributes.isEmpty else { return html + "<p>No job template attributes were sent.</p>" }
        html += "<table class=\"ticket\"><tr><th>Attribute</th><th>Value</th></tr>"
        for name in attributes.keys.sorted() {
            html +=
                "<tr><td>\(HTML.escape(name))</td><td><code>\(HTML.escape(jsonText(attributes[name])))</code></td></tr>"
        }
        return html + "</table>"
    }

    /// The documents as received, each linking to its file.
    static func documents(_ job: Job) -> String {
        let e = HTML.escape
        var html = "<h2>Documents</h2>"
        guard !job.documents.isEmpty else { return html + "<p>None received.</p>" }
        html += "<table class=\"documents\"><tr><th>#</th><th>Name</th><th>Format sent</th><th>Format found</th>"
        html += "<th>Compression</th><th>Bytes</th><th>Pages</th><th>SHA-256</th></tr>"
        for document in job.documents {
            let url = "/api/v1/jobs/\(job.id)/files/\(e(document.file))"
            html += "<tr><td><a href=\"\(url)\">\(document.number)</a></td><td>\(e(document.name ?? ""))</td>"
            html += "<td>\(e(document.format))</td><td>\(e(document.detectedFormat ?? "unknown"))</td>"
            html += "<td>\(e(document.compression))</td><td>\(document.size)</td>"
            html += "<td>\(document.pages.map(String.init) ?? "")</td><td><code>\(e(document.sha256))</code></td></tr>"
        }
        return html + "</table>"
    }

    static func jsonText(_ value: Any?) -> String {
        guard let value else { return "" }
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(
                withJSONObject: [value], options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
