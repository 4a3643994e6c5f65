import Dispatch
import Foundation
import HTTPServer
import VirtualPrinter

#if canImport(Glibc)
    import Glibc
#endif

/// Serves until SIGINT or SIGTERM, applying job time-outs meanwhile, then shuts down cleanly.
enum Lifecycle {
    /// How often waiting jobs are checked against multiple-operation-time-out.
    static let timeoutSweepInterval: DispatchTimeInterval = .seconds(1)
    /// How long shutdown waits for jobs being processed before it aborts them.
    static let shutdownGrace: Double = 5

    static func run(
        server: HTTPServer, printers: [Printer], advertiser: Advertiser?, log: @escaping @Sendable (String) -> Void
    )
        -> Never
    {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "vprinter.lifecycle")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + timeoutSweepInterval, repeating: timeoutSweepInterval)
        timer.setEventHandler {
            for printer in printers { printer.expireIdleJobs() }
        }
        timer.resume()
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                log("shutting down (signal \(number))")
                advertiser?.stop()
                server.stop()
                let deadline = Date().addingTimeInterval(shutdownGrace)
                while printers.contains(where: { $0.hasActiveProcessing }) && Date() < deadline {
                    usleep(50_000)
                }
                for printer in printers { printer.abortUnfinishedJobs(message: "The printer shut down.") }
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        withExtendedLifetime((timer, sources)) {
            dispatchMain()
        }
    }
}
