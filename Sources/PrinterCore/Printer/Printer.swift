import Dispatch
import IPP
import PrintModel
import Synchronization

/// One virtual printer: its attributes, its jobs and their state, behind one lock.
///
/// Operations run on the HTTP server's connection threads; job processing runs on the scheduler's
/// workers. All shared state is in `status`, a `Mutex`.
public final class Printer: Sendable {
    public let configuration: PrinterConfiguration
    package let status: Mutex<PrinterStatus>
    /// Counts the changes of `status`, read without its lock.
    let statusChanges: StatusChanges
    /// The static attributes, pre-encoded; replaced as a whole by Set-Printer-Attributes, read by every request.
    let attributeStore: ReadMostly<PrinterAttributeCache>

    /// Get-Printer-Attributes answers encoded at the current moment.
    let answers = PrinterAttributeAnswers()

    /// The current static attributes.
    package var cache: PrinterAttributeCache { attributeStore.value }
    let jobIDs: JobIDAllocator
    let scheduler: JobScheduler
    package let recorder: JobRecorder
    let renderer: (any JobRenderer)?
    /// Where job and printer state changes are published (event stream, waiters).
    public let events: EventHub
    /// Faults added to the printer (scenarios, the API).
    package let faults = FaultEngine()
    /// Event notification subscriptions and their events (RFC 3995, RFC 3996).
    let subscriptions = SubscriptionStore()
    /// Strict: refuses, with the client-error status the strictest real printers answer, what a lenient printer
    /// substitutes or ignores (unsupported job attributes, bytes that are not the format named, and what
    /// PrinterHTTP's checker finds). Starts as the configuration says; the API switches it.
    private let strictness: Atomic<Bool>
    /// On or off (switched by the power API, the front panel or a `power` fault): off, the printer is not
    /// advertised and its path answers nothing.
    public let power = PowerSwitch()
    /// Counts for `GET /metrics`.
    public let counters = PrinterCounters()
    /// The scanner beside the printer, when its profile has one and the renderer makes scanned images.
    public let scanner: ScannerDevice?
    /// Whether the device prints: false for a scanner alone (a profile whose scanner is `scanOnly`), which answers
    /// no IPP and is not advertised as a printer.
    public var prints: Bool { !(configuration.scanner?.scanOnly ?? false) }
    /// The text of printed sides read so far, and OCR runs in progress.
    package let textStore = SideTextStore()
    package let log: @Sendable (String) -> Void
    /// When the printer started, for printer-up-time and time-at-* values.
    let startTime: Double
    /// multiple-operation-time-out in seconds (from the attributes; 60 by default).
    let multipleOperationTimeout: Double
    /// multiple-operation-time-out-action: abort-job (default), hold-job or process-job.
    let multipleOperationTimeoutAction: String

    /// Whether the printer is strict now.
    public var isStrict: Bool { strictness.load(ordering: .relaxed) }

    /// Makes the printer strict or lenient from its next request on.
    public func setStrict(_ strict: Bool) {
        strictness.store(strict, ordering: .relaxed)
    }

    /// multiple-operation-time-out in seconds: how long a Create-Job's job waits for its document.
    public var documentTimeout: Double { multipleOperationTimeout }

    /// The attribute names the printer produces itself on every request.
    package static let dynamicAttributeNames: Set<String> = [
        "printer-uri-supported", "uri-security-supported", "uri-authentication-supported", "printer-state",
        "printer-state-reasons", "printer-state-message", "printer-is-accepting-jobs", "printer-up-time",
        "printer-current-time", "printer-state-change-time", "printer-state-change-date-time",
        "printer-config-change-time", "printer-config-change-date-time", "queued-job-count", "printer-icons",
        "printer-more-info", "printer-supply-info-uri", "printer-uuid", "printer-name", "printer-dns-sd-name",
        "printer-message-from-operator", "printer-alert", "printer-alert-description", "printer-input-tray",
        "printer-supply", "marker-levels", "printer-output-tray", "printer-strings-uri",
    ]

    public init(
        configuration: PrinterConfiguration, jobIDs: JobIDAllocator, scheduler: JobScheduler,
        renderer: (any JobRenderer)? = nil, events: EventHub = EventHub(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.events = events
        self.configuration = configuration
        self.jobIDs = jobIDs
        self.scheduler = scheduler
        self.renderer = renderer
        self.log = log
        if let scanner = configuration.scanner, let imaging = renderer?.scanImaging {
            let makeAndModel =
                configuration.attributes.first { $0.name == "printer-make-and-model" }?.value?.stringValue
                ?? configuration.name
            self.scanner = ScannerDevice(
                capabilities: ScannerDevice.capabilities(
                    of: scanner, makeAndModel: makeAndModel, uuid: configuration.uuid),
                imaging: imaging, outputDirectory: configuration.outputDirectory, printerName: configuration.name,
                source: configuration.scanSource, events: events, diskFloor: configuration.diskFloor, log: log)
        } else {
            scanner = nil
        }
        strictness = Atomic(configuration.strict)
        let now = WallClock.now()
        startTime = now
        statusChanges = StatusChanges()
        status = Mutex(PrinterStatus(now: now, changes: statusChanges))
        let cache = PrinterAttributeCache(
            attributes: Self.staticAttributes(configuration), excluding: Self.dynamicAttributeNames)
        attributeStore = ReadMostly(cache)
        recorder = JobRecorder(outputDirectory: configuration.outputDirectory)
        let timeout = cache["multiple-operation-time-out"]?.value?.integerValue ?? 60
        multipleOperationTimeout = Double(max(1, timeout))
        multipleOperationTimeoutAction =
            cache["multiple-operation-time-out-action"]?.value?.stringValue ?? "abort-job"
        var profileAttributes: [String: IPPAttribute] = [:]
        for attribute in configuration.attributes { profileAttributes[attribute.name] = attribute }
        status.withLock {
            $0.device = DeviceState(attributes: profileAttributes, tracksConsumables: configuration.tracksConsumables)
            $0.noteStateChange(at: now)
        }
    }

    public var name: String { configuration.name }

    /// The printer-uri a client reaches this printer with on a host and port.
    func printerURI(authority: String, scheme: String = "ipp") -> String {
        "\(scheme)://\(authority)\(configuration.resourcePath)"
    }

    /// printer-up-time: seconds since start, at least 1 (PWG 5100.14 requires > 0).
    func upTime(at now: Double) -> Int32 {
        Int32(clamping: Int((now - startTime).rounded(.down)) + 1)
    }

    /// The up-time value of an absolute time.
    func upTime(of time: Double) -> Int32 {
        Int32(clamping: Int((time - startTime).rounded(.down)) + 1)
    }

    /// Held while the jobs of an earlier run are being read (`beginRestore()` ... `restore(_:)`); readers of
    /// the job list wait for it, so that a fresh start is fast and no answer misses a restored job.
    package let restoring = DispatchGroup()

    /// Marks the printer as restoring earlier jobs; `restore(_:)` ends it.
    public func beginRestore() {
        let first = status.withLock { state in
            defer { state.restorePending = true }
            return !state.restorePending
        }
        if first { restoring.enter() }
    }

    /// The current jobs, oldest first (for the JSON API and tests).
    public var jobs: [Job] {
        restoring.wait()
        return status.withLock { state in state.jobOrder.compactMap { state.jobs[$0] } }
    }

    /// One job by id.
    public func job(_ id: Int) -> Job? {
        restoring.wait()
        return status.withLock { $0.jobs[id] }
    }
}
