import Glibc
import ImageCheck

extension SheetCanvas {
    /// Whites out the part of row `y` outside `printable`, as a printer cuts what falls into its margins;
    /// returns true when ink was there. Parts that are white already (nothing drew there, the common case) are
    /// only read.
    func cutMargins(of y: Int, outside printable: PixelRect) -> Bool {
        let row = UnsafeMutableRawPointer(pixels + y * stride)
        if y < printable.y || y >= printable.y + printable.height { return cut(row, 0, width) }
        let left = max(0, min(width, printable.x))
        let right = max(left, min(width, printable.x + printable.width))
        let inLeft = cut(row, 0, left)
        return cut(row, right, width) || inLeft
    }

    private func cut(_ row: UnsafeMutableRawPointer, _ start: Int, _ end: Int) -> Bool {
        guard start < end, !InkTally.isWhite(bgrx: row, from: start, to: end) else { return false }
        let inked = InkTally.hasMarks(bgrx: row, from: start, to: end)
        memset(row + start * 4, 0xFF, (end - start) * 4)
        return inked
    }
}
