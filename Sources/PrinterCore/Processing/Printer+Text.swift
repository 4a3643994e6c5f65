import Foundation
import PrintModel

extension Printer {
    /// OCR runs at once in the process, at the most: more requests for the text of raster sides wait their turn,
    /// so that many asked at once cannot start a worker each.
    static let maximumConcurrentOCR = 2
    private static let ocrSlots = DispatchSemaphore(value: maximumConcurrentOCR)

    /// The text of every printed side of a job, in side order; nil when there is no such job. Sides of PDF pages
    /// have their text from the render; the others (raster and image pages, or a text file gone missing) are read
    /// by OCR through the render worker on this first request, and the text kept as `page-NNNN.txt`.
    public func sideTexts(jobID: Int) -> [SideText]? {
        guard let job = job(jobID) else { return nil }
        let folder = recorder.folder(of: jobID)
        var sides = job.impressions.map { readSideText($0, job: job, folder: folder) }
        let missing = sides.indices.filter { sides[$0].text == nil }
        guard !missing.isEmpty else { return sides }
        guard let renderer else {
            for index in missing { sides[index].message = "the printer runs without rendering (--no-render)" }
            return sides
        }
        var failure: String?
        textStore.once(jobID: jobID) {
            let requests = missing.map { index in
                let impression = job.impressions[index]
                return RenderRequest.Side(number: impression.number, file: impression.file, dpi: impression.dpi)
            }
            Self.ocrSlots.wait()
            defer { Self.ocrSlots.signal() }
            switch renderer.recognizeText(folder: folder, sides: requests) {
            case .off:
                failure = "OCR is turned off (--no-ocr)"
            case .failed(let message):
                failure = "OCR failed: \(message)"
                log("job \(jobID): OCR failed: \(message)")
            case .recognized(let results):
                for (number, result) in results {
                    if case .failure(let error) = result { log("job \(jobID) side \(number): OCR: \(error.message)") }
                }
            }
        }
        for index in missing {
            let side = readSideText(job.impressions[index], job: job, folder: folder)
            sides[index] = side
            if side.text == nil {
                sides[index].source = .ocr
                sides[index].message = failure ?? "the side's text could not be read (see the printer's log)"
            }
        }
        return sides
    }

    /// A side's text from the store or its text file; nil text when neither has it yet.
    private func readSideText(_ impression: PrintedSide, job: Job, folder: String) -> SideText {
        let textFile = PrintedSide.textFileName(forImage: impression.file)
        let source = impression.textSource ?? (Self.isFromPDF(impression, job: job) ? .pdf : .ocr)
        if let text = textStore.text(jobID: job.id, number: impression.number) {
            return SideText(
                number: impression.number, file: impression.file, textFile: textFile, source: source, text: text,
                message: nil)
        }
        if let textFile, let data = FileManager.default.contents(atPath: "\(folder)/\(textFile)") {
            let text = String(decoding: data, as: UTF8.self)
            textStore.store(text, jobID: job.id, number: impression.number)
            return SideText(
                number: impression.number, file: impression.file, textFile: textFile, source: source, text: text,
                message: nil)
        }
        return SideText(
            number: impression.number, file: impression.file, textFile: nil, source: source, text: nil, message: nil)
    }

    /// True when every page on the side comes from a PDF document (records of versions without `text-source`).
    private static func isFromPDF(_ impression: PrintedSide, job: Job) -> Bool {
        guard let pages = impression.pages, !pages.isEmpty else { return false }
        return pages.allSatisfy { page in
            job.documents.first { $0.number == page.document }?.detectedFormat == "application/pdf"
        }
    }
}
