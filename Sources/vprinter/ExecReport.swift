import Foundation
import PrintModel
import PrinterCore

/// What the printers of a `vprinter exec` run received, once they stopped: the summary printed on stderr, one line
/// per printer, and the JUnit file (`ExecReport+JUnit`).
struct ExecReport {
    /// One printer's jobs of this run, oldest first.
    struct PrinterJobs {
        let name: String
        let jobs: [Job]
    }

    let printers: [PrinterJobs]
    /// Where the job records are (`OUTPUT/jobs/<id>/job.json`).
    let outputDirectory: String

    /// The jobs of the run by printer: the printers of `printerNames` in their order, each with its jobs (or none),
    /// then those that had jobs and are gone (deleted during the run).
    init(jobs: [Job], printerNames: [String], outputDirectory: String) {
        let byPrinter = Dictionary(grouping: jobs.sorted { $0.id < $1.id }, by: \.printerName)
        let gone = byPrinter.keys.filter { !printerNames.contains($0) }.sorted()
        printers = (printerNames + gone).map { PrinterJobs(name: $0, jobs: byPrinter[$0] ?? []) }
        self.outputDirectory = outputDirectory
    }

    /// The jobs of every printer.
    var jobCount: Int { printers.reduce(0) { $0 + $1.jobs.count } }

    /// One line per printer: `printer 'NAME': 3 jobs (2 completed, 1 aborted)`, or `no jobs`.
    var summary: [String] {
        printers.map { printer in
            guard !printer.jobs.isEmpty else { return "printer '\(printer.name)': no jobs" }
            let counts = Self.statesInOrder.compactMap { state -> String? in
                let count = printer.jobs.count { $0.state == state }
                return count == 0 ? nil : "\(count) \(state.keyword)"
            }
            let noun = printer.jobs.count == 1 ? "job" : "jobs"
            return "printer '\(printer.name)': \(printer.jobs.count) \(noun) (\(counts.joined(separator: ", ")))"
        }
    }

    /// The states in the order the summary counts them: the ends first, then those not ended.
    static let statesInOrder: [JobState] = [
        .completed, .aborted, .canceled, .processing, .processingStopped, .pending, .pendingHeld,
    ]

    /// The job record's path.
    func recordPath(of job: Job) -> String {
        "\(outputDirectory)/jobs/\(job.id)/job.json"
    }
}
