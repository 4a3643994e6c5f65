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
        /// The sheet, printable area and cells of this side (page overrides may give sides other media).
        public var geometry: SheetGeometry
    }

    /// The sheet, printable area and cells of the side being filled (the job's until a page override says other).
    public private(set) var geometry: SheetGeometry
    private let ticket: JobTicket
    /// The ticket of the side being filled: the job's, or a page override's media, sides and orientation.
    private var sideTicket: JobTicket
    /// The job's own geometry.
    private let jobGeometry: SheetGeometry
    /// The geometry of each override's media, made (and checked against the limits) before any page is placed.
    private let overrideGeometries: [PageOverride.Media: SheetGeometry]
    private var nextCell: Int
    private var impressionCount = 0
    private var sheetCount = 0
    /// True when the last side started is the front of a two-sided sheet whose back is still free.
    private var backIsFree = false

    /// An imposer for `ticket`.
    public init(ticket: JobTicket, limits: RenderLimits = RenderLimits()) throws(RasterError) {
        geometry = try SheetGeometry(ticket: ticket, limits: limits)
        jobGeometry = geometry
        self.ticket = ticket
        sideTicket = ticket
        var geometries: [PageOverride.Media: SheetGeometry] = [:]
        for override in ticket.overrides {
            guard let media = override.media, geometries[media] == nil else { continue }
            var changed = ticket
            changed.overrides = [PageOverride(media: media)]
            geometries[media] = try SheetGeometry(ticket: changed.forPage(document: 1, page: 1), limits: limits)
        }
        overrideGeometries = geometries
        nextCell = geometry.cells.count
    }

    /// Sides written so far.
    public var impressions: Int { impressionCount }

    /// True when the current side has free cells left.
    public var isSideOpen: Bool { nextCell < geometry.cells.count }

    /// Sheets used so far.
    public var sheets: Int { sheetCount }

    /// Places the next page (`width` x `height` points); `newImpression` is set when the page starts a side.
    ///
    /// A page whose override changes media or sides starts a new sheet, as does the first page after it;
    /// one that changes only orientation shares the side.
    public mutating func place(document: Int, page: Int, width: Double, height: Double, kind: ContentKind)
        -> (placement: Placement, newImpression: Impression?)
    {
        let pageTicket = ticket.overrides.isEmpty ? ticket : ticket.forPage(document: document, page: page)
        if !Self.sameSheet(pageTicket, sideTicket) {
            nextCell = geometry.cells.count
            backIsFree = false
            geometry = overrideGeometries[Self.media(of: pageTicket)] ?? jobGeometry
        }
        sideTicket = pageTicket
        var started: Impression?
        if nextCell >= geometry.cells.count {
            impressionCount += 1
            nextCell = 0
            let isBack = backIsFree
            if isBack {
                backIsFree = false
            } else {
                sheetCount += 1
                backIsFree = pageTicket.sides != .oneSided
            }
            started = Impression(number: impressionCount, sheet: sheetCount, isBack: isBack, geometry: geometry)
        }
        let cell = geometry.cells[nextCell]
        nextCell += 1
        let placement = Placement(
            document: document, page: page,
            transform: transform(
                width: width, height: height, kind: kind, cell: cell, orientation: pageTicket.orientation),
            clip: cell)
        return (placement, started)
    }

    /// Ends a document: the next page starts a new side and, when `newSheet`, a new sheet (leaving the back of a
    /// two-sided sheet blank).
    public mutating func endDocument(newSheet: Bool) {
        nextCell = geometry.cells.count
        if newSheet { backIsFree = false }
    }

    /// The media and margins of a page ticket.
    private static func media(of ticket: JobTicket) -> PageOverride.Media {
        PageOverride.Media(
            width: ticket.mediaWidth, height: ticket.mediaHeight, topMargin: ticket.topMargin,
            bottomMargin: ticket.bottomMargin, leftMargin: ticket.leftMargin, rightMargin: ticket.rightMargin)
    }

    /// True when pages of the two tickets may share a sheet: the same media, margins and sides.
    private static func sameSheet(_ a: JobTicket, _ b: JobTicket) -> Bool {
        a.mediaWidth == b.mediaWidth && a.mediaHeight == b.mediaHeight && a.topMargin == b.topMargin
            && a.bottomMargin == b.bottomMargin && a.leftMargin == b.leftMargin && a.rightMargin == b.rightMargin
            && a.sides == b.sides
    }

    /// Where a page of `width` x `height` points goes in `cell`.
    func transform(width: Double, height: Double, kind: ContentKind, cell: PixelRect, orientation: Orientation?)
        -> PageTransform
    {
        let base = Double(geometry.resolution) / 72
        let cellIsLandscape = cell.width > cell.height
        let rotation: Int
        if let orientation {
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
                let margins = sideTicket.topMargin + sideTicket.bottomMargin + sideTicket.leftMargin
                factor = margins + sideTicket.rightMargin == 0 ? fill : fit
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
