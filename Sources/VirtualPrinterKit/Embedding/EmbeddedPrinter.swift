import Dispatch
import Foundation
import HTTPServer
import PrintModel
import PrinterCore
import PrinterHTTP
import Profiles
import RequestJournal
import Synchronization

/// A printer running inside the calling process, for Swift test suites (DESIGN.md: the library product).
///
/// ```swift
/// let printer = try await EmbeddedPrinter.start(profile: "duplex-laser", outputDirectory: folder)
/// defer { printer.stop() }
/// // print to printer.uri with any IPP client, then:
/// let records = try await printer.waitForJobs(count: 1, timeout: 30)
/// #expect(records[0].jobState == "completed")
/// ```
///
/// It wires the same parts as the `vprinter` command: the printer, its HTTP service (IPP, the JSON API and the
/// web page on one port), the job scheduler and the render worker process. It never advertises over DNS-SD.
public final class EmbeddedPrinter: Sendable {
    /// The longest `waitForJobs` may wait, in seconds.
    public static let maximumWaitTimeout: Double = 3600

    /// The printer's IPP URI, `ipp://127.0.0.1:PORT/ipp/print`.
    public let uri: String
    /// The TCP port it listens on (useful with port 0).
    public let port: UInt16
    /// The base of the JSON API and the web page, `http://127.0.0.1:PORT`.
    public var httpURL: String { "http://127.0.0.1:\(port)" }
    /// The printer itself.
    public let printer: Printer
    /// Where jobs are recorded (`<outputDirectory>/jobs/<id>/`).
    public let outputDirectory: String
    /// Every request the printer received (in memory, and in `<outputDirectory>/requests.jsonl`).
    private let journal: Journal
    private let server: HTTPServer
    private let isStopped = Atomic<Bool>(false)

    private init(
        uri: String, port: UInt16, printer: Printer, outputDirectory: String, journal: Journal, server: HTTPServer
    ) {
        self.uri = uri
        self.port = port
        self.printer = printer
        self.outputDirectory = outputDirectory
        self.journal = journal
        self.server = server
    }

    /// Starts a printer on loopback and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - profile: a shipped profile's name or a profile file's path; names are looked up as
    ///     `EmbeddedPrinter.profileDirectories()` says.
    ///   - outputDirectory: where jobs are recorded; jobs recorded there earlier are listed again and ids go on.
    ///   - port: the TCP port, 0 for any free port.
    ///   - name: the printer's name (default: the profile's).
    ///   - render: render jobs to PNGs through `vprinter-render` (false: record documents only).
    ///   - ocr: read the text of raster sides by OCR when ``text(jobID:)`` asks for it (`--no-ocr` when false).
    ///   - onRestart: what becomes of the unfinished jobs recorded there earlier (default: they go on).
    public static func start(
        profile: String = "duplex-laser", outputDirectory: String, port: UInt16 = 0, name: String? = nil,
        render: Bool = true, ocr: Bool = true, onRestart: RestartPolicy = .requeue
    ) async throws(EmbeddedPrinterError) -> EmbeddedPrinter {
        let loaded: PrinterProfile
        do {
            loaded = try PrinterProfile.load(nameOrPath: profile, searchDirectories: profileDirectories())
        } catch {
            throw .profile("\(error)")
        }
        let output = (outputDirectory as NSString).standardizingPath
        do {
            try FileManager.default.createDirectory(atPath: output + "/jobs", withIntermediateDirectories: true)
        } catch {
            throw .outputDirectory(path: output, reason: (error as NSError).localizedDescription)
        }
        var renderer: RenderWorkerClient?
        if render {
            guard let worker = RenderWorkerClient.locateWorker() else { throw .renderWorkerNotFound }
            renderer = RenderWorkerClient(executable: worker, ocr: ocr)
        }
        let printerName = name ?? loaded.name
        let jobIDs = JobIDAllocator(outputDirectory: output)
        let printer = Printer.build(
            profile: loaded, name: printerName, id: 1, outputDirectory: output, jobIDs: jobIDs,
            scheduler: JobScheduler(workers: max(1, ProcessInfo.processInfo.activeProcessorCount)),
            renderer: renderer)
        printer.beginRestore()
        let archive = JobArchive.load(
            outputDirectory: output, before: jobIDs.first, printerStartTime: Date().timeIntervalSince1970)
        printer.restore(archive.jobs.filter { $0.printerName == printerName }, policy: onRestart)
        var limits = HTTPServerLimits.default
        limits.maximumBodyBytes = Int.max
        let journal = Journal(settings: Journal.Settings(filePath: output + "/requests.jsonl"))
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: port, limits: limits),
            handler: PrinterService(printers: [printer], events: printer.events, journal: journal))
        do {
            try server.start()
        } catch {
            throw .listen("\(error)")
        }
        return EmbeddedPrinter(
            uri: "ipp://127.0.0.1:\(server.port)/ipp/print", port: server.port, printer: printer,
            outputDirectory: output, journal: journal, server: server)
    }

    /// The requests the printer received that pass `filter` (the filters of `GET /api/v1/requests`), oldest first.
    public func requests(matching filter: RequestFilter = RequestFilter()) -> [JournalEntry] {
        journal.entries(matching: filter)
    }

    /// Whether the requests received so far answer `verification` (`POST /api/v1/requests/verify`): on a failure,
    /// the result names the requests that came closest and what each missed.
    public func verify(_ verification: Verification) -> VerificationResult {
        verification.evaluate(journal.entries())
    }

    /// What each client sent and did wrong (its findings per rule), as `GET /api/v1/clients` answers.
    public func clients() -> ClientReport {
        journal.clients()
    }

    /// Whether the printer refuses what a lenient printer substitutes or ignores (`--strict`); settable.
    public var isStrict: Bool {
        get { printer.isStrict }
        set { printer.setStrict(newValue) }
    }

    /// The records of every job the printer knows, oldest first.
    public func jobs() throws(EmbeddedPrinterError) -> [JobRecord] {
        var records: [JobRecord] = []
        for job in printer.jobs { records.append(JobRecord(job)) }
        return records
    }

    /// The records of the jobs that pass `query` (the filters of `GET /api/v1/jobs`), oldest first.
    public func jobs(matching query: JobQuery) throws(EmbeddedPrinterError) -> [JobRecord] {
        var records: [JobRecord] = []
        for job in printer.jobs(matching: query) { records.append(JobRecord(job)) }
        return records
    }

    /// The text of each printed side of a job, in order (`GET /api/v1/jobs/<id>/text`): the PDF's text, or, for
    /// raster and image pages, text read by OCR on this first request. Throws `.noSuchJob` for an unknown id.
    public func text(jobID: Int) throws(EmbeddedPrinterError) -> [SideText] {
        guard let sides = printer.sideTexts(jobID: jobID) else { throw .noSuchJob(jobID) }
        return sides
    }

    /// Waits until at least `count` jobs have ended (completed, canceled or aborted), then returns the records of
    /// the ended jobs, oldest first. Throws `.timedOut` after `timeout` seconds, with the jobs that had ended.
    public func waitForJobs(count: Int, timeout: Double = 30) async throws(EmbeddedPrinterError) -> [JobRecord] {
        try await waitForJobs(count: count, matching: JobQuery(), timeout: timeout)
    }

    /// Waits until at least `count` jobs that pass `query` have ended, then returns the records of those jobs,
    /// oldest first; throws `.timedOut` after `timeout` seconds.
    public func waitForJobs(count: Int, matching query: JobQuery, timeout: Double = 30)
        async throws(EmbeddedPrinterError) -> [JobRecord]
    {
        guard count > 0 else { throw .invalidWait("count must be at least 1, not \(count)") }
        guard timeout.isFinite, timeout >= 0, timeout <= Self.maximumWaitTimeout else {
            throw .invalidWait("timeout must be 0 to \(Int(Self.maximumWaitTimeout)) seconds, not \(timeout)")
        }
        let result: Result<[JobRecord], EmbeddedPrinterError> = await withCheckedContinuation { continuation in
            // The hub's wait blocks a thread; keep it off Swift's cooperative pool.
            Thread.detachNewThread { [self] in
                continuation.resume(
                    returning: Result { () throws(EmbeddedPrinterError) in
                        try blockingWait(count: count, query: query, timeout: timeout)
                    })
            }
        }
        return try result.get()
    }

    private func blockingWait(count: Int, query: JobQuery, timeout: Double) throws(EmbeddedPrinterError)
        -> [JobRecord]
    {
        let subscription = printer.events.subscribe()
        defer { subscription.cancel() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard !isStopped.load(ordering: .relaxed) else { throw .stopped }
            let ended = try jobs(matching: query).filter(\.hasEnded)
            if ended.count >= count { return ended }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { throw .timedOut(ended: ended, expected: count) }
            // Wake at least every second so that stop() ends a wait; a nil (overflow) just means re-check.
            _ = subscription.next(timeout: min(remaining, 1))
        }
    }

    /// Forgets every job and deletes its folder (between tests); returns how many were forgotten.
    @discardableResult
    public func reset() -> Int {
        printer.forgetAllJobs()
    }

    /// Forgets the jobs that pass `query` and deletes their folders; returns how many were forgotten.
    @discardableResult
    public func reset(matching query: JobQuery) -> Int {
        printer.forgetJobs(Set(printer.jobs(matching: query).map(\.id)))
    }

    /// Stops accepting connections and ends pending waits. Jobs already recorded stay on disk, and so does the
    /// journal of the requests.
    public func stop() {
        guard !isStopped.exchange(true, ordering: .relaxed) else { return }
        server.stop()
        journal.flush()
    }

    /// Where profile names are looked up (`PrinterProfile.searchDirectories()`).
    public static func profileDirectories() -> [String] {
        PrinterProfile.searchDirectories()
    }
}
