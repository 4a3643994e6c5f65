import Foundation
import HTTPServer
import RequestJournal

/// `vprinter report --url URL [--printer NAME] [--fail-on error|warning|info] [--json]`: what each client sent a
/// running printer and did wrong (the JSON API's `GET /api/v1/clients`), one block per client and one line per rule
/// broken. Exits 1 when a finding at or above `--fail-on` (default error) exists, so that a CI step fails on a
/// client's mistake; 0 otherwise; 2 when the printer cannot be asked.
struct ReportCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard let url = options.url, let base = WaitCommand.apiBase(url) else {
            Console.log("error: report needs --url with the printer's ipp://, ipps:// or http(s):// URL")
            return 2
        }
        let query = options.reportPrinter.map { "?printer=" + WaitCommand.encoded($0) } ?? ""
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.get(base + "/api/v1/clients" + query, timeout: options.timeout + 10)
        } catch {
            Console.log("error: cannot reach \(base): \(error)")
            return 2
        }
        guard response.status == 200,
            let report = try? JSONDecoder().decode(ClientReport.self, from: Data(response.body))
        else {
            Console.log(
                "error: the printer answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            return 2
        }
        if options.json {
            Console.out(String(decoding: response.body, as: UTF8.self))
        } else {
            Console.out(Self.text(of: report))
        }
        let failed = report.hasFinding(atLeast: options.failOn)
        Console.log(
            "report: \(failed ? "FAIL" : "PASS"): \(Self.counts(report.findings)) "
                + "(fails on \(options.failOn.rawValue) and above)")
        return failed ? 1 : 0
    }

    /// The report as a person reads it: a block per client, a line per rule.
    static func text(of report: ClientReport) -> String {
        guard !report.clients.isEmpty else { return "no IPP requests yet" }
        var lines: [String] = []
        for client in report.clients {
            let operations = client.operations.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("\(client.address)  \(client.userAgent ?? "(no user-agent)")")
            lines.append("  \(client.requests) requests: \(operations)")
            lines.append("  findings: \(counts(client.findings))")
            for rule in client.rules {
                let requests = rule.requests.map(String.init).joined(separator: ", ")
                lines.append(
                    "  \(rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) "
                        + "\(rule.rule.rawValue) (\(rule.reference)) x\(rule.count): \(rule.message) "
                        + "[request\(rule.requests.count == 1 ? "" : "s") \(requests)]")
            }
        }
        if report.untrackedRequests > 0 {
            lines.append(
                "(\(report.untrackedRequests) requests of clients let go, the least recently active past the most "
                    + "the journal tells apart)")
        }
        return lines.joined(separator: "\n")
    }

    static func counts(_ findings: [String: Int]) -> String {
        ClientFinding.Severity.allCases.reversed().map { severity in
            let count = findings[severity.rawValue] ?? 0
            return "\(count) \(severity.rawValue)\(count == 1 || severity == .info ? "" : "s")"
        }.joined(separator: ", ")
    }
}
