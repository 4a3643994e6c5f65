import PrintModel

/// Adds up the ink of a side row by row, as the rows are written, and gives its ``SideFacts``.
///
/// Rows come as Cairo RGB24 pixels (``addBGRX(_:width:)``), 8-bit gray (``addGray(_:width:)``) or 8-bit RGB
/// (``addRGB(_:width:)``). White pixels, most of a printed side, take one comparison each.
public struct InkTally: Sendable {
    /// Ink (0-255, the darkest channel's distance from white) from which a pixel counts as printed: about 3 %,
    /// so that near-white noise of a photo or a scan does not make a blank side marked.
    public static let markThreshold = 8
    /// Difference between a pixel's strongest and weakest channel from which it counts as colored: about 6 %,
    /// above the color fringes of JPEG chroma subsampling on gray content.
    public static let chromaThreshold = 16

    private let isColor: Bool
    private var cyan = 0
    private var magenta = 0
    private var yellow = 0
    private var black = 0
    private var pixels = 0
    private var marked = false
    private var colored = false

    /// A tally for a color side (all four channels) or a gray one (black only).
    public init(color: Bool) {
        isColor = color
    }

    /// Adds a row of Cairo RGB24 pixels (a 32-bit word a pixel: blue in the low byte, the top byte unused).
    public mutating func addBGRX(_ row: UnsafeRawPointer, width: Int) {
        let words = row.assumingMemoryBound(to: UInt32.self)
        var sums = RowSums()
        for x in 0..<width {
            let value = words[x] & 0x00FF_FFFF
            if value == 0x00FF_FFFF { continue }
            sums.add(red: Int(value >> 16), green: Int((value >> 8) & 0xFF), blue: Int(value & 0xFF))
        }
        add(sums, width: width)
    }

    /// Adds a row of 8-bit R, G, B samples.
    public mutating func addRGB(_ row: UnsafePointer<UInt8>, width: Int) {
        var sums = RowSums()
        for x in 0..<width {
            let (r, g, b) = (Int(row[x * 3]), Int(row[x * 3 + 1]), Int(row[x * 3 + 2]))
            if r & g & b == 255 { continue }
            sums.add(red: r, green: g, blue: b)
        }
        add(sums, width: width)
    }

    /// The ink of the colored pixels of one row (white ones add nothing and are skipped).
    private struct RowSums {
        var cyan = 0
        var magenta = 0
        var yellow = 0
        var black = 0
        var darkest = 255
        var chroma = 0

        @inline(__always)
        mutating func add(red r: Int, green g: Int, blue b: Int) {
            let high = max(r, max(g, b))
            let low = min(r, min(g, b))
            cyan += high - r
            magenta += high - g
            yellow += high - b
            black += 255 - high
            darkest = min(darkest, low)
            chroma = max(chroma, high - low)
        }
    }

    private mutating func add(_ sums: RowSums, width: Int) {
        add(
            sums.cyan, sums.magenta, sums.yellow, sums.black, width: width, darkest: sums.darkest,
            chroma: sums.chroma)
    }

    /// Adds a row of 8-bit gray pixels (0 = black).
    public mutating func addGray(_ row: UnsafePointer<UInt8>, width: Int) {
        // Branch-free, with 32-bit sums, so that the compiler turns it into vector instructions.
        var sum: UInt32 = 0
        var darkest: UInt8 = 255
        for x in 0..<width {
            let value = row[x]
            sum &+= UInt32(value)
            darkest = min(darkest, value)
        }
        add(0, 0, 0, 255 * width - Int(sum), width: width, darkest: Int(darkest), chroma: 0)
    }

    /// Adds a gray row whose sums the caller made while converting it: `ink`, the sum of 255 minus each pixel,
    /// and `darkest`, its lowest pixel.
    public mutating func addGrayRow(ink: Int, darkest: Int, width: Int) {
        add(0, 0, 0, ink, width: width, darkest: darkest, chroma: 0)
    }

    private mutating func add(_ c: Int, _ m: Int, _ y: Int, _ k: Int, width: Int, darkest: Int, chroma: Int) {
        cyan += c
        magenta += m
        yellow += y
        black += k
        pixels += width
        if 255 - darkest >= Self.markThreshold { marked = true }
        if isColor && chroma >= Self.chromaThreshold { colored = true }
    }

    /// The facts of the rows added so far.
    public func facts(outsidePrintableArea: Bool) -> SideFacts {
        func percent(_ sum: Int) -> Double {
            guard pixels > 0 else { return 0 }
            // Three decimals: a few characters on a page still show.
            return (Double(sum) * 100 / (Double(pixels) * 255) * 1000).rounded() / 1000
        }
        let coverage =
            isColor
            ? InkCoverage(
                cyan: percent(cyan), magenta: percent(magenta), yellow: percent(yellow), black: percent(black))
            : InkCoverage(black: percent(black + cyan + magenta + yellow))
        return SideFacts(
            blank: !marked, inkCoverage: coverage, hasColor: colored, outsidePrintableArea: outsidePrintableArea)
    }

    /// True when every pixel of `row` (Cairo RGB24) from `start` up to `end` is white.
    public static func isWhite(bgrx row: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        // Branch-free, so that the compiler turns it into vector instructions.
        let words = row.assumingMemoryBound(to: UInt32.self)
        var all: UInt32 = 0xFFFF_FFFF
        for x in start..<max(start, end) { all &= words[x] }
        return all & 0x00FF_FFFF == 0x00FF_FFFF
    }

    /// True when any pixel of `row` (Cairo RGB24) from `start` up to `end` carries ink of at least
    /// ``markThreshold``.
    public static func hasMarks(bgrx row: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        let words = row.assumingMemoryBound(to: UInt32.self)
        var x = start
        while x < end {
            let value = words[x]
            if value & 0x00FF_FFFF != 0x00FF_FFFF {
                let low = min(Int(value & 0xFF), min(Int((value >> 8) & 0xFF), Int((value >> 16) & 0xFF)))
                if 255 - low >= markThreshold { return true }
            }
            x += 1
        }
        return false
    }
}
