import PrintModel

/// The pixel geometry of one printed side: the sheet, its printable area and the number-up cells.
///
/// Cells come in the order of presentation-direction-number-up (PWG 5100.3 section 3.13.6). Two and six pages
/// go along the sheet's long edge (1 x 2 and 2 x 3 on a portrait sheet), the others in square grids.
public struct SheetGeometry: Sendable, Equatable {
    /// Sheet width in pixels.
    public var width: Int
    /// Sheet height in pixels.
    public var height: Int
    /// Resolution in dots per inch.
    public var resolution: Int
    /// The area inside the margins.
    public var printable: PixelRect
    /// The number-up cells inside the printable area, in presentation order.
    public var cells: [PixelRect]

    /// Pixels for a length in hundredths of a millimetre.
    static func pixels(_ hundredthsOfMillimetre: Int, resolution: Int) -> Int {
        (hundredthsOfMillimetre * resolution + 1_270) / 2_540
    }

    /// The highest resolution, at most `resolution`, at which every sheet of `sizes` (width and height in
    /// hundredths of a millimetre) has at most `maximumPixels` pixels; 1 at the least. A large sheet (A1 on a
    /// wide-format printer, a long roll) then prints at a lower resolution instead of failing the job.
    public static func resolution(
        _ resolution: Int, fitting maximumPixels: Int, sizes: [(width: Int, height: Int)]
    ) -> Int {
        func fits(_ dpi: Int) -> Bool {
            sizes.allSatisfy { size in
                let (width, height) = (pixels(size.width, resolution: dpi), pixels(size.height, resolution: dpi))
                return Double(max(1, width)) * Double(max(1, height)) <= Double(maximumPixels)
            }
        }
        guard !fits(resolution), let largest = sizes.map({ Double($0.width) * Double($0.height) }).max(),
            largest > 0
        else { return resolution }
        // The area's square root gives the answer within a dot or two; rounding decides the rest.
        var dpi = min(resolution, max(1, Int((Double(maximumPixels) / largest).squareRoot() * 2_540)))
        while dpi > 1 && !fits(dpi) { dpi -= 1 }
        return dpi
    }

    /// The geometry `ticket` asks for.
    init(ticket: JobTicket, limits: RenderLimits) throws(RasterError) {
        try ticket.validate(limits: limits)
        let dpi = ticket.resolution
        resolution = dpi
        width = max(1, Self.pixels(ticket.mediaWidth, resolution: dpi))
        height = max(1, Self.pixels(ticket.mediaHeight, resolution: dpi))
        try RenderLimits.check("maximum sheet pixels", width * height, limits.maximumSheetPixels)
        let left = Self.pixels(ticket.leftMargin, resolution: dpi)
        let right = Self.pixels(ticket.rightMargin, resolution: dpi)
        let top = Self.pixels(ticket.topMargin, resolution: dpi)
        let bottom = Self.pixels(ticket.bottomMargin, resolution: dpi)
        printable = PixelRect(
            x: left, y: top, width: max(1, width - left - right), height: max(1, height - top - bottom))
        cells = Self.cells(in: printable, count: ticket.numberUp, direction: ticket.presentationDirection)
    }

    /// Columns and rows for `count` cells in `area`.
    static func grid(count: Int, in area: PixelRect) -> (columns: Int, rows: Int) {
        let (short, long): (Int, Int)
        switch count {
        case 2: (short, long) = (1, 2)
        case 6: (short, long) = (2, 3)
        case 4: (short, long) = (2, 2)
        case 9: (short, long) = (3, 3)
        case 16: (short, long) = (4, 4)
        default: (short, long) = (1, 1)
        }
        return area.width > area.height ? (long, short) : (short, long)
    }

    static func cells(in area: PixelRect, count: Int, direction: PresentationDirection) -> [PixelRect] {
        let (columns, rows) = grid(count: count, in: area)
        func cell(column: Int, row: Int) -> PixelRect {
            let x0 = area.x + area.width * column / columns
            let x1 = area.x + area.width * (column + 1) / columns
            let y0 = area.y + area.height * row / rows
            let y1 = area.y + area.height * (row + 1) / rows
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        var result: [PixelRect] = []
        let leftward: Bool
        let upward: Bool
        let columnsFirst: Bool
        switch direction {
        case .toRightToBottom: (leftward, upward, columnsFirst) = (false, false, false)
        case .toBottomToRight: (leftward, upward, columnsFirst) = (false, false, true)
        case .toLeftToBottom: (leftward, upward, columnsFirst) = (true, false, false)
        case .toBottomToLeft: (leftward, upward, columnsFirst) = (true, false, true)
        case .toRightToTop: (leftward, upward, columnsFirst) = (false, true, false)
        case .toTopToRight: (leftward, upward, columnsFirst) = (false, true, true)
        case .toLeftToTop: (leftward, upward, columnsFirst) = (true, true, false)
        case .toTopToLeft: (leftward, upward, columnsFirst) = (true, true, true)
        }
        for major in 0..<(columnsFirst ? columns : rows) {
            for minor in 0..<(columnsFirst ? rows : columns) {
                var column = columnsFirst ? major : minor
                var row = columnsFirst ? minor : major
                if leftward { column = columns - 1 - column }
                if upward { row = rows - 1 - row }
                result.append(cell(column: column, row: row))
            }
        }
        return result
    }
}
