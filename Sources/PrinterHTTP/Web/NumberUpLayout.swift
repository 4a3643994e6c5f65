import PrinterCore

/// Where the pages of a number-up side lie, in percent of the side, so that the viewer can put each page's
/// number on it.
///
/// The same rule as the renderer's sheet geometry (Rasterizer's `SheetGeometry`, which the printer process does
/// not link): cells fill the printable area in a grid of 1 x 2 (two-up), 2 x 3 (six-up) or square (4, 9, 16)
/// along the area's long edge, in the order presentation-direction-number-up gives (PWG 5100.3 section 3.13.6).
struct NumberUpLayout {
    /// A cell in percent of the side's width and height.
    struct Cell: Equatable {
        var left: Double
        var top: Double
        var width: Double
        var height: Double
    }

    /// The cells of a side `width` x `height` pixels with the printable area `printable` (pixels), in order.
    static func cells(
        count: Int, direction: String, width: Int, height: Int,
        printable: (x: Int, y: Int, width: Int, height: Int)
    ) -> [Cell] {
        guard width > 0, height > 0, printable.width > 0, printable.height > 0 else { return [] }
        let (short, long): (Int, Int)
        switch count {
        case 2: (short, long) = (1, 2)
        case 6: (short, long) = (2, 3)
        case 4: (short, long) = (2, 2)
        case 9: (short, long) = (3, 3)
        case 16: (short, long) = (4, 4)
        default: (short, long) = (1, 1)
        }
        let (columns, rows) = printable.width > printable.height ? (long, short) : (short, long)
        let leftward = direction.hasPrefix("toleft") || direction.hasSuffix("-toleft")
        let upward = direction.hasPrefix("totop") || direction.hasSuffix("-totop")
        let columnsFirst = direction.hasPrefix("totop") || direction.hasPrefix("tobottom")
        var result: [Cell] = []
        for major in 0..<(columnsFirst ? columns : rows) {
            for minor in 0..<(columnsFirst ? rows : columns) {
                var column = columnsFirst ? major : minor
                var row = columnsFirst ? minor : major
                if leftward { column = columns - 1 - column }
                if upward { row = rows - 1 - row }
                let x0 = printable.x + printable.width * column / columns
                let x1 = printable.x + printable.width * (column + 1) / columns
                let y0 = printable.y + printable.height * row / rows
                let y1 = printable.y + printable.height * (row + 1) / rows
                result.append(
                    Cell(
                        left: 100 * Double(x0) / Double(width), top: 100 * Double(y0) / Double(height),
                        width: 100 * Double(x1 - x0) / Double(width), height: 100 * Double(y1 - y0) / Double(height)))
            }
        }
        return result
    }

    /// Pixels for a length in hundredths of a millimetre at `dpi`.
    static func pixels(_ hundredthsOfMillimetre: Int, dpi: Int) -> Int {
        (hundredthsOfMillimetre * dpi + 1_270) / 2_540
    }
}
