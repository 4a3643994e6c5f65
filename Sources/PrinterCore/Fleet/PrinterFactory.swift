import Foundation
import HTTPServer
import IPP
import Profiles
import Synchronization

/// Makes printers from ``PrinterSpec``s with the process-wide parts they share: the output folder, job ids,
/// the render scheduler and renderer, the event hub. Profiles are loaded once per name and reused, so a fleet
/// of 1,000 printers of one profile reads and decodes it once.
public final class PrinterFactory: Sendable {
    public struct Settings: Sendable {
        public var outputDirectory: String
        public var maximumDocumentSize: Int
        public var maximumJobs: Int?
        /// The free space the output folder's disk must keep to accept jobs (`--min-free-disk`); 0: no floor.
        public var minimumFreeDisk = 0
        public var speed: PrintSpeed
        public var tracksConsumables: Bool
        /// Whether printers without a `strict` of their own are strict (`--strict`).
        public var strict: Bool
        public var profileDirectories: [String]
        /// TLS and credentials as every printer states them (its URIs, attributes and TXT record); the same
        /// for printers made at start and at runtime, since they share the process's listeners and accounts.
        public var security: PrinterSecurity
        /// The folders whose profile and scenario files a request (the API, the System Service) may name
        /// (`--profile-dir`); otherwise requests name shipped profiles and scenarios only.
        public var requestFolders: [String] = []
        /// What every scanner scans when no source was sent through the API (`--scan-source`); nil: the chart.
        public var scanSource: ScanSourceFiles?
        /// Where every printer's Print-URI and Send-URI may fetch from (`--fetch-allow`, `--fetch-deny`), before a
        /// printer's own rules.
        public var fetchPolicy = FetchPolicy.standard

        public init(
            outputDirectory: String, maximumDocumentSize: Int = PrinterConfiguration.defaultMaximumDocumentSize,
            maximumJobs: Int? = nil, speed: PrintSpeed = .instant, tracksConsumables: Bool = false,
            strict: Bool = false,
            profileDirectories: [String] = PrinterProfile.searchDirectories(),
            security: PrinterSecurity = PrinterSecurity()
        ) {
            self.outputDirectory = outputDirectory
            self.maximumDocumentSize = maximumDocumentSize
            self.maximumJobs = maximumJobs
            self.speed = speed
            self.tracksConsumables = tracksConsumables
            self.strict = strict
            self.profileDirectories = profileDirectories
            self.security = security
        }
    }

    /// A printer made and what goes with it.
    public struct Made: Sendable {
        public let printer: Printer
        public let profile: PrinterProfile
        public let scenarios: [Scenario]
    }

    public let settings: Settings
    let jobIDs: JobIDAllocator
    let scheduler: JobScheduler
    let renderer: (any JobRenderer)?
    public let events: EventHub
    let log: @Sendable (String) -> Void
    private let profiles = Mutex<[String: PrinterProfile]>([:])
    private let loadedScenarios = Mutex<[String: Scenario]>([:])

    public init(
        settings: Settings, jobIDs: JobIDAllocator, scheduler: JobScheduler, renderer: (any JobRenderer)?,
        events: EventHub, log: @escaping @Sendable (String) -> Void
    ) {
        self.settings = settings
        self.jobIDs = jobIDs
        self.scheduler = scheduler
        self.renderer = renderer
        self.events = events
        self.log = log
    }

    /// Checks the profile and scenario files of a printer a request asks for (`checkRequested(_:kind:)`).
    public func checkRequested(_ spec: PrinterSpec) throws(FleetError) {
        try checkRequested(spec.profile, kind: "profile")
        for scenario in spec.scenarios { try checkRequested(scenario, kind: "scenario") }
    }

    /// Checks a profile or scenario a request names (`kind` says which): a shipped one's name (letters, digits, `-`
    /// and `_`), or a file in one of the `requestFolders`. The refusal is the same whether or not the file exists,
    /// so that a request cannot learn what else is on the machine.
    public func checkRequested(_ nameOrPath: String, kind: String) throws(FleetError) {
        if Self.isShippedName(nameOrPath) { return }
        let refusal = FleetError.invalid(
            "a request names a \(kind) by the name of a shipped one, or as a file in a folder the printer was started "
                + "with (--profile-dir); '\(nameOrPath)' is neither")
        guard let real = Self.realPath(nameOrPath) else { throw refusal }
        let folders = settings.requestFolders.compactMap(Self.realPath)
        guard folders.contains(where: { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else { throw refusal }
    }

    /// Whether a name can only be a shipped profile's or scenario's: no path, no dot, no file of the current folder.
    static func isShippedName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// The path with its links and `..` resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Loads (once) the profile a spec names.
    public func profile(_ nameOrPath: String) throws(FleetError) -> PrinterProfile {
        if let known = profiles.withLock({ $0[nameOrPath] }) { return known }
        let loaded: PrinterProfile
        do {
            loaded = try PrinterProfile.load(nameOrPath: nameOrPath, searchDirectories: settings.profileDirectories)
        } catch {
            throw .profile("\(error)")
        }
        profiles.withLock { $0[nameOrPath] = loaded }
        return loaded
    }

    /// Loads (once) a scenario file, or a shipped scenario by name (`scenarios/<name>.json` beside a profiles
    /// folder).
    public func scenario(_ file: String) throws(FleetError) -> Scenario {
        if let known = loadedScenarios.withLock({ $0[file] }) { return known }
        var path = file
        if !FileManager.default.fileExists(atPath: file), !file.contains("/") {
            let candidates = settings.profileDirectories.map {
                URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("scenarios/\(file).json")
                    .path
            }
            path = candidates.first { FileManager.default.fileExists(atPath: $0) } ?? file
        }
        let loaded: Scenario
        do {
            loaded = try Scenario.load(file: path)
        } catch {
            throw .scenario("\(error)")
        }
        loadedScenarios.withLock { $0[file] = loaded }
        return loaded
    }

    /// Makes a printer named `name` at `resourcePath` with printer-id `id`. Its faults are not added yet.
    public func make(_ spec: PrinterSpec, name: String, resourcePath: String, id: Int) throws(FleetError) -> Made {
        let profile = try profile(spec.profile)
        var scenarios: [Scenario] = []
        for file in spec.scenarios { scenarios.append(try scenario(file)) }
        scenarios += spec.inlineScenarios
        var extra: [IPPAttribute] = []
        if let info = spec.info { extra.append(IPPAttribute("printer-info", .text(info))) }
        if let location = spec.location { extra.append(IPPAttribute("printer-location", .text(location))) }
        let printer = Printer.build(
            profile: profile, name: name, resourcePath: resourcePath, id: id,
            outputDirectory: settings.outputDirectory, extraAttributes: extra,
            adjust: { configuration in
                configuration.maximumDocumentSize = spec.maximumDocumentSize ?? settings.maximumDocumentSize
                configuration.maximumJobs = spec.maximumJobs ?? settings.maximumJobs
                if settings.minimumFreeDisk > 0 {
                    configuration.diskFloor = DiskFloor(
                        path: settings.outputDirectory, minimumFreeBytes: settings.minimumFreeDisk)
                }
                configuration.speed = spec.speed ?? scenarios.compactMap(\.speed).last ?? settings.speed
                configuration.tracksConsumables =
                    spec.tracksConsumables ?? scenarios.compactMap(\.tracksConsumables).last
                    ?? settings.tracksConsumables
                configuration.security = settings.security
                configuration.scanSource = settings.scanSource
                configuration.fetchPolicy = settings.fetchPolicy.adding(spec.fetchPolicy)
                configuration.strict = spec.strict ?? settings.strict
            }, jobIDs: jobIDs, scheduler: scheduler, renderer: renderer, events: events, log: log)
        return Made(printer: printer, profile: profile, scenarios: scenarios)
    }

    /// Checks a printer name: 1 to ``PrinterSpec/maximumNameBytes`` bytes, no control characters, not only
    /// spaces.
    public static func validate(name: String) throws(FleetError) {
        let bytes = name.utf8.count
        guard bytes > 0, bytes <= PrinterSpec.maximumNameBytes else {
            throw .invalid("a printer name has 1 to \(PrinterSpec.maximumNameBytes) bytes, not \(bytes)")
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
            !name.allSatisfy({ $0 == " " }), !name.contains("/")
        else {
            throw .invalid("a printer name has no control characters or '/' and is not only spaces")
        }
    }
}
