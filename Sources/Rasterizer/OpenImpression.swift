import ImageCheck
import PrintModel

/// A side being drawn: its canvas, the pages placed on it so far and their text.
final class OpenImpression {
    let impression: Imposer.Impression
    let canvas: SheetCanvas
    let geometry: SheetGeometry
    var pages: [PlacedPage] = []
    /// The text of each placed page; nil once a page without a text layer (raster, image) is on the side, whose
    /// text then comes from OCR on request.
    private var texts: [String]? = []

    init(_ impression: Imposer.Impression) throws(RasterError) {
        self.impression = impression
        geometry = impression.geometry
        canvas = try SheetCanvas(width: geometry.width, height: geometry.height)
    }

    /// Draws a page placed on this side with `body` (given a Cairo context in page space) and records it with
    /// its `text`, nil for a page without a text layer.
    func draw(
        _ placement: Imposer.Placement, text: String?, _ body: (OpaquePointer) throws(RasterError) -> Void
    ) throws(RasterError) {
        try canvas.draw(transform: placement.transform, clip: geometry.reach(of: placement.clip), body)
        pages.append(.init(document: placement.document, page: placement.page))
        if let text {
            texts?.append(text)
        } else {
            texts = nil
        }
    }

    /// Writes the PNG file with its margins cut (and the text file when every page had a text layer) and
    /// describes the side.
    func write(folder: String, ticket: JobTicket) throws(RasterError) -> PrintedSide {
        if let texts {
            try TextFile.write(
                Self.sideText(texts), to: folder + "/" + PrintedSide.textFileName(impression.number))
        }
        let file = PrintedSide.fileName(impression.number)
        var tally = InkTally(color: ticket.colorMode == .color)
        let outside = try canvas.writePNG(
            path: folder + "/" + file, color: ticket.colorMode, resolution: geometry.resolution,
            printable: geometry.printable, tally: &tally)
        return PrintedSide(
            number: impression.number, file: file, sheet: impression.sheet, side: impression.isBack ? .back : .front,
            width: canvas.width, height: canvas.height, dpi: geometry.resolution, color: ticket.colorMode == .color,
            pages: pages, facts: tally.facts(outsidePrintableArea: outside),
            textSource: texts == nil ? .ocr : .pdf)
    }

    /// The text of a side: its pages' texts in presentation order, each ending with a newline, separated by a form
    /// feed as pdftotext separates pages.
    static func sideText(_ texts: [String]) -> String {
        texts.map { $0.isEmpty || $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: "\u{0C}")
    }
}
