import Foundation
import IPP
import PrintModel
import Profiles
import Scanner
import Synchronization

/// The scanner of a multifunction printer (eSCL, docs/scanning.md): its scan jobs, its feeder and faults, and the
/// records of what it delivered. Images are made by ``ScanImaging`` (the render worker) when a client asks for the
/// next one, outside the lock.
public final class ScannerDevice: Sendable {
    /// Scan jobs kept, in memory for ScannerStatus and the API and on disk (`scans/<number>/`): past that the
    /// oldest ended ones and their folders go first (``Retention``, as `--max-jobs` prunes jobs).
    public static let maximumJobs = 100
    /// Seconds a client is told to wait before asking again while the disk is below its floor (Retry-After): the
    /// time someone takes to make room, not the two seconds of a busy scanner.
    public static let storageRetryAfterSeconds = 60
    /// Seconds a client is told to wait before trying a busy scanner again (Retry-After).
    public static let retryAfterSeconds = 2
    /// Sheets in the feeder when the printer starts: each scanned with the test chart (or the scan source).
    public static let defaultFeederSheets = 3
    /// The largest scan source a client may send through the API (`PUT .../scanner/source`).
    public static let maximumSourceBytes = 64 * 1024 * 1024
    /// Seconds a scan job may go without a client fetching an image before the scanner drops it (aborted,
    /// ``abandonedReason``), so that a client that made a job and went away does not keep the scanner busy for
    /// everyone else. AirSane's `--job-timeout` drops an idle job after 120 s as well; sane-airscan, the slowest
    /// client here, waits at most 30 s between two NextDocument requests (30 tries a second apart on 503).
    public static let abandonedJobTimeout = 120

    public let capabilities: ScannerCapabilities
    let imaging: any ScanImaging
    /// `<output>/scans`: one folder a scan job.
    let folder: String
    /// The printer's name, in each record.
    let printerName: String
    /// What lies on the glass when nobody sent a source through the API (`--scan-source`); nil: the test chart.
    public let defaultSource: ScanSourceFiles?
    /// Where each change of a scan job is published (`scan-state-changed`), for waits and the event stream.
    let events: EventHub?
    /// Seconds without a client's fetch after which a job is dropped (``abandonedJobTimeout`` unless a test says).
    let abandonedJobTimeout: Int
    /// The time now, in seconds since the epoch (a test's own clock).
    let clock: @Sendable () -> Double
    /// The printer's log.
    let log: @Sendable (String) -> Void
    /// The free space the output folder's disk keeps (`--min-free-disk`): below it new scan jobs are refused.
    let diskFloor: DiskFloor?
    private let state: Mutex<State>

    private struct State {
        var jobs: [ScanJob] = []
        var faults: Set<ScannerFault> = []
        var feederSheets = ScannerDevice.defaultFeederSheets
        /// The job whose image is being made (its NextDocument waits for the worker).
        var imaging: String?
        /// What lies on the glass now; nil: the test chart.
        var source: ScanSourceFiles?
    }

    init(
        capabilities: ScannerCapabilities, imaging: any ScanImaging, outputDirectory: String, printerName: String,
        source: ScanSourceFiles? = nil, events: EventHub? = nil,
        diskFloor: DiskFloor? = nil, abandonedJobTimeout: Int = ScannerDevice.abandonedJobTimeout,
        clock: @escaping @Sendable () -> Double = { WallClock.now() },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.capabilities = capabilities
        self.diskFloor = diskFloor
        self.abandonedJobTimeout = abandonedJobTimeout
        self.clock = clock
        self.log = log
        self.imaging = imaging
        folder = "\(outputDirectory)/scans"
        self.printerName = printerName
        defaultSource = source
        self.events = events
        var initial = State()
        initial.source = source
        initial.jobs = ScanArchive.records(in: folder, printer: printerName)
        // A job still scanning when the printer stopped ended there.
        var interrupted: [ScanJob] = []
        for index in initial.jobs.indices where initial.jobs[index].state == .processing {
            initial.jobs[index].state = .aborted
            initial.jobs[index].reason = Self.interruptedReason
            initial.jobs[index].message = "The printer stopped while the job was scanning."
            interrupted.append(initial.jobs[index])
        }
        state = Mutex(initial)
        for job in interrupted { record(job) }
        let excess = ScanArchive.takeExcess(in: folder, printer: printerName)
        for number in excess { try? FileManager.default.removeItem(atPath: folder(of: number)) }
        if !excess.isEmpty {
            log("\(excess.count) scan records beyond the newest \(Self.maximumJobs) removed from \(folder)")
        }
    }

    /// The reason of a scan job that was scanning when the printer stopped.
    static let interruptedReason = "AbortedBySystem"
    /// The reason of a scan job dropped after ``abandonedJobTimeout``: the system ended it, as IPP's
    /// multiple-operation-time-out aborts a job nobody sends a document to (RFC 8011 section 5.4.31, action
    /// `abort-job` of PWG 5100.13 section 5.2.2) with the reason `aborted-by-system` (RFC 8011 section 5.3.8),
    /// here in the eSCL spelling of the PWG Semantic Model.
    public static let abandonedReason = "AbortedBySystem"

    /// The capabilities of a profile's scanner, with the printer's name and UUID.
    public static func capabilities(
        of scanner: ProfileFeatures.Scanner, makeAndModel: String, uuid: String
    ) -> ScannerCapabilities {
        func area(_ size: MediaSize?) -> ScannerCapabilities.Area? {
            // Media sizes are in hundredths of a millimetre; eSCL counts three-hundredths of an inch.
            size.map { .init(width: Int($0.width) * 300 / 2540, height: Int($0.height) * 300 / 2540) }
        }
        // eSCL and the TXT record carry the bare UUID, as scanners send it (the printer's is a URN).
        let bare = uuid.hasPrefix("urn:uuid:") ? String(uuid.dropFirst("urn:uuid:".count)) : uuid
        return ScannerCapabilities(
            makeAndModel: makeAndModel, serialNumber: String(bare.prefix(8)).uppercased(), uuid: bare,
            platen: area(scanner.platen), feeder: area(scanner.feeder), duplex: scanner.duplex,
            feederCapacity: scanner.feederCapacity, resolutions: scanner.resolutions, colorModes: scanner.colorModes,
            formats: scanner.formats)
    }

    // MARK: Jobs

    /// Makes a scan job from a client's ScanSettings body, owned by `user` (the authenticated user, or nil).
    public func createJob(
        settingsBody: [UInt8], client: String?, user: String? = nil, now: Double
    ) -> Result<ScanJob, ScannerRefusal> {
        let settings: ScanSettings
        do {
            settings = try ScanSettings.read(settingsBody, for: capabilities)
        } catch {
            return .failure(.invalidSettings(error.message))
        }
        let asked = ScanSettings.Asked.read(settingsBody)
        if let floor = diskFloor, let free = floor.shortfall() {
            return .failure(.storageFull(floor.refusal(free: free, of: "scans")))
        }
        // A job its client left is dropped before it can make this one wait.
        expireAbandonedJobs(now: now)
        let made = state.withLock { state -> Result<(ScanJob, Set<Int>), ScannerRefusal> in
            if state.faults.contains(.busy) || state.jobs.contains(where: { $0.state == .processing }) {
                return .failure(.busy)
            }
            if state.faults.contains(.coverOpen) { return .failure(.coverOpen) }
            if settings.source == .feeder, state.faults.contains(.feederEmpty) || state.feederSheets == 0 {
                return .failure(.feederEmpty)
            }
            let sheets = settings.source == .feeder ? state.feederSheets : 1
            var job = ScanJob(
                number: ScanArchive.nextNumber(in: folder), uuid: UUID().uuidString.lowercased(), settings: settings,
                created: IPPDateTime(secondsSince1970: now).iso8601, createdSeconds: now,
                imagesPlanned: sheets * (settings.duplex ? 2 : 1), client: client)
            job.printer = printerName
            job.user = user
            job.settingsAsked = asked
            job.lastActivitySeconds = now
            state.jobs.insert(job, at: 0)
            let pruned = Retention.excess(oldestFirst: state.jobs.reversed(), limit: Self.maximumJobs) {
                $0.state.isEnded
            }
            let numbers = Set(pruned.map(\.number))
            state.jobs.removeAll { numbers.contains($0.number) }
            return .success((job, numbers))
        }
        guard case .success(let (job, pruned)) = made else { return made.map(\.0) }
        record(job)
        for number in pruned { try? FileManager.default.removeItem(atPath: folder(of: number)) }
        ScanArchive.forget(pruned, in: folder, printer: printerName)
        return .success(job)
    }

    /// Makes and returns the job's next image: its record entry, the file's path and its format. The job completes
    /// with its last image; `notFound` after that, and for a job that ended or never was.
    public func nextImage(job uuid: String) -> Result<(image: ScanJob.Image, path: String), ScannerRefusal> {
        let next = state.withLock { state -> Result<(ScanJob, Int, ScanSourceFiles?), ScannerRefusal> in
            guard let index = state.jobs.firstIndex(where: { $0.uuid == uuid }) else { return .failure(.notFound) }
            var job = state.jobs[index]
            guard job.state == .processing else { return .failure(.notFound) }
            guard state.imaging == nil else { return .failure(.busy) }
            if job.images.count >= job.imagesPlanned {
                job.state = .completed
                job.reason = "JobCompletedSuccessfully"
                state.jobs[index] = job
                return .success((job, -1, nil))
            }
            if job.settings.source == .feeder, state.faults.contains(.feederJam) {
                job.state = .aborted
                job.reason = "ScannerAdfJam"
                job.message = ScannerRefusal.jammed.message
                state.jobs[index] = job
                return .success((job, -2, nil))
            }
            state.imaging = uuid
            return .success((job, job.images.count + 1, state.source))
        }
        let job: ScanJob
        let number: Int
        let source: ScanSourceFiles?
        switch next {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (found, index, lying)): (job, number, source) = (found, index, lying)
        }
        if number < 0 {
            record(job)
            return .failure(number == -1 ? .notFound : .jammed)
        }
        let (sheet, side) = job.sheetAndSide(ofImage: number)
        let jobFolder = folder(of: job.number)
        let file = String(format: "image-%04d.%@", number, job.settings.format.fileExtension)
        let sourcePage = source?.page(ofImage: number)
        let page = ScanPage(
            sourcePath: sourcePage?.path, sourcePage: sourcePage?.page ?? 1,
            sheetWidth: sheetArea(job.settings.source).width,
            sheetHeight: sheetArea(job.settings.source).height, region: job.settings.region,
            resolution: job.settings.resolution, colorMode: job.settings.colorMode, format: job.settings.format,
            label: .init(job: job.number, image: number, source: job.settings.source.rawValue, side: side),
            outputPath: "\(jobFolder)/\(file)")
        let made = imaging.scan(page)
        let finished = state.withLock { state -> ScanJob? in
            state.imaging = nil
            guard let index = state.jobs.firstIndex(where: { $0.uuid == uuid }) else { return nil }
            switch made {
            case .success(let image):
                state.jobs[index].lastActivitySeconds = clock()
                state.jobs[index].images.append(
                    ScanJob.Image(
                        number: number, file: file, sheet: sheet, side: side, width: image.width,
                        height: image.height, bytes: image.bytes))
                // The last image delivered ends the job, as a real scanner's: a client that asks no further
                // NextDocument (or deletes nothing) leaves the scanner idle, not busy.
                if state.jobs[index].images.count >= state.jobs[index].imagesPlanned {
                    state.jobs[index].state = .completed
                    state.jobs[index].reason = "JobCompletedSuccessfully"
                }
            case .failure(let error):
                state.jobs[index].state = .aborted
                state.jobs[index].reason = "AbortedBySystem"
                state.jobs[index].message = error.message
            }
            return state.jobs[index]
        }
        if let finished { record(finished) }
        switch made {
        case .success:
            guard let image = finished?.images.last else { return .failure(.notFound) }
            return .success((image, "\(jobFolder)/\(file)"))
        case .failure(let error):
            return .failure(.imagingFailed(error.message))
        }
    }

    /// Drops the jobs still scanning that no client fetched an image of, nor made, for ``abandonedJobTimeout``
    /// seconds before `now`: each is aborted (``abandonedReason``, with a message saying why), its record
    /// written and the drop logged, and the scanner is idle for the next client. A job whose image is being made
    /// is not dropped. Called by every new scan job and by the printer's periodic sweep; returns the jobs dropped.
    @discardableResult
    public func expireAbandonedJobs(now: Double) -> [ScanJob] {
        let timeout = abandonedJobTimeout
        let dropped = state.withLock { state -> [ScanJob] in
            var dropped: [ScanJob] = []
            for index in state.jobs.indices where state.jobs[index].state == .processing {
                let job = state.jobs[index]
                let since = job.lastActivitySeconds ?? job.createdSeconds
                guard state.imaging != job.uuid, now - since >= Double(timeout) else { continue }
                state.jobs[index].state = .aborted
                state.jobs[index].reason = Self.abandonedReason
                state.jobs[index].message =
                    "No client fetched an image of the job for \(timeout) s: the scanner dropped it "
                    + "(\(job.images.count) of \(job.imagesPlanned) images delivered)."
                state.jobs[index].lastActivitySeconds = nil
                dropped.append(state.jobs[index])
            }
            return dropped
        }
        for job in dropped {
            log("scan job \(job.number) of \(job.client ?? "a client") dropped: \(job.message ?? "")")
            record(job)
        }
        return dropped
    }

    /// Deletes a job as eSCL's `DELETE ScanJobs/{uuid}` does: one still scanning is canceled, one that ended is left
    /// as it ended (its record stays); false when there is no such job.
    public func cancel(job uuid: String) -> Bool {
        let found = state.withLock { state -> (job: ScanJob, canceled: Bool)? in
            guard let index = state.jobs.firstIndex(where: { $0.uuid == uuid }) else { return nil }
            guard state.jobs[index].state == .processing else { return (state.jobs[index], false) }
            state.jobs[index].state = .canceled
            state.jobs[index].reason = "JobCanceledByUser"
            return (state.jobs[index], true)
        }
        guard let found else { return false }
        if found.canceled { record(found.job) }
        return true
    }

    /// The scan jobs kept in memory, newest first.
    public var jobs: [ScanJob] { state.withLock { $0.jobs } }

    /// The job with `uuid`, if kept.
    public func job(uuid: String) -> ScanJob? { state.withLock { $0.jobs.first { $0.uuid == uuid } } }

    /// The job with `number`, if kept.
    public func job(number: Int) -> ScanJob? { state.withLock { $0.jobs.first { $0.number == number } } }

    // MARK: Status and faults

    /// The scanner's status now: stopped by an open cover or a jam, processing while a job scans.
    public var status: ScannerStatus {
        state.withLock { state in
            let scanning = state.jobs.contains { $0.state == .processing }
            let stopped = state.faults.contains(.coverOpen) || state.faults.contains(.feederJam)
            var feeder: String?
            if capabilities.feeder != nil {
                if state.faults.contains(.coverOpen) {
                    feeder = "ScannerAdfDoorOpen"
                } else if state.faults.contains(.feederJam) {
                    feeder = "ScannerAdfJam"
                } else if state.faults.contains(.feederEmpty) || state.feederSheets == 0 {
                    feeder = "ScannerAdfEmpty"
                } else {
                    feeder = "ScannerAdfLoaded"
                }
            }
            return ScannerStatus(
                state: stopped ? .stopped : (scanning ? .processing : .idle), feederState: feeder, jobs: state.jobs)
        }
    }

    /// The faults set now.
    public var faults: Set<ScannerFault> { state.withLock { $0.faults } }

    /// Sets or clears a fault.
    public func set(_ fault: ScannerFault, _ on: Bool) {
        state.withLock { state in
            if on { state.faults.insert(fault) } else { state.faults.remove(fault) }
        }
    }

    /// Sheets in the feeder (each scan of the feeder scans them all, as a real feeder empties).
    public var feederSheets: Int { state.withLock { $0.feederSheets } }

    /// What lies on the glass and in the feeder now; nil: the test chart.
    public var source: ScanSourceFiles? { state.withLock { $0.source } }

    /// Stores a source a client sends (the API's `PUT .../scanner/source`) in a folder of its own under
    /// `scans/sources/` and lays it on the glass. `read` fills a buffer with the next bytes and returns how many (0 at
    /// the end) or throws. The file is streamed to disk as a job's document is (``DocumentWriter``: written aside,
    /// named when whole, its format found from its bytes); one that is not a PDF, PNG or JPEG, more than
    /// ``maximumSourceBytes`` or cut short is refused, and nothing of it stays.
    public func receiveSource(
        read: (UnsafeMutableRawBufferPointer) throws -> Int
    ) -> Result<ScanSourceFiles, ScanSourceError> {
        let upload = "\(folder)/sources/\(UUID().uuidString.lowercased())"
        do {
            try FileManager.default.createDirectory(atPath: upload, withIntermediateDirectories: true)
        } catch {
            return .failure(ScanSourceError("the scan source cannot be stored: \(error.localizedDescription)"))
        }
        let writer = DocumentWriter(
            folder: upload, number: 1, declaredFormat: .octetStream, compression: "none", name: nil,
            maximumSize: Self.maximumSourceBytes)
        let stored: DocumentRecord
        do {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count = try read(buffer)
                if count == 0 { break }
                try writer.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            stored = try writer.finish()
        } catch {
            writer.discard()
            try? FileManager.default.removeItem(atPath: upload)
            if case .tooLarge = error as? DocumentError {
                return .failure(
                    ScanSourceError("a scan source holds at most \(Self.maximumSourceBytes) bytes", isTooLarge: true))
            }
            return .failure(ScanSourceError("the scan source was not received whole: \(error)"))
        }
        guard let format = stored.detectedFormat, ScanSourceFiles.formats.contains(format) else {
            try? FileManager.default.removeItem(atPath: upload)
            return .failure(
                ScanSourceError(
                    "a scan source is a PDF, PNG or JPEG file; this is \(stored.detectedFormat?.rawValue ?? "none of them")"
                ))
        }
        let path = "\(upload)/\(stored.file)"
        let source = ScanSourceFiles(path: path, files: [path], isFolder: false)
        let previous = state.withLock { state -> ScanSourceFiles? in
            defer { state.source = source }
            return state.source
        }
        removeIfReceived(previous)
        return .success(source)
    }

    /// Puts back what lay on the glass at start (``defaultSource``), removing a source a client sent.
    public func resetSource() {
        let previous = state.withLock { state -> ScanSourceFiles? in
            defer { state.source = defaultSource }
            return state.source
        }
        removeIfReceived(previous)
    }

    /// Removes a source a client sent (its folder in `scans/sources/`), never a `--scan-source`.
    private func removeIfReceived(_ source: ScanSourceFiles?) {
        guard let source, source != defaultSource, source.path.hasPrefix("\(folder)/sources/") else { return }
        try? FileManager.default.removeItem(atPath: (source.path as NSString).deletingLastPathComponent)
    }

    /// Loads `sheets` sheets into the feeder (0 empties it), at most its capacity.
    public func loadFeeder(sheets: Int) {
        state.withLock { $0.feederSheets = max(0, min(sheets, capabilities.feederCapacity)) }
    }

    // MARK: Records

    /// The folder of scan job `number`.
    public func folder(of number: Int) -> String { "\(folder)/\(number)" }

    /// The glass's or the feeder's area: what the source is laid on.
    private func sheetArea(_ source: ScanSettings.Source) -> ScannerCapabilities.Area {
        capabilities.area(of: source) ?? .init(width: 2550, height: 3300)
    }

    /// Writes the job's record (`scan.json`) atomically and publishes the change; a failure to write is not the
    /// client's, and only costs the record.
    private func record(_ job: ScanJob) {
        let jobFolder = folder(of: job.number)
        try? FileManager.default.createDirectory(atPath: jobFolder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let json = try? encoder.encode(job) {
            try? DurableFiles.replace(
                "\(jobFolder)/scan.json", with: Array(json), through: "\(jobFolder)/.scan.json.tmp")
        }
        ScanArchive.note(job, in: folder)
        var event = PrinterEvent(
            kind: .scanStateChanged, sequence: 0, time: WallClock.now(), printerName: printerName,
            jobID: job.number, state: job.state.rawValue.lowercased(), reasons: [job.reason], message: job.message)
        event.jobOwner = job.user
        events?.publish(event)
    }
}
