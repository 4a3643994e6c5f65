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
            "blank": impression.facts.blank,
            "ink-coverage": Dictionary(uniqueKeysWithValues: impression.facts.inkCoverage.channels.map { ($0, $1) }),
            "has-color": impression.facts.hasColor,
            "outside-printable-area": impression.facts.outsidePrintableArea,
            "text-source": impression.textSource.rawValue,
        ])
    }

    /// One line for a problem found in a document that still printed.
    func warning(_ warning: RenderWarning) {
        var line: [String: Any] = [
            "type": "warning", "kind": warning.kind.rawValue, "document": warning.document, "message": warning.message,
        ]
        if let page = warning.page { line["page"] = page }
        write(line)
    }

    /// One line for a side whose text was recognized (or could not be).
    func text(_ outcome: SideTextRecognition.Outcome) {
        var line: [String: Any] = ["type": "text", "number": outcome.number]
        if let file = outcome.textFile {
            line["file"] = file
            line["characters"] = outcome.characters
        }
        if let error = outcome.error { line["error"] = error }
        write(line)
    }

    /// The final line of a text recognition request that ran.
    func status(recognizedSides sides: Int) {
        write(["type": "status", "protocol": 1, "status": "ok", "sides": sides])
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
