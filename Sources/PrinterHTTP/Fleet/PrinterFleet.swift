import Foundation
import HTTPServer
import PrinterCore
import RequestJournal
import Synchronization

/// The printers of one process as a whole: creating and deleting them at runtime, switching them on and off,
/// their listeners (the process's port and any port of their own) and their advertisement.
///
/// Every port serves every printer's path; a printer's own port is the one its URI and DNS-SD services name.
public final class PrinterFleet: Sendable {
    public let registry: PrinterRegistry
    public let factory: PrinterFactory
    let advertiser: (any PrinterAdvertising)?
    let serverConfiguration: HTTPServerConfiguration
    let log: @Sendable (String) -> Void

    private struct Listeners {
        var main: HTTPServer?
        /// Servers on printers' own ports, by printer-id.
        var own: [Int: HTTPServer] = [:]
    }

    private let listeners = Mutex(Listeners())
    /// Held while a printer's own port stops or starts again as it is switched off or on, one switch at a time.
    private let portSwitches = Mutex(())
    /// The HTTP service of every port: IPP, the API, the web page, health and metrics.
    public let service: PrinterService

    /// - Parameters:
    ///   - serverConfiguration: the addresses, port, limits and TLS of the process's listener; a printer's own
    ///     port uses the same addresses, limits and TLS.
    ///   - access: the accounts and admins every printer asks for, those created at runtime too.
    ///   - journal: where every request to every port is recorded; nil for none.
    ///   - hosts: the names a request's Host may give (`--allowed-host`); `origins`: the web pages besides the
    ///     printer's own that may call the API's changes (`--allow-origin`).
    ///   - peers: the other processes of a fleet served in slices (`--peers`), whose printers and jobs the API's
    ///     listings include.
    public init(
        factory: PrinterFactory, advertiser: (any PrinterAdvertising)?, serverConfiguration: HTTPServerConfiguration,
        apiToken: String? = nil, access: AccessControl = .open, metrics: ServiceMetrics = ServiceMetrics(),
        journal: Journal? = nil, hosts: HostPolicy = .machine, origins: OriginPolicy = OriginPolicy(),
        peers: FleetPeers = .none, log: @escaping @Sendable (String) -> Void
    ) {
        let registry = PrinterRegistry()
        self.registry = registry
        self.factory = factory
        self.advertiser = advertiser
        self.serverConfiguration = serverConfiguration
        self.log = log
        service = PrinterService(
            registry: registry, events: factory.events, apiToken: apiToken, access: access,
            security: factory.settings.security, metrics: metrics, journal: journal, hosts: hosts, origins: origins,
            peers: peers, log: log)
        service.fleet.withLock { $0 = self }
    }

    /// The port of the process's listener, once started.
    public var port: UInt16 { listeners.withLock { $0.main?.port ?? 0 } }

    /// Connections open now on every port.
    public var openConnections: Int {
        listeners.withLock { state in
            (state.main?.activeConnections ?? 0) + state.own.values.reduce(0) { $0 + $1.activeConnections }
        }
    }

    /// Opens the process's listener.
    public func start() throws(HTTPServerError) {
        let server = HTTPServer(configuration: serverConfiguration, handler: service)
        try server.start()
        listeners.withLock { $0.main = server }
    }

    /// Adds a printer (at start or at runtime): makes it, opens its own port, plays its scenarios and
    /// advertises it. `resourcePath` nil: `/ipp/print/<name as a path segment>`. With `restoring`, readers of
    /// its job list wait until ``Printer/restore(_:)`` hands it the jobs of an earlier run.
    @discardableResult
    public func add(
        _ spec: PrinterSpec, name: String, resourcePath: String? = nil, isRuntime: Bool, restoring: Bool = false
    ) throws(FleetError) -> HostedPrinter {
        try PrinterFactory.validate(name: name)
        let path = resourcePath ?? "/ipp/print/\(PrinterConfiguration.pathSegment(for: name))"
        if registry.printer(named: name) != nil
            || registry.printer(named: PrinterConfiguration.pathSegment(for: name)) != nil
            || registry.printer(atPath: path) != nil
        {
            throw .nameTaken(name)
        }
        let id = registry.reserveID()
        let made = try factory.make(spec, name: name, resourcePath: path, id: id)
        var ownServer: HTTPServer?
        if let port = spec.port {
            do {
                ownServer = try openOwnPort(port)
            } catch {
                throw .listen("port \(port): \(error)")
            }
        }
        if restoring { made.printer.beginRestore() }
        let hosted = HostedPrinter(
            printer: made.printer, id: id, port: ownServer?.port, txtOverrides: made.profile.txt, isRuntime: isRuntime)
        do {
            try registry.add(hosted)
        } catch {
            ownServer?.stop()
            throw error
        }
        if let ownServer { listeners.withLock { $0.own[id] = ownServer } }
        for scenario in made.scenarios {
            log("printer '\(name)' plays scenario '\(scenario.name)': \(scenario.faults.count) fault(s)")
        }
        let advertiser = advertiser
        let port = self.port
        made.printer.power.observe { [log, weak self] on in
            log("printer '\(name)' switched \(on ? "on" : "off")")
            self?.followPower(of: hosted, on: on)
            guard let advertiser else { return }
            if on { advertiser.advertise(hosted, port: hosted.port ?? port) } else { advertiser.withdraw(hosted) }
        }
        if made.printer.power.isOn { advertiser?.advertise(hosted, port: hosted.port ?? port) }
        for scenario in made.scenarios {
            // Its faults in the scenario's group, so that the web page and the API can stop it.
            made.printer.play(scenario, applySettings: false)
        }
        return hosted
    }

    /// Removes a printer: withdraws it, closes its own port, ends its unfinished jobs. Its job records stay
    /// in the output folder.
    @discardableResult
    public func remove(named name: String) throws(FleetError) -> HostedPrinter {
        guard let hosted = registry.remove(named: name) else { throw .notFound(name) }
        advertiser?.withdraw(hosted)
        let server = listeners.withLock { $0.own.removeValue(forKey: hosted.id) }
        server?.stop()
        hosted.printer.abortUnfinishedJobs(message: "The printer was deleted.")
        log("printer '\(hosted.name)' deleted")
        return hosted
    }

    /// A server on a printer's own port (0: any free one), started: the process's addresses, limits and TLS.
    private func openOwnPort(_ port: UInt16) throws(HTTPServerError) -> HTTPServer {
        var configuration = serverConfiguration
        configuration.port = port
        let server = HTTPServer(configuration: configuration, handler: service)
        try server.start()
        return server
    }

    /// A printer with a port of its own stops listening there while it is switched off, so that a client's
    /// connection is refused, as by a printer that is off, and listens again on the same port once it is on.
    /// Its path on the process's port is silent meanwhile (`PrinterService.unanswered`).
    func followPower(of hosted: HostedPrinter, on: Bool) {
        guard let port = hosted.port else { return }
        portSwitches.withLock { _ in
            // Gone when the printer was deleted or the fleet stopped: nothing to switch.
            guard let server = listeners.withLock({ $0.own[hosted.id] }) else { return }
            guard on else {
                server.stop()
                return
            }
            let replacement: HTTPServer
            do {
                replacement = try openOwnPort(port)
            } catch {
                log("printer '\(hosted.name)' cannot listen on port \(port) again: \(error)")
                return
            }
            let kept = listeners.withLock { state in
                guard state.own[hosted.id] != nil else { return false }
                state.own[hosted.id] = replacement
                return true
            }
            if !kept { replacement.stop() }
        }
    }

    /// The printer's URI on `host`: its own port when it has one, else the process's; `ipps://` when the
    /// ports speak TLS.
    public func uri(of hosted: HostedPrinter, host: String) -> String {
        let scheme = factory.settings.security.offersTLS ? "ipps" : "ipp"
        return "\(scheme)://\(host):\(hosted.port ?? port)\(hosted.printer.configuration.resourcePath)"
    }

    /// Whether the printers the process starts with are still being added (`holdReadiness`).
    private let startingUp = Atomic<Bool>(false)

    /// Keeps `/readyz` from answering ready until `releaseReadiness`: the process listens before it adds its
    /// printers, and a fleet of thousands takes a while, during which the printers added so far would all be
    /// ready and the rest not yet there (a Kubernetes Service would send jobs to printers that do not exist).
    public func holdReadiness() {
        startingUp.store(true, ordering: .sequentiallyConsistent)
    }

    /// Every printer the process starts with has been added: readiness is theirs from now on.
    public func releaseReadiness() {
        startingUp.store(false, ordering: .sequentiallyConsistent)
    }

    /// Why the process is not ready (`/readyz`): the printers it starts with still being added, or one entry per
    /// printer that is switched on but not accepting jobs or not yet advertised. Empty when ready.
    public var readinessProblems: [String] {
        if startingUp.load(ordering: .sequentiallyConsistent) {
            return ["the printers are still being added (\(registry.all.count) so far)"]
        }
        var problems: [String] = []
        for hosted in registry.all where hosted.printer.power.isOn {
            if !hosted.printer.isAcceptingJobs {
                problems.append("printer '\(hosted.name)' is not accepting jobs")
            } else if let advertiser, !advertiser.isSettled(hosted) {
                problems.append("printer '\(hosted.name)' is not advertised yet")
            }
        }
        return problems
    }

    /// Stops every listener (the process's and the printers' own) and writes the journal's last entries.
    public func stop() {
        let (main, own) = listeners.withLock { state in
            defer { state = Listeners() }
            return (state.main, Array(state.own.values))
        }
        main?.stop()
        for server in own { server.stop() }
        service.journal?.flush()
    }
}

extension Printer {
    /// printer-is-accepting-jobs now.
    public var isAcceptingJobs: Bool { status.withLock { $0.isAcceptingJobs } }
}
