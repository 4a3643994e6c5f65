import DNSSD
import Dispatch
import Foundation
import HTTPServer
import IPP
import PrinterCore
import PrinterHTTP
import Profiles
import RequestJournal
import VirtualPrinterKit

#if canImport(Glibc)
    import Glibc
#endif

/// `vprinter run`: makes the printers of the command line and the config file, starts listening, prints their
/// URIs, advertises them and serves until a signal. There is no fixed limit on the number of printers.
struct RunCommand {
    let options: CommandLineOptions
    /// The `--config` file, when one was given.
    var config: ConfigFile?

    func run() -> Int32 {
        Lifecycle.holdTerminationSignals()
        let started: StartedPrinters
        switch start() {
        case .success(let printers): started = printers
        case .failure(let failure): return failure.status
        }
        Console.out(started.uris.joined(separator: "\n"))
        Lifecycle.run(
            fleet: started.fleet, advertiser: started.advertiser, onRestart: started.restartPolicy,
            log: { Console.log($0) })
    }

    /// Makes the printers, starts listening and advertising, writes the ready file and starts restoring the jobs of
    /// earlier runs: everything `run` and `exec` do before they serve. A failure is logged, with its exit status.
    func start() -> Result<StartedPrinters, StartFailure> {
        let log: @Sendable (String) -> Void = { Console.log($0) }
        var specs = (config?.printers ?? []) + options.profiles.map { PrinterSpec(profile: $0) }
        if specs.isEmpty { specs = [PrinterSpec(profile: "duplex-laser")] }
        for index in specs.indices {
            specs[index].scenarios = options.scenarios + specs[index].scenarios
            // The command line's --speed and --consumables win over what a scenario says.
            specs[index].speed = specs[index].speed ?? options.speed.flatMap(PrintSpeed.init(rawValue:))
            specs[index].tracksConsumables =
                specs[index].tracksConsumables ?? options.consumables.map { $0 == "tracked" }
        }
        var profileNames: [String] = []
        var loaded: [String: String] = [:]
        let profileDirectories = PrinterProfile.searchDirectories()
        for spec in specs {
            do {
                if loaded[spec.profile] == nil {
                    loaded[spec.profile] =
                        try PrinterProfile.load(nameOrPath: spec.profile, searchDirectories: profileDirectories).name
                }
                profileNames.append(loaded[spec.profile] ?? spec.profile)
            } catch {
                Console.log("error: \(error)")
                return .failure(StartFailure(status: 1))
            }
        }
        let names = PrinterNames.assign(specs: specs, profileNames: profileNames, requested: options.name)
        if let duplicate = PrinterNames.firstDuplicate(names) {
            Console.log("error: two printers are named '\(duplicate)'; give each its own name")
            return .failure(StartFailure(status: 2))
        }
        // Absolute, so that the render worker and every later path resolve the same way.
        let given = options.outputDirectory
        let output =
            ((given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given) as NSString)
            .standardizingPath
        if let problem = OutputFolder.prepare(output, isPrivate: options.security.requiresAuthentication) {
            Console.log("error: \(problem)")
            return .failure(StartFailure(status: 1))
        }
        let security: SecuritySetup
        switch SecuritySetup.prepare(
            options.security, outputDirectory: output, listen: options.listen, dnssd: options.dnssd, log: log)
        {
        case .success(let setup): security = setup
        case .failure(let error):
            Console.log("error: \(error)")
            return .failure(StartFailure(status: 1))
        }
        let metrics = ServiceMetrics()
        var renderer: (any JobRenderer)?
        if options.render {
            guard let worker = RenderWorkerClient.locateWorker() else {
                Console.log(
                    "error: the render worker vprinter-render is not beside this binary nor in ../libexec/vprinter; set VPRINTER_RENDER or use --no-render"
                )
                return .failure(StartFailure(status: 1))
            }
            let client = RenderWorkerClient(
                executable: worker, renderDPI: options.renderDPI,
                rasterDPI: options.renderDPIGiven ? options.renderDPI : RenderWorkerClient.maximumRasterDPI,
                limits: options.renderLimits, ocr: options.ocr)
            renderer = MeasuredRenderer(client, metrics: metrics)
        }
        let jobIDs = JobIDAllocator(outputDirectory: output, shard: options.shard)
        let events = EventHub()
        var settings = PrinterFactory.Settings(
            outputDirectory: output, maximumDocumentSize: options.maximumDocumentSize,
            maximumJobs: options.maximumJobs ?? PrinterConfiguration.defaultMaximumJobs, strict: options.strict,
            security: security.printerSecurity)
        settings.requestFolders = options.profileFolders
        settings.minimumFreeDisk = options.minimumFreeDisk
        settings.fetchPolicy = options.fetchPolicy
        if let path = options.scanSource {
            do throws(ScanSourceError) {
                settings.scanSource = try ScanSourceFiles.open(path)
            } catch {
                Console.log("error: --scan-source: \(error.message)")
                return .failure(StartFailure(status: 2))
            }
        }
        let factory = PrinterFactory(
            settings: settings,
            jobIDs: jobIDs,
            scheduler: JobScheduler(workers: options.renderWorkers ?? ProcessInfo.processInfo.activeProcessorCount),
            renderer: renderer, events: events, log: log)
        var limits = ConnectionLimits.fitted(
            .default, maximumConnections: options.maximumConnections,
            perAddress: options.maximumConnectionsPerAddress, warn: log)
        limits.maximumBodyBytes = Int.max
        let advertiser = options.dnssd ? Advertiser(log: log) : nil
        let journal = OutputFolder.journal(options: options)
        // Every listener, the process's and each printer's own port, speaks the same TLS; every printer asks
        // the same credentials, including printers created at runtime.
        let fleet = PrinterFleet(
            factory: factory, advertiser: advertiser,
            serverConfiguration: HTTPServerConfiguration(
                addresses: options.listen, port: options.port, limits: limits, tls: security.tls),
            apiToken: options.apiToken, access: security.access, metrics: metrics, journal: journal,
            hosts: HostPolicy(
                names: HostPolicy.machineNames + options.allowedHosts,
                localNames: LocalLinkNames(query: { DNSSDHostName.query() })),
            origins: OriginPolicy(allowing: options.allowedOrigins), peers: FleetPeers(options.peers) ?? .none,
            log: log)
        fleet.holdReadiness()
        do {
            try fleet.start()
        } catch {
            switch error {
            case .addressInUse(let port):
                Console.log("error: port \(port) is in use; choose another with --port, or --port 0 for any free port")
            default:
                Console.log("error: cannot listen: \(error)")
            }
            return .failure(StartFailure(status: 1))
        }
        if !security.access.isEnabled && SecuritySetup.listensBeyondLoopback(options.listen) {
            log(
                "warning: anyone who can reach port \(fleet.port) can read every printed document and page and change "
                    + "the printers; use --listen 127.0.0.1 to keep it on this machine, or --user NAME:PASSWORD "
                    + "(with --tls) to ask for credentials")
        }
        advertiser?.start()
        var hosted: [HostedPrinter] = []
        // A slice of a fleet (--shard) serves its own printers of the list, named and pathed as in the whole.
        for (position, (spec, name)) in zip(specs, names).enumerated() where options.shard.holds(position: position) {
            do {
                hosted.append(
                    try fleet.add(
                        spec, name: name, resourcePath: specs.count == 1 ? "/ipp/print" : nil, isRuntime: false,
                        restoring: true))
            } catch {
                Console.log("error: printer '\(name)': \(error)")
                advertiser?.stop()
                fleet.stop()
                return .failure(StartFailure(status: 1))
            }
        }
        fleet.releaseReadiness()
        let host = options.listen.count == 1 ? Self.uriHost(options.listen[0]) : "localhost"
        let uris = hosted.map { fleet.uri(of: $0, host: host) }
        if let readyFile = options.readyFile {
            do {
                try (uris.joined(separator: "\n") + "\n").write(toFile: readyFile, atomically: true, encoding: .utf8)
            } catch {
                Console.log("error: cannot write the ready file \(readyFile): \(error.localizedDescription)")
                advertiser?.stop()
                fleet.stop()
                return .failure(StartFailure(status: 1))
            }
        }
        if hosted.count <= Self.printersLoggedOneByOne {
            for (printer, uri) in zip(hosted, uris) {
                log("printer '\(printer.name)' ready at \(uri), recording jobs in \(output)/jobs")
            }
        } else {
            log("\(hosted.count) printers ready on port \(fleet.port), recording jobs in \(output)/jobs")
        }
        if options.shard != .whole {
            log("slice \(options.shard) of the fleet: \(hosted.count) of its \(specs.count) printers")
        }
        let policy = RestartPolicy(rawValue: options.onRestart) ?? .requeue
        Self.restoreJobs(
            printers: hosted.map(\.printer), outputDirectory: output, before: jobIDs.first, policy: policy, log: log)
        let apiScheme = settings.security.offersTLS ? "https" : "http"
        return .success(
            StartedPrinters(
                fleet: fleet, advertiser: advertiser, events: events, hosted: hosted, uris: uris,
                apiURL: "\(apiScheme)://\(host):\(fleet.port)", outputDirectory: output, firstJobID: jobIDs.first,
                restartPolicy: policy))
    }

    /// Up to this many printers, each gets its own "ready" line on stderr; a larger fleet gets one line.
    static let printersLoggedOneByOne = 16

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
            var byPrinter: [String: [Job]] = [:]
            for job in contents.jobs { byPrinter[job.printerName, default: []].append(job) }
            let names = Set(printers.map(\.name))
            let others = contents.jobs.filter { !names.contains($0.printerName) }.count
            for printer in printers {
                printer.restore(byPrinter[printer.name] ?? [], policy: policy)
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

/// The printers of one run once they listen and are advertised: what `run` serves until a signal and `exec` until
/// its command ends.
struct StartedPrinters {
    let fleet: PrinterFleet
    let advertiser: Advertiser?
    /// Where the printers publish their jobs' and their own changes.
    let events: EventHub
    let hosted: [HostedPrinter]
    /// Each printer's IPP URI, in the order of `hosted`.
    let uris: [String]
    /// Where the JSON API answers: `http://HOST:PORT` (`https` under TLS).
    let apiURL: String
    /// The output folder, absolute.
    let outputDirectory: String
    /// The first job-id of this run: jobs numbered below it are earlier runs'.
    let firstJobID: Int
    let restartPolicy: RestartPolicy
}

/// Why the printers did not start, already logged: the exit status to end with (2 for a usage error, 1 else).
struct StartFailure: Error {
    let status: Int32
}
