/// How a page, measured in points with its origin at the top left, lands on a sheet measured in pixels: scaled
/// by ``scale`` (pixels a point), turned clockwise by ``rotation`` degrees about its center, and centered on
/// (``centerX``, ``centerY``).
public struct PageTransform: Sendable, Equatable {
    /// Page width in points, before rotation.
    public var pageWidth: Double
    /// Page height in points, before rotation.
    public var pageHeight: Double
    /// Sheet pixels a page point.
    public var scale: Double
    /// Clockwise rotation: 0, 90, 180 or 270.
    public var rotation: Int
    /// Horizontal sheet position of the page's center, in pixels.
    public var centerX: Double
    /// Vertical sheet position of the page's center, in pixels.
    public var centerY: Double

    /// Maps a page point to sheet pixels (for tests and for checking placements).
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - pageWidth / 2) * scale
        let dy = (y - pageHeight / 2) * scale
        switch rotation {
        case 90: return (centerX - dy, centerY + dx)
        case 180: return (centerX - dx, centerY - dy)
        case 270: return (centerX + dy, centerY - dx)
        default: return (centerX + dx, centerY + dy)
        }
    }
}
