
extension SheetGeometry {
    /// Where a page placed in `cell` may draw: the cell, stretched to the sheet's edge on each side where the
    /// cell touches the edge of the printable area. A page drawn there that reaches into the margins is seen
    /// (``SheetCanvas/cutMargins(outside:)``) before the margins are cut, as a printer cuts them.
    func reach(of cell: PixelRect) -> PixelRect {
        let left = cell.x <= printable.x ? 0 : cell.x
        let top = cell.y <= printable.y ? 0 : cell.y
        let right = cell.x + cell.width >= printable.x + printable.width ? width : cell.x + cell.width
        let bottom = cell.y + cell.height >= printable.y + printable.height ? height : cell.y + cell.height
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
