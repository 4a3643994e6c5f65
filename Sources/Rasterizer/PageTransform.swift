
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

    /// A transform from its parts.
    public init(pageWidth: Double, pageHeight: Double, scale: Double, rotation: Int, centerX: Double, centerY: Double) {
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.scale = scale
        self.rotation = rotation
        self.centerX = centerX
        self.centerY = centerY
    }

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

extension PageTransform {
    /// Maps sheet pixels back to a page point (the inverse of ``apply(x:y:)``).
    public func page(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = x - centerX
        let dy = y - centerY
        let (px, py): (Double, Double)
        switch rotation {
        case 90: (px, py) = (dy, -dx)
        case 180: (px, py) = (-dx, -dy)
        case 270: (px, py) = (-dy, dx)
        default: (px, py) = (dx, dy)
        }
        return (px / scale + pageWidth / 2, py / scale + pageHeight / 2)
    }

    /// The part of the page, in page points, that lands inside `clip`: what of the page is printed there. Nil when
    /// none of it does.
    public func visiblePageArea(in clip: PixelRect) -> (x1: Double, y1: Double, x2: Double, y2: Double)? {
        let a = page(x: Double(clip.x), y: Double(clip.y))
        let b = page(x: Double(clip.x + clip.width), y: Double(clip.y + clip.height))
        let x1 = max(0, min(a.x, b.x))
        let y1 = max(0, min(a.y, b.y))
        let x2 = min(pageWidth, max(a.x, b.x))
        let y2 = min(pageHeight, max(a.y, b.y))
        guard x2 > x1, y2 > y1 else { return nil }
        return (x1, y1, x2, y2)
    }
}
