import Foundation
import IPP
import PrintModel
import Synchronization

/// The printer's side of the render worker (docs/render-protocol.md): starts `vprinter-render` for a job with
/// memory and CPU limits and a wall-clock deadline, feeds it the request, and turns its output lines into
/// impressions and an outcome; it makes the images of scan jobs the same way (``scan(_:)``). A worker that crashes
/// or overruns costs its job, never the printer.
public struct RenderWorkerClient: JobRenderer, ScanImaging {
    /// Limits the worker runs under.
    public struct Limits: Sendable {
        /// The worker's address-space limit in bytes (RLIMIT_AS).
        public var addressSpace = 8 << 30
        /// CPU seconds (RLIMIT_CPU).
        public var cpuSeconds = 600
        /// Wall-clock seconds before the worker is killed.
        public var deadline: Double = 900
        /// Threads rendering pages of one document in parallel.
        public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// Most memory the PostScript interpreter may allocate, in bytes (Ghostscript -K).
        public var interpreterMemory = 1 << 30
        /// Most pages rendered for one job, all its documents together (`--max-pages`).
        public var pages = RenderLimits.defaultMaximumPages
        /// Workers kept running between jobs for the next (`RenderWorkerPool`); 0 starts one per job.
        public var keptWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount)

        /// Seconds the worker gives the PostScript interpreter: the deadline less a margin, so that the worker
        /// still says which limit was hit before the deadline kills it.
        public var interpreterSeconds: Int { max(1, Int(deadline) - Self.interpreterMargin) }
        /// The margin, in seconds.
        static let interpreterMargin = 3

        public init() {}
    }

    /// The worker executable.
    public let executable: String
    /// The highest resolution documents are rendered at (`--render-dpi`).
    public let renderDPI: Int
    /// The highest resolution raster input (PWG, Apple Raster) renders at: its own resolution up to this.
    public let rasterDPI: Int
    /// Raster input renders at its own resolution up to this, unless `--render-dpi` caps it lower.
    public static let maximumRasterDPI = 600
    public let limits: Limits
    /// Whether the text of raster sides is read by OCR on request (`--no-ocr` turns it off).
    public let ocr: Bool
    /// The workers kept between jobs.
    let pool: RenderWorkerPool
    /// How often cancellation is checked while the worker runs, in seconds.
    static let cancelPollInterval = 0.2

    /// - Parameters:
    ///   - renderDPI: the resolution documents render at (at most; `--render-dpi`, 150 by default).
    ///   - rasterDPI: the cap for raster input, which otherwise keeps its own resolution.
    ///   - ocr: read the text of raster sides by OCR when asked for it.
    public init(
        executable: String, renderDPI: Int = 150, rasterDPI: Int = RenderWorkerClient.maximumRasterDPI,
        limits: Limits = Limits(), ocr: Bool = true
    ) {
        self.ocr = ocr
        self.rasterDPI = rasterDPI
        self.executable = executable
        self.renderDPI = renderDPI
        self.limits = limits
        pool = RenderWorkerPool(executable: executable, maximumIdle: limits.keptWorkers)
    }

    /// The worker named by `VPRINTER_RENDER`, or beside the running binary, or where a package installs it
    /// (`../libexec/vprinter/` from the binary's folder: scripts/package).
    public static func locateWorker() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["VPRINTER_RENDER"], FileManager.default.isExecutableFile(atPath: path) { return path }
        var candidates: [URL] = []
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(binary.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        // The executable itself, not argv[0]: started through PATH, argv[0] is only "vprinter".
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(
                executable.deletingLastPathComponent().appendingPathComponent("../libexec/vprinter").standardized)
        }
        for folder in candidates {
            let path = folder.appendingPathComponent("vprinter-render").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    public func render(
        _ job: RenderJob, password: String?, onImpression: @Sendable (PrintedSide) -> Void,
        onWarning: @Sendable (JobWarning) -> Void, isCanceled: @escaping @Sendable () -> Bool
    ) -> RenderOutcome {
        var documentLimits = RenderLimits()
        documentLimits.maximumInterpreterSeconds = limits.interpreterSeconds
        documentLimits.maximumInterpreterMemory = limits.interpreterMemory
        documentLimits.maximumPages = limits.pages
        let request = RenderRequest.render(
            folder: job.folder,
            documents: job.documents.map { document in
                RenderRequest.Document(
                    path: document.file.hasPrefix("/") ? document.file : "\(job.folder)/\(document.file)",
                    format: document.effectiveFormat, number: document.number)
            },
            ticket: RenderTicket.make(for: job, password: password, renderDPI: renderDPI, rasterDPI: rasterDPI),
            limits: documentLimits, threads: limits.threads, resourceLimits: resourceLimits)
        let run = runWorker(request, folder: job.folder, isCanceled: isCanceled) { message in
            switch message {
            case .impression(let side): onImpression(side)
            case .warning(let warning): onWarning(warning)
            case .text, .scanned, .status: break
            }
        }
        switch run {
        case .canceled:
            return .canceled
        case .failed(let reason, let message):
            return .failed(reason: reason, message: message)
        case .finished(let status):
            if status.status == .ok {
                return .completed(pages: (status.documents ?? []).map(\.pages))
            }
            return .failed(
                reason: status.reason ?? "document-format-error",
                message: status.message ?? "The document could not be rendered.")
        }
    }

    public func recognizeText(folder: String, sides: [RenderRequest.Side]) -> TextRecognitionOutcome {
        guard ocr else { return .off }
        guard !sides.isEmpty else { return .recognized([:]) }
        let request = RenderRequest.recognizeText(
            folder: folder, sides: sides,
            threads: limits.threads, resourceLimits: resourceLimits)
        let results = Mutex<[Int: Result<String, TextRecognitionError>]>([:])
        let run = runWorker(request, folder: folder, isCanceled: { false }) { message in
            guard case .text(let text) = message else { return }
            let result: Result<String, TextRecognitionError> =
                if let file = text.file {
                    .success(file)
                } else {
                    .failure(TextRecognitionError(text.error ?? "the side could not be read"))
                }
            results.withLock { $0[text.number] = result }
        }
        switch run {
        case .finished(let status) where status.status == .ok:
            return .recognized(results.withLock { $0 })
        case .finished(let status):
            return .failed(status.message ?? "OCR failed")
        case .failed(_, let message):
            return .failed(message)
        case .canceled:
            return .failed("OCR was canceled")
        }
    }

    /// Makes one scanned image in a worker (operation `scan-page`); a worker that fails or ends without the image
    /// gives its message, and the partial file it may have left is removed.
    public func scan(_ page: ScanPage) -> Result<ScannedImage, ScanImagingError> {
        let request = RenderRequest.scanPage(page, resourceLimits: resourceLimits)
        var scanned: ScannedImage?
        let run = runWorker(request, folder: request.folder, isCanceled: { false }) { message in
            if case .scanned(let image) = message { scanned = image }
        }
        switch run {
        case .finished(let status) where status.status == .ok:
            if let scanned { return .success(scanned) }
            return .failure(ScanImagingError("The render worker ended without the scanned image."))
        case .finished(let status):
            return .failure(ScanImagingError(status.message ?? "The scanned image could not be made."))
        case .failed(_, let message):
            unlink(page.outputPath + ".part")
            return .failure(ScanImagingError(message))
        case .canceled:
            unlink(page.outputPath + ".part")
            return .failure(ScanImagingError("The scan was canceled."))
        }
    }

    /// The memory and CPU limits the worker sets on itself.
    private var resourceLimits: RenderRequest.ResourceLimits {
        RenderRequest.ResourceLimits(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
    }

    /// How a worker run ended.
    enum WorkerRun {
        /// The worker wrote its status line.
        case finished(status: WorkerStatus)
        /// Stopped because the job was canceled.
        case canceled
        /// It could not start, crashed, overran or ended without a status line.
        case failed(reason: String, message: String)
    }

    /// How a job's run on a worker stands, decided under one lock, so that a worker that finished its job is never
    /// stopped by the watchdog afterwards (it may already serve the next job).
    private enum RunState: Equatable {
        case running
        case finished
        case canceled
        case overran
    }

    /// Hands `request` to a worker (a kept one, or a new one), hands every message but the status to `onMessage`
    /// and waits for the status line, stopping the worker when `isCanceled` says so or when it overruns the
    /// deadline; a worker that ended its job with a status line is kept for the next, any other is retired and
    /// the partial pages it left in the job's `folder` are removed.
    func runWorker(
        _ request: RenderRequest, folder: String, isCanceled: @escaping @Sendable () -> Bool,
        onMessage: (WorkerMessage) -> Void
    ) -> WorkerRun {
        guard var requestLine = try? JSONEncoder().encode(request) else {
            return .failed(reason: "aborted-by-system", message: "The render request could not be encoded.")
        }
        requestLine.append(0x0A)
        let worker: RenderWorkerPool.Worker
        do {
            worker = try pool.send(requestLine)
        } catch {
            return .failed(
                reason: "aborted-by-system", message: "The render worker \(executable) cannot start: \(error).")
        }
        let run = run(on: worker, folder: folder, isCanceled: isCanceled, onMessage: onMessage)
        // A kept worker that ended before it said a word of this job (killed while idle, as the kernel's
        // out-of-memory killer picks the largest idle process) took the request with it: a fresh worker takes it.
        if case .failed = run.outcome, !run.spoke, worker.requestsServed > 1 {
            do {
                let fresh = try pool.send(requestLine)
                return self.run(on: fresh, folder: folder, isCanceled: isCanceled, onMessage: onMessage).outcome
            } catch {
                return run.outcome
            }
        }
        return run.outcome
    }

    /// One job's run on a worker that took its request: the run, and whether the worker wrote any line of it.
    private func run(
        on worker: RenderWorkerPool.Worker, folder: String, isCanceled: @escaping @Sendable () -> Bool,
        onMessage: (WorkerMessage) -> Void
    ) -> (outcome: WorkerRun, spoke: Bool) {
        let process = worker.process
        let state = Mutex(RunState.running)
        let deadline = Date().addingTimeInterval(limits.deadline)
        /// Stops the worker when the job is canceled or overran; true while it may go on.
        let watch: @Sendable () -> Bool = {
            state.withLock { state in
                guard state == .running else { return false }
                if isCanceled() {
                    state = .canceled
                    kill(-process.processIdentifier, SIGTERM)
                    kill(process.processIdentifier, SIGTERM)
                } else if Date() > deadline {
                    state = .overran
                    // The worker leads its own process group: its Ghostscript child goes with it.
                    kill(-process.processIdentifier, SIGKILL)
                    kill(process.processIdentifier, SIGKILL)
                }
                return state == .running
            }
        }
        // Once here, before the watchdog thread starts: a kept worker may finish a small job before the thread runs,
        // and a job canceled already is stopped, not printed.
        if watch() {
            Thread {
                while watch() { Thread.sleep(forTimeInterval: Self.cancelPollInterval) }
            }.start()
        }

        var status: WorkerStatus?
        var spoke = false
        reading: while true {
            let chunk = worker.output.availableData
            if chunk.isEmpty { break }
            spoke = true
            worker.buffer.append(chunk)
            while let newline = worker.buffer.firstIndex(of: 0x0A) {
                let line = worker.buffer[worker.buffer.startIndex..<newline]
                worker.buffer.removeSubrange(worker.buffer.startIndex...newline)
                // A line that is not a message of this protocol is skipped; a run without a status line fails.
                guard let message = try? WorkerMessage.parse(line) else { continue }
                if case .status(let last) = message {
                    status = last
                    break reading
                }
                onMessage(message)
            }
        }
        let outcome = state.withLock { state in
            if state == .running { state = .finished }
            return state
        }
        if outcome == .finished, let status {
            pool.giveBack(worker)
            return (.finished(status: status), spoke)
        }
        pool.retire(worker)
        removePartialPages(in: folder)
        switch outcome {
        case .canceled:
            return (.canceled, spoke)
        case .overran:
            return (
                .failed(
                    reason: "document-unprintable-error",
                    message: "Rendering took longer than \(Int(limits.deadline)) seconds and was stopped."), spoke
            )
        case .running, .finished:
            break
        }
        if process.terminationReason == .uncaughtSignal {
            let signal = process.terminationStatus
            let what =
                signal == SIGXCPU
                ? "its CPU time limit" : signal == SIGKILL ? "a kill (memory limit?)" : "signal \(signal)"
            return (
                .failed(
                    reason: "document-unprintable-error",
                    message: "The render worker stopped on \(what) while rendering."), spoke
            )
        }
        return (
            .failed(
                reason: "document-unprintable-error",
                message: "The render worker exited with status \(process.terminationStatus) without a result."), spoke
        )
    }

    /// Removes the `page-NNNN.png.part` files a worker that was stopped or crashed left (docs/render-protocol.md).
    private func removePartialPages(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix("page-") && name.hasSuffix(".part") {
            unlink("\(folder)/\(name)")
        }
    }
}
