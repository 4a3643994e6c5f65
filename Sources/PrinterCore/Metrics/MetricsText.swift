import IPP
import PrintModel

/// `GET /metrics`: the Prometheus text exposition format, version 0.0.4 (docs/api.md lists every metric).
package enum MetricsText {
    /// The Content-Type of the answer.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of every printer's counts, the service's measurements and the open connections.
    package static func render(printers: [Printer], metrics: ServiceMetrics, openConnections: Int) -> String {
        var text = ""
        text.reserveCapacity(4096 + printers.count * 1024)
        family(&text, "vprinter_printers", "gauge", "Printers in this process, by power state.")
        let on = printers.filter(\.power.isOn).count
        text += "vprinter_printers{power=\"on\"} \(on)\nvprinter_printers{power=\"off\"} \(printers.count - on)\n"

        family(&text, "vprinter_printer_powered_on", "gauge", "1 while the printer is switched on, 0 when off.")
        for printer in printers {
            text += "vprinter_printer_powered_on{printer=\"\(escape(printer.name))\"} \(printer.power.isOn ? 1 : 0)\n"
        }
        family(&text, "vprinter_jobs", "gauge", "Jobs the printer knows (recorded, not reset), by job-state.")
        for printer in printers {
            var byState: [JobState: Int] = [:]
            for job in printer.jobs { byState[job.state, default: 0] += 1 }
            let label = escape(printer.name)
            for state in JobState.allCases {
                text += "vprinter_jobs{printer=\"\(label)\",state=\"\(state.keyword)\"} \(byState[state] ?? 0)\n"
            }
        }
        counter(
            &text, printers, "vprinter_impressions_total", "Impressions (sides) of completed jobs, copies included."
        ) { $0.impressions.load(ordering: .relaxed) }
        counter(&text, printers, "vprinter_sheets_total", "Media sheets of completed jobs, copies included.") {
            $0.sheets.load(ordering: .relaxed)
        }
        counter(&text, printers, "vprinter_received_bytes_total", "Document bytes received, as sent.") {
            $0.bytesReceived.load(ordering: .relaxed)
        }
        counter(&text, printers, "vprinter_faults_fired_total", "Scenario and API faults that fired.") {
            $0.faultsFired.load(ordering: .relaxed)
        }
        family(&text, "vprinter_open_connections", "gauge", "HTTP connections open now, on every port.")
        text += "vprinter_open_connections \(openConnections)\n"

        let snapshot = metrics.snapshot
        family(&text, "vprinter_ipp_requests_total", "counter", "IPP requests answered, by operation and status.")
        for (key, count) in snapshot.requests.sorted(by: {
            ($0.key.operation, $0.key.status) < ($1.key.operation, $1.key.status)
        }) {
            let operation = escape(IPPOperation(rawValue: key.operation).description)
            let status = escape(IPPStatus(rawValue: key.status).description)
            text += "vprinter_ipp_requests_total{operation=\"\(operation)\",status=\"\(status)\"} \(count)\n"
        }
        family(
            &text, "vprinter_ipp_request_duration_seconds", "histogram",
            "Time from a decoded IPP request to its answer, by operation.")
        for (code, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            let operation = escape(IPPOperation(rawValue: code).description)
            text += histogram.lines(name: "vprinter_ipp_request_duration_seconds", labels: "operation=\"\(operation)\"")
        }
        family(&text, "vprinter_render_seconds", "histogram", "Time to render a job's documents to page images.")
        text += snapshot.render.lines(name: "vprinter_render_seconds", labels: "")
        return text
    }

    /// The `# HELP` and `# TYPE` lines of a metric family.
    static func family(_ text: inout String, _ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// A per-printer counter family.
    static func counter(
        _ text: inout String, _ printers: [Printer], _ name: String, _ help: String,
        _ value: (PrinterCounters) -> Int
    ) {
        family(&text, name, "counter", help)
        for printer in printers {
            text += "\(name){printer=\"\(escape(printer.name))\"} \(value(printer.counters))\n"
        }
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format requires.
    static func escape(_ value: String) -> String { value.quotedEscaped }

    /// A number as the format writes it: integers without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
