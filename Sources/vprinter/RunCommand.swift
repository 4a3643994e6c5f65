import Dispatch
import Foundation
import HTTPServer
import IPP
import VirtualPrinter

#if canImport(Glibc)
    import Glibc
#endif

/// `vprinter run`: loads the profiles, starts the printers, prints their URIs, serves until a signal.
struct RunCommand {
    let options: CommandLineOptions

    /// Printers that run in one process at most.
    static let maximumPrinters = 64

    func run() -> Int32 {
        Lifecycle.holdTerminationSignals()
        let log: @Sendable (String) -> Void = { Console.log($0) }
        let profileNames = options.profiles.isEmpty ? ["duplex-laser"] : options.profiles
        guard profileNames.count <= Self.maximumPrinters else {
            Console.log("error: at most \(Self.maximumPrinters) printers can run in one process")
            return 2
        }
        var profiles: [PrinterProfile] = []
        for name in profileNames {
            do {
                profiles.append(
                    try PrinterProfile.load(nameOrPath: name, searchDirectories: PrinterProfile.searchDirectories()))
            } catch {
                Console.log("error: \(error)")
                return 1
            }
        }
        // Absolute, so that the render worker and every later path resolve the same way.
        let given = options.outputDirectory
        let output =
            ((given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given) as NSString)
            .standardizingPath
        if let problem = OutputFolder.prepare(output) {
            Console.log("error: \(problem)")
            return 1
        }
        var scenarios: [Scenario] = []
        for file in options.scenarios {
            do {
                scenarios.append(try Scenario.load(file: file))
            } catch {
                Console.log("error: \(error)")
                return 1
            }
        }
        let security: SecuritySetup
        switch SecuritySetup.prepare(
            options.security, outputDirectory: output, listen: options.listen, dnssd: options.dnssd, log: log)
        {
        case .success(let setup): security = setup
        case .failure(let error):
            Console.log("error: \(error)")
            return 1
        }
        let speed = PrintSpeed(rawValue: options.speed ?? "") ?? scenarios.compactMap(\.speed).last ?? .instant
        let tracksConsumables =
            options.consumables.map { $0 == "tracked" } ?? scenarios.compactMap(\.tracksConsumables).last ?? false
        let names = PrinterNames.assign(profiles: profiles.map(\.name), requested: options.name)
        let several = profiles.count > 1
        let jobIDs = JobIDAllocator(outputDirectory: output)
        let scheduler = JobScheduler(
            workers: options.renderWorkers ?? ProcessInfo.processInfo.activeProcessorCount)
        var renderer: RenderWorkerClient?
        if options.render {
            guard let worker = RenderWorkerClient.locateWorker() else {
                Console.log(
                    "error: the render worker vprinter-render is not beside this binary; set VPRINTER_RENDER or use --no-render"
                )
                return 1
            }
            renderer = RenderWorkerClient(
                executable: worker, renderDPI: options.renderDPI,
                rasterDPI: options.renderDPIGiven ? options.renderDPI : RenderWorkerClient.maximumRasterDPI,
                limits: options.renderLimits)
        }
        let events = EventHub()
        var printers: [Printer] = []
        for (profile, name) in zip(profiles, names) {
            let context = ProfileAttributeContext(printerName: name)
            var configuration = PrinterConfiguration(
                name: name,
                resourcePath: several ? "/ipp/print/\(PrinterConfiguration.pathSegment(for: name))" : "/ipp/print",
                uuid: PrinterConfiguration.uuid(forName: name), attributes: profile.printerAttributes(context: context),
                outputDirectory: output, maximumDocumentSize: options.maximumDocumentSize,
                maximumJobs: options.maximumJobs)
            configuration.speed = speed
            configuration.overridingAttributes = profile.attributes
            configuration.tracksConsumables = tracksConsumables
            configuration.security = security.printerSecurity
            printers.append(
                Printer(
                    configuration: configuration, jobIDs: jobIDs, scheduler: scheduler, renderer: renderer,
                    events: events,
                    log: log))
        }
        for printer in printers { printer.beginRestore() }
        let service = PrinterService(
            printers: printers, events: events, apiToken: options.apiToken, access: security.access, log: log)
        var limits = HTTPServerLimits.default
        limits.maximumBodyBytes = Int.max
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                addresses: options.listen, port: options.port, limits: limits, tls: security.tls),
            handler: service)
        do {
            try server.start()
        } catch {
            switch error {
            case .addressInUse(let port):
                Console.log("error: port \(port) is in use; choose another with --port, or --port 0 for any free port")
            default:
                Console.log("error: cannot listen: \(error)")
            }
            return 1
        }
        if !security.access.isEnabled && SecuritySetup.listensBeyondLoopback(options.listen) {
            log(
                "warning: anyone who can reach port \(server.port) can read every printed document and page and change "
                    + "the printer; use --listen 127.0.0.1 to keep it on this machine, or --user NAME:PASSWORD "
                    + "(with --tls) to ask for credentials")
        }
        let host = options.listen.count == 1 ? Self.uriHost(options.listen[0]) : "localhost"
        let scheme = security.tls == nil ? "ipp" : "ipps"
        let uris = printers.map { "\(scheme)://\(host):\(server.port)\($0.configuration.resourcePath)" }
        if let readyFile = options.readyFile {
            do {
                try (uris.joined(separator: "\n") + "\n").write(toFile: readyFile, atomically: true, encoding: .utf8)
            } catch {
                Console.log("error: cannot write the ready file \(readyFile): \(error.localizedDescription)")
                server.stop()
                return 1
            }
        }
        for uri in uris { Console.out(uri) }
        for (printer, uri) in zip(printers, uris) {
            log("printer '\(printer.name)' ready at \(uri), recording jobs in \(output)/jobs")
        }
        let policy = RestartPolicy(rawValue: options.onRestart) ?? .requeue
        Self.restoreJobs(printers: printers, outputDirectory: output, before: jobIDs.first, policy: policy, log: log)
        for scenario in scenarios {
            log("playing scenario '\(scenario.name)': \(scenario.faults.count) fault(s)")
            for printer in printers {
                for fault in scenario.faults { printer.addFault(fault) }
            }
        }
        let advertiser =
            options.dnssd
            ? Advertiser(printers: printers, port: server.port, txtOverrides: profiles.map(\.txt), log: log) : nil
        advertiser?.start()
        Lifecycle.run(server: server, printers: printers, advertiser: advertiser, onRestart: policy, log: log)
    }

    /// Reads the records of earlier runs (jobs numbered below `firstNewID`) in the background and hands each
    /// printer its own jobs, to take over as `policy` says.
    static func restoreJobs(
        printers: [Printer], outputDirectory: String, before firstNewID: Int, policy: RestartPolicy,
        log: @escaping @Sendable (String) -> Void
    ) {
        Thread.detachNewThread {
            let contents = JobArchive.load(
                outputDirectory: outputDirectory, before: firstNewID, printerStartTime: Date().timeIntervalSince1970)
            for problem in contents.problems { log("warning: skipped a job record: \(problem)") }
            if contents.leftoversRemoved > 0 {
                log("removed \(contents.leftoversRemoved) half-written files and folders of an interrupted run")
            }
            let names = Set(printers.map(\.name))
            let others = contents.jobs.filter { !names.contains($0.printerName) }.count
            for printer in printers {
                printer.restore(contents.jobs.filter { $0.printerName == printer.name }, policy: policy)
            }
            if !contents.jobs.isEmpty {
                log(
                    "restored \(contents.jobs.count - others) earlier jobs"
                        + (others > 0 ? "; \(others) jobs of other printers stay on disk" : ""))
            }
        }
    }

    /// A listen address as a URI host: IPv6 in brackets, the wildcard as localhost.
    static func uriHost(_ address: String) -> String {
        if address == "::" || address == "0.0.0.0" { return "localhost" }
        return address.contains(":") ? "[\(address)]" : address
    }
}
