import Foundation
import Rasterizer
import Synchronization

/// Writes the worker's JSON lines to stdout, one whole line per write, flushed at once.
final class WorkerOutput: Sendable {
    private let lock = Mutex(())

    private func write(_ object: [String: Any]) {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        lock.withLock { _ in
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }

    /// One line for a written impression.
    func impression(_ impression: RenderedImpression) {
        write([
            "type": "impression", "number": impression.number, "file": impression.file, "sheet": impression.sheet,
            "side": impression.side,
            "pages": impression.pages.map { ["document": $0.document, "page": $0.page] },
            "width": impression.width, "height": impression.height, "dpi": impression.dpi, "color": impression.color,
        ])
    }

    /// The final line of a job that rendered.
    func status(summary: RenderSummary) {
        write([
            "type": "status", "protocol": 1, "status": "ok", "impressions": summary.impressions,
            "sheets": summary.sheets, "pages": summary.pages, "copies": summary.copies,
            "job-impressions": summary.jobImpressions, "job-media-sheets": summary.jobMediaSheets,
            "job-pages": summary.jobPages,
            "documents": zip(summary.documentPages, summary.documentFormats).map { ["pages": $0, "format": $1] },
        ])
    }

    /// The final line of a job that failed.
    func status(error reason: String, message: String) {
        write(["type": "status", "protocol": 1, "status": "error", "reason": reason, "message": message])
    }
}
