import Dispatch
import Foundation
import HTTPServer
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

#if canImport(Glibc)
    import Glibc
#endif

/// Serves until SIGINT or SIGTERM, applying job time-outs meanwhile, then shuts down cleanly.
enum Lifecycle {
    /// How often waiting jobs are checked against multiple-operation-time-out.
    static let timeoutSweepInterval: DispatchTimeInterval = .seconds(1)
    /// How long shutdown waits for jobs being processed before it aborts them.
    static let shutdownGrace: Double = 5

    /// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread started after it, so that a signal
    /// sent while the printer starts stays pending until `run` reads it. Without this, a SIGTERM sent right after
    /// the URI line, before `run` watches for it, is lost: its disposition is already SIG_IGN and a thread that
    /// does not block it discards it, and the process never exits. `run` receives them with sigwait. Call it
    /// before any thread exists.
    static func holdTerminationSignals() {
        var signals = terminationSignals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// SIGINT and SIGTERM, the signals that end the printer.
    static var terminationSignals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Serves until SIGINT or SIGTERM, then shuts down (`shutDown`) and exits 0.
    /// - Parameter onRestart: with `.requeue`, jobs that have not ended when the grace is over stay as they are
    ///   on disk, for the next start to go on with; with `.abort`, they are aborted.
    static func run(
        fleet: PrinterFleet, advertiser: Advertiser?, onRestart: RestartPolicy,
        log: @escaping @Sendable (String) -> Void
    ) -> Never {
        let sweeps = startSweeps(fleet: fleet)
        // SIGINT and SIGTERM are blocked in every thread (holdTerminationSignals), so this thread receives each
        // one with sigwait, including one sent before this point. (dispatchMain would unblock them on this thread.)
        var signals = terminationSignals
        var number: Int32 = 0
        while sigwait(&signals, &number) != 0 {}
        log("shutting down (signal \(number))")
        shutDown(fleet: fleet, advertiser: advertiser, sweeps: sweeps, onRestart: onRestart, log: log)
        exit(0)
    }

    /// Starts applying job time-outs and the disk floor every `timeoutSweepInterval`; cancel the timer to stop.
    static func startSweeps(fleet: PrinterFleet) -> any DispatchSourceTimer {
        signal(SIGPIPE, SIG_IGN)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vprinter.lifecycle"))
        timer.schedule(deadline: .now() + timeoutSweepInterval, repeating: timeoutSweepInterval)
        timer.setEventHandler {
            for printer in fleet.registry.printers {
                printer.expireIdleJobs()
                printer.checkDiskSpace()
            }
        }
        timer.resume()
        return timer
    }

    /// Withdraws the advertisements, stops listening, gives the jobs being processed `shutdownGrace` seconds to
    /// end, then leaves the unfinished ones as `onRestart` says.
    static func shutDown(
        fleet: PrinterFleet, advertiser: Advertiser?, sweeps: any DispatchSourceTimer, onRestart: RestartPolicy,
        log: @Sendable (String) -> Void
    ) {
        advertiser?.stop()
        fleet.stop()
        sweeps.cancel()
        let printers = fleet.registry.printers
        let deadline = Date().addingTimeInterval(shutdownGrace)
        while printers.contains(where: { $0.hasActiveProcessing }) && Date() < deadline {
            usleep(50_000)
        }
        if onRestart == .abort {
            for printer in printers { printer.abortUnfinishedJobs(message: "The printer shut down.") }
        } else {
            let unfinished = printers.reduce(0) { $0 + $1.jobs.count { !$0.state.isTerminal } }
            if unfinished > 0 { log("\(unfinished) unfinished jobs stay recorded; the next start goes on with them") }
        }
    }
}
