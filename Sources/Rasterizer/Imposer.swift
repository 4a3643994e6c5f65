import PrintModel

/// Places document pages on printed sides, one page at a time, as the job ticket says: number-up cells,
/// scaling, orientation and automatic rotation, and the sheet and side of each impression.
///
/// Pages arrive in print order (page-ranges already applied); the imposer answers where each one goes and
/// when a new side starts, so streamed raster pages can be drawn as they are decoded.
public struct Imposer: Sendable {
    /// What a page source is, which decides what print-scaling `auto` does (PWG 5100.13 section 6.2.5).
    public enum ContentKind: Sendable {
        /// A document page (PDF, raster): printed 1:1 when it has the media's size, fitted otherwise.
        case document
        /// A photo or picture: filled when printing borderless, fitted otherwise.
        case image
    }

    /// A page placed on a side.
    public struct Placement: Sendable, Equatable {
        /// 1-based document number in the job.
        public var document: Int
        /// 1-based page number in the document.
        public var page: Int
        /// Page space to sheet pixels.
        public var transform: PageTransform
        /// The part of the sheet the page may mark.
        public var clip: PixelRect
    }

    /// A printed side.
    public struct Impression: Sendable, Equatable {
        /// 1-based number of the impression (and of its PNG file).
        public var number: Int
        /// 1-based sheet number.
        public var sheet: Int
        /// True for the back of a two-sided sheet.
        public var isBack: Bool
    }

    /// The sheet, printable area and cells every side shares.
    public let geometry: SheetGeometry
    private let ticket: JobTicket
    private var nextCell: Int
    private var sideIndex = -1
    private var impressionCount = 0

    /// An imposer for `ticket`.
    public init(ticket: JobTicket, limits: RenderLimits = RenderLimits()) throws(RasterError) {
        geometry = try SheetGeometry(ticket: ticket, limits: limits)
        self.ticket = ticket
        nextCell = geometry.cells.count
    }

    /// Sides written so far.
    public var impressions: Int { impressionCount }

    /// True when the current side has free cells left.
    public var isSideOpen: Bool { nextCell < geometry.cells.count }

    /// Sheets used so far.
    public var sheets: Int { sideIndex < 0 ? 0 : (isTwoSided ? sideIndex / 2 + 1 : sideIndex + 1) }

    private var isTwoSided: Bool { ticket.sides != .oneSided }

    /// Places the next page (`width` x `height` points); `newImpression` is set when the page starts a side.
    public mutating func place(document: Int, page: Int, width: Double, height: Double, kind: ContentKind)
        -> (placement: Placement, newImpression: Impression?)
    {
        var started: Impression?
        if nextCell >= geometry.cells.count {
            sideIndex += 1
            impressionCount += 1
            nextCell = 0
            started = Impression(
                number: impressionCount, sheet: isTwoSided ? sideIndex / 2 + 1 : sideIndex + 1,
                isBack: isTwoSided && sideIndex % 2 == 1)
        }
        let cell = geometry.cells[nextCell]
        nextCell += 1
        let placement = Placement(
            document: document, page: page,
            transform: transform(width: width, height: height, kind: kind, cell: cell), clip: cell)
        return (placement, started)
    }

    /// Ends a document: the next page starts a new side and, when `newSheet`, a new sheet (leaving the back of a
    /// two-sided sheet blank).
    public mutating func endDocument(newSheet: Bool) {
        nextCell = geometry.cells.count
        if newSheet, isTwoSided, sideIndex >= 0, sideIndex % 2 == 0 { sideIndex += 1 }
    }

    /// Where a page of `width` x `height` points goes in `cell`.
    func transform(width: Double, height: Double, kind: ContentKind, cell: PixelRect) -> PageTransform {
        let base = Double(geometry.resolution) / 72
        let cellIsLandscape = cell.width > cell.height
        let rotation: Int
        if let orientation = ticket.orientation {
            rotation = orientation.rotation
        } else {
            let pageIsLandscape = width > height
            rotation = pageIsLandscape != cellIsLandscape && width != height ? 270 : 0
        }
        let turned = rotation % 180 != 0
        let placedWidth = (turned ? height : width) * base
        let placedHeight = (turned ? width : height) * base
        let fit = min(Double(cell.width) / placedWidth, Double(cell.height) / placedHeight)
        let fill = max(Double(cell.width) / placedWidth, Double(cell.height) / placedHeight)
        let oneUp = geometry.cells.count == 1
        var factor: Double
        var centerOnSheet = false
        switch ticket.scaling {
        case .none:
            factor = 1
            centerOnSheet = oneUp
        case .fit: factor = fit
        case .fill: factor = fill
        case .autoFit: factor = min(1, fit)
        case .auto:
            if !oneUp {
                factor = fit
            } else if kind == .image {
                factor =
                    ticket.topMargin + ticket.bottomMargin + ticket.leftMargin + ticket.rightMargin == 0 ? fill : fit
            } else if matchesSheet(placedWidth, placedHeight) {
                factor = 1
                centerOnSheet = true
            } else {
                factor = min(1, fit)
            }
        }
        let centerX = centerOnSheet ? Double(geometry.width) / 2 : Double(cell.x) + Double(cell.width) / 2
        let centerY = centerOnSheet ? Double(geometry.height) / 2 : Double(cell.y) + Double(cell.height) / 2
        return PageTransform(
            pageWidth: width, pageHeight: height, scale: base * factor, rotation: rotation, centerX: centerX,
            centerY: centerY)
    }

    /// True when a placed page of `width` x `height` pixels has the sheet's size, within 3 %.
    private func matchesSheet(_ width: Double, _ height: Double) -> Bool {
        abs(width - Double(geometry.width)) <= 0.03 * Double(geometry.width)
            && abs(height - Double(geometry.height)) <= 0.03 * Double(geometry.height)
    }
}
