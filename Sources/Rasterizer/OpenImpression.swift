/// A side being drawn: its canvas and the pages placed on it so far.
final class OpenImpression {
    let impression: Imposer.Impression
    let canvas: SheetCanvas
    let resolution: Int
    var pages: [RenderedImpression.PlacedPage] = []

    init(_ impression: Imposer.Impression, geometry: SheetGeometry) throws(RasterError) {
        self.impression = impression
        canvas = try SheetCanvas(width: geometry.width, height: geometry.height)
        resolution = geometry.resolution
    }

    /// Writes the PNG file and describes it.
    func write(folder: String, ticket: JobTicket) throws(RasterError) -> RenderedImpression {
        let file = RenderedImpression.fileName(impression.number)
        try canvas.writePNG(path: folder + "/" + file, color: ticket.colorMode, resolution: resolution)
        return RenderedImpression(
            number: impression.number, file: file, sheet: impression.sheet, side: impression.isBack ? "back" : "front",
            pages: pages, width: canvas.width, height: canvas.height, dpi: resolution, color: ticket.colorMode == .color
        )
    }
}
