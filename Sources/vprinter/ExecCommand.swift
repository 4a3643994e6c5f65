import Foundation
import PrintModel
import PrinterCore

#if canImport(Glibc)
    import Glibc
#endif

/// `vprinter exec [options] -- COMMAND [ARGUMENTS]`: a CI job's five steps in one. Starts the printers as `run`
/// does, runs COMMAND with their addresses in its environment (`variables`), waits for the jobs still printing when
/// it ends, stops the printers cleanly, prints what each printer received (`ExecReport`), writes `--junit`, and exits
/// with COMMAND's status, or 1 when the run received other than `--expect-jobs` jobs.
///
/// Standard output stays COMMAND's: the URIs are in its environment and on stderr, not on stdout as `run` prints
/// them.
struct ExecCommand {
    let options: CommandLineOptions
    /// The `--config` file, when one was given.
    var config: ConfigFile?

    func run() -> Int32 {
        // Before any thread or descriptor of the printer's: what is open now, the caller gave, and COMMAND gets.
        let inherited = CommandChild.openDescriptors()
        Lifecycle.holdTerminationSignals()
        let log: @Sendable (String) -> Void = { Console.log($0) }
        let started: StartedPrinters
        switch RunCommand(options: options, config: config).start() {
        case .success(let printers): started = printers
        case .failure(let failure): return failure.status
        }
        let startTime = Date()
        let ledger = JobLedger(
            events: started.events, registry: started.fleet.registry, firstJobID: started.firstJobID)
        let sweeps = Lifecycle.startSweeps(fleet: started.fleet)
        func stopPrinters() {
            Lifecycle.shutDown(
                fleet: started.fleet, advertiser: started.advertiser, sweeps: sweeps, onRestart: started.restartPolicy,
                log: log)
        }
        let environment = ProcessInfo.processInfo.environment.merging(Self.variables(of: started)) { $1 }
        let child: CommandChild
        do {
            child = try CommandChild(
                options.execCommand, environment: environment,
                privateDescriptors: CommandChild.descriptorsOpenedSince(inherited))
        } catch {
            log("error: \(error)")
            stopPrinters()
            return error.status
        }
        let status = child.waitForExit()
        log("'\(options.execCommand[0])' exited with status \(status)")
        if !child.wasSignalled {
            Self.waitForPrintingJobs(
                of: started.fleet.registry.printers, from: started.firstJobID, timeout: options.timeout,
                stopWaiting: { child.wasSignalled }, log: log)
        }
        stopPrinters()
        let printers = started.fleet.registry.printers
        let report = ExecReport(
            jobs: ledger.finish(printers: printers), printerNames: printers.map(\.name),
            outputDirectory: started.outputDirectory)
        for line in report.summary { log(line) }
        if let junitFile = options.junitFile {
            let xml = report.junitXML(started: startTime, seconds: Date().timeIntervalSince(startTime))
            do {
                try xml.write(toFile: junitFile, atomically: true, encoding: .utf8)
            } catch {
                log("error: cannot write the JUnit file \(junitFile): \(error.localizedDescription)")
                return status == 0 ? 1 : status
            }
        }
        if status != 0 { return status }
        if let expected = options.expectedJobs, report.jobCount != expected {
            log("error: --expect-jobs \(expected), but the printers received \(report.jobCount)")
            return 1
        }
        return 0
    }

    /// What COMMAND finds in its environment: `VPRINTER_URI` (the first printer's IPP URI), `VPRINTER_URIS` (every
    /// printer's, separated by spaces), `VPRINTER_API` (the JSON API's base URL), and `VPRINTER_URL`, the same
    /// base URL under the variable that `vprinter wait`, `jobs`, `requests`, `verify` and `report` read for `--url`,
    /// so that they ask these printers without being told.
    static func variables(of started: StartedPrinters) -> [String: String] {
        [
            "VPRINTER_URI": started.uris.first ?? "",
            "VPRINTER_URIS": started.uris.joined(separator: " "),
            "VPRINTER_API": started.apiURL,
            "VPRINTER_URL": started.apiURL,
        ]
    }

    /// Waits until no job of this run (numbered from `firstJobID`) is queued or printing, at most `timeout`
    /// seconds, or until `stopWaiting` says so. A held job, one whose printer is stopped and one still waiting for
    /// its documents are not waited for: COMMAND has ended, and nothing will release, restart or complete them.
    static func waitForPrintingJobs(
        of printers: [Printer], from firstJobID: Int, timeout: Double, stopWaiting: () -> Bool,
        log: @Sendable (String) -> Void
    ) {
        func printing() -> Int {
            printers.reduce(0) { count, printer in
                count
                    + printer.jobs.count { job in
                        job.id >= firstJobID
                            && (job.state == .processing || (job.state == .pending && !job.isReceiving && !job.isHeld))
                    }
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        var count = printing()
        guard count > 0 else { return }
        log("waiting up to \(Int(timeout.rounded(.up))) s for \(count) jobs still printing")
        while count > 0, Date() < deadline, !stopWaiting() {
            usleep(settlePollMicroseconds)
            count = printing()
        }
        if count > 0 { log("warning: \(count) jobs were still printing when the printers stopped") }
    }

    /// How often the wait for printing jobs looks at them.
    static let settlePollMicroseconds: UInt32 = 50_000
}
