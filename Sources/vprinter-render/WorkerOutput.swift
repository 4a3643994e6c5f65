import Foundation
import PrintModel
import Rasterizer
import Synchronization

/// Writes the worker's messages to stdout (docs/render-protocol.md), one whole JSON line per write, flushed at once.
final class WorkerOutput: Sendable {
    private let lock = Mutex(())

    /// Writes one message; a message that cannot be encoded is dropped (the status line then tells the printer).
    func send(_ message: WorkerMessage) {
        guard let line = try? message.line() else { return }
        lock.withLock { _ in
            FileHandle.standardOutput.write(Data(line + [0x0A]))
        }
    }

    /// The final line of a job that rendered.
    func status(summary: RenderSummary) {
        send(
            .status(
                WorkerStatus(
                    status: .ok, impressions: summary.impressions, sheets: summary.sheets, pages: summary.pages,
                    copies: summary.copies, jobImpressions: summary.jobImpressions,
                    jobMediaSheets: summary.jobMediaSheets, jobPages: summary.jobPages,
                    documents: zip(summary.documentPages, summary.documentFormats).map {
                        WorkerStatus.Document(pages: $0, format: $1)
                    })))
    }

    /// The final line of a run that failed.
    func status(error reason: String, message: String) {
        send(.status(.error(reason: reason, message: message)))
    }
}
