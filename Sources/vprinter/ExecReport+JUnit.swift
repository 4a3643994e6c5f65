import Foundation
import PrintModel
import PrinterCore

/// The JUnit XML of a `vprinter exec` run (`--junit FILE`), as CI systems read test reports (the Ant JUnit
/// format that Jenkins, GitLab and GitHub's test reporters take): one `testsuite` per printer, one `testcase` per
/// job, failed when the job was aborted or canceled, skipped when it had not ended when the printers stopped.
extension ExecReport {
    func junitXML(started: Date, seconds: Double) -> String {
        let failures = printers.reduce(0) { $0 + $1.jobs.count(where: Self.failed) }
        let skipped = printers.reduce(0) { $0 + $1.jobs.count { !$0.state.isTerminal } }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"vprinter exec\" tests=\"\(jobCount)\" failures=\"\(failures)\" errors=\"0\""
        xml += " skipped=\"\(skipped)\" time=\"\(Self.seconds(seconds))\">\n"
        for printer in printers {
            let printerFailures = printer.jobs.count(where: Self.failed)
            let printerSkipped = printer.jobs.count { !$0.state.isTerminal }
            xml += "  <testsuite name=\"\(Self.escape(printer.name))\" tests=\"\(printer.jobs.count)\""
            xml += " failures=\"\(printerFailures)\" errors=\"0\" skipped=\"\(printerSkipped)\""
            xml += " time=\"\(Self.seconds(seconds))\" timestamp=\"\(Self.timestamp(started))\">\n"
            for job in printer.jobs { xml += testCase(job, printer: printer.name) }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Whether a job counts as a failed test: it was aborted or canceled.
    static func failed(_ job: Job) -> Bool {
        job.state == .aborted || job.state == .canceled
    }

    private func testCase(_ job: Job, printer: String) -> String {
        let ended = job.timeCompleted ?? Date().timeIntervalSince1970
        var xml = "    <testcase classname=\"\(Self.escape(printer))\""
        xml += " name=\"\(Self.escape("job \(job.id): \(job.name)"))\""
        xml += " time=\"\(Self.seconds(max(0, ended - job.timeCreated)))\">\n"
        let reasons = job.reasons.joined(separator: ", ")
        if Self.failed(job) {
            xml += "      <failure type=\"\(job.state.keyword)\" message=\"\(Self.escape(reasons))\">"
            xml += Self.escape(job.message) + "</failure>\n"
        } else if !job.state.isTerminal {
            xml += "      <skipped message=\"\(Self.escape("not ended: \(job.state.keyword) (\(reasons))"))\"/>\n"
        }
        let record = recordPath(of: job)
        let recordNote = FileManager.default.fileExists(atPath: record) ? "" : " (deleted during the run)"
        var facts = [
            "record: \(record)\(recordNote)", "job-state: \(job.state.keyword)", "job-state-reasons: \(reasons)",
            "job-state-message: \(job.message)", "user: \(job.user)", "impressions: \(job.impressions.count)",
        ]
        for document in job.documents {
            let pages = document.pages.map { ", \($0) pages" } ?? ""
            facts.append("document \(document.number): \(document.format.rawValue), \(document.size) bytes\(pages)")
        }
        xml += "      <system-out>\(Self.escape(facts.joined(separator: "\n")))</system-out>\n"
        xml += "    </testcase>\n"
        return xml
    }

    /// Seconds with three decimals, as JUnit's `time` has them.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// The time in UTC, ISO 8601 without a zone, as JUnit's `timestamp` takes it.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// Text made safe for XML 1.0 content and quoted attributes: markup characters escaped, and the characters
    /// XML cannot carry at all (controls other than tab, newline and return; a job name may hold them) replaced
    /// with U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
