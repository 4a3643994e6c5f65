import Foundation
import IPP

/// The simulated device printing a rendered job sheet by sheet: paper from a tray, supplies per impression,
/// sheets into the bin, pages-per-minute pacing with `--speed realistic`, page-triggered faults, and waiting in
/// processing-stopped while the printer is stopped (an `-error` reason, an empty tray).
extension Printer {
    /// How often a stopped job checks whether it may go on, in seconds.
    static let deviceWaitInterval = 0.1

    /// Prints a rendered job; false when the job ended meanwhile (canceled, aborted by a fault).
    func printSheets(jobID: Int) -> Bool {
        guard let job = job(jobID) else { return false }
        let sheets = job.impressions.map(\.sheet).max() ?? 0
        guard sheets > 0 else { return true }
        let bySheet = Dictionary(grouping: job.impressions, by: \.sheet)
        let source =
            job.template("media-col")?.member("media-source")?.value?.stringValue
            ?? cache["media-source-default"]?.value?.stringValue
        let color = job.impressions.contains { $0.color }
        let perMinute = (color ? cache["pages-per-minute-color"] : nil) ?? cache["pages-per-minute"]
        let secondsPerImpression: Double =
            (status.withLock { $0.speedOverride } ?? configuration.speed) == .realistic
            ? 60 / Double(max(1, perMinute?.value?.integerValue ?? 20)) : 0
        var number = 0
        for _ in 0..<max(1, job.copies) {
            for sheet in 1...sheets {
                guard waitForDevice(jobID: jobID, source: source) else { return false }
                let sides = bySheet[sheet] ?? []
                updatePrinter { state in
                    state.device.takeSheet(source: source)
                    for side in sides { state.device.useImpression(color: side.color) }
                    state.device.deliverSheet()
                }
                for _ in sides {
                    number += 1
                    for fault in faults.page(number) { fire(fault.id, jobID: jobID) }
                }
                _ = updateJob(jobID) { job in
                    job.impressionsCompleted += sides.count
                    job.sheetsCompleted += 1
                }
                if secondsPerImpression > 0 {
                    Thread.sleep(forTimeInterval: secondsPerImpression * Double(max(1, sides.count)))
                }
                if self.job(jobID)?.state.isTerminal ?? true { return false }
            }
        }
        return true
    }

    /// Waits until the printer can print the next sheet: no `-error` reason and paper in the tray. Meanwhile the
    /// job is processing-stopped (printer-stopped) and an empty tray shows media-empty-error. False when the job
    /// ended while waiting.
    func waitForDevice(jobID: Int, source: String?) -> Bool {
        var stopped = false
        while true {
            guard let job = job(jobID), !job.state.isTerminal else { return false }
            let blocked: Bool = status.withLock { state in
                let empty = state.device.isEmpty(source: source)
                let tray = empty ? state.device.trayIndex(for: source).map { state.device.trays[$0].name } : nil
                if state.device.waitingForMedia != tray {
                    state.device.waitingForMedia = tray
                    if state.noteStateChange(at: WallClock.now()) {
                        publishPrinterState(state.lastState, reasons: state.reasons, accepting: state.acceptsJobs)
                    }
                }
                return state.hasErrorReason
            }
            if !blocked {
                if stopped || job.state == .processingStopped && job.reasons.contains("printer-stopped") {
                    _ = updateJob(jobID) { _ = try? $0.apply(.printerResumed, at: WallClock.now()) }
                }
                return true
            }
            if !stopped {
                stopped = true
                _ = updateJob(jobID) { _ = try? $0.apply(.printerStopped, at: WallClock.now()) }
            }
            Thread.sleep(forTimeInterval: Self.deviceWaitInterval)
        }
    }
}
