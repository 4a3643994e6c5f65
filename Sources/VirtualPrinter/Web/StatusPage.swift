/// The printer's web page (printer-more-info): state and jobs of each printer.
enum StatusPage {
    static func html(printers: [Printer]) -> String {
        var body = ""
        for printer in printers {
            let (state, reasons) = printer.status.withLock { ($0.state, $0.reasons) }
            body += "<section><h2>\(escape(printer.name))</h2>"
            body +=
                "<p>State: <b>\(state.keyword)</b> (\(escape((reasons.isEmpty ? ["none"] : reasons).joined(separator: ", "))))</p>"
            body += "<table><tr><th>Job</th><th>Name</th><th>User</th><th>State</th><th>Format</th></tr>"
            for job in printer.jobs.reversed() {
                let format = job.documents.map { $0.detectedFormat ?? $0.format }.joined(separator: ", ")
                body += "<tr><td>\(job.id)</td><td>\(escape(job.name))</td><td>\(escape(job.user))</td>"
                body += "<td>\(job.state.keyword)</td><td>\(escape(format))</td></tr>"
            }
            body += "</table></section>"
        }
        return """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>vprinter</title>
            <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:left}</style>
            </head><body><h1>vprinter</h1>\(body)</body></html>
            """
    }

    /// HTML-escapes text from clients.
    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
