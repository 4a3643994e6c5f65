/// The second check of ``TolerantComparison``: each connected shape of ink of one image, moved as a whole to where
/// it best covers the other image, and what is left of it.
enum GlyphAlignment {
    /// A pixel is ink when its ink (255 less luma) is above this: the body of a glyph, not its anti-aliased rim.
    static let inkThreshold: UInt8 = 96
    /// Shapes larger than this (in pixels, either side) are not glyphs (a fill, an image, a long rule): the first
    /// and third checks compare them.
    static let largestGlyph = 128
    /// The patch of a glyph reaches this many pixels beyond its ink, to hold its anti-aliased rim.
    static let margin = 2
    /// The farthest a glyph is searched, in pixels, whatever the tolerance asks.
    static let largestShift = 4

    /// A shape, its bounding box and its residual once aligned.
    struct Aligned {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var residual: Int
    }

    /// Every shape of ink of `image` aligned in `other` (both `width` x `height` ink samples).
    static func residuals(
        of image: [UInt8], in other: [UInt8], width: Int, height: Int, tolerance: TolerantComparison.Tolerance
    ) -> [Aligned] {
        var mask = image.map { $0 > inkThreshold }
        let (_, shapes) = TolerantComparison.regions(of: &mask, width: width, height: height)
        // In quarter pixels, at most `largestShift` pixels (NaN is no shift).
        let shift = tolerance.glyphShift.isNaN ? 0 : min(max(tolerance.glyphShift, 0), Double(largestShift))
        let steps = Int((shift * 4).rounded())
        return image.withUnsafeBufferPointer { image in
            other.withUnsafeBufferPointer { other in
                shapes.compactMap { shape -> Aligned? in
                    guard shape.width <= largestGlyph, shape.height <= largestGlyph else { return nil }
                    let x0 = max(0, shape.x - margin)
                    let y0 = max(0, shape.y - margin)
                    let x1 = min(width, shape.x + shape.width + margin)
                    let y1 = min(height, shape.y + shape.height + margin)
                    let residual = align(
                        image, other, width: width, height: height, box: (x0, y0, x1, y1), steps: steps)
                    return Aligned(x: x0, y: y0, width: x1 - x0, height: y1 - y0, residual: residual)
                }
            }
        }
    }

    /// The residual of the patch `box` (x0, y0, x1, y1; x1 and y1 excluded) of `image` at its best place in `other`:
    /// shifted by quarter pixels up to `steps` quarters each way, `other` sampled bilinearly (its edge repeated).
    private static func align(
        _ image: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        box: (Int, Int, Int, Int), steps: Int
    ) -> Int {
        let (x0, y0, x1, y1) = box
        let columns = x1 - x0
        let rows = y1 - y0
        var best = Int.max
        var bestShift = (0, 0)
        for qy in -steps...steps {
            for qx in -steps...steps {
                var sum = 0
                for y in y0..<y1 where sum < best {
                    for x in x0..<x1 {
                        sum += abs(16 * Int(image[y * width + x]) - sample(other, x, y, qx, qy, width, height))
                    }
                }
                if sum < best {
                    best = sum
                    bestShift = (qx, qy)
                }
            }
        }
        // What is left at the best place, summed over 3 x 3 pixels (outside the patch counts as no difference).
        var difference = [Int](repeating: 0, count: columns * rows)
        for y in y0..<y1 {
            for x in x0..<x1 {
                difference[(y - y0) * columns + (x - x0)] = abs(
                    16 * Int(image[y * width + x]) - sample(other, x, y, bestShift.0, bestShift.1, width, height))
            }
        }
        var largest = 0
        for row in 0..<rows {
            for column in 0..<columns {
                var sum = 0
                for ny in max(0, row - 1)...min(rows - 1, row + 1) {
                    for nx in max(0, column - 1)...min(columns - 1, column + 1) { sum += difference[ny * columns + nx] }
                }
                largest = max(largest, sum)
            }
        }
        return (largest + 72) / 144
    }

    /// 16 times the bilinear sample of `image` at (`x` + `qx` / 4, `y` + `qy` / 4), the edge repeated.
    @inline(__always)
    private static func sample(
        _ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ qx: Int, _ qy: Int, _ width: Int, _ height: Int
    ) -> Int {
        let fx = qx & 3
        let fy = qy & 3
        let left = min(width - 1, max(0, x + (qx >> 2)))
        let right = min(width - 1, max(0, x + (qx >> 2) + 1))
        let top = min(height - 1, max(0, y + (qy >> 2))) * width
        let bottom = min(height - 1, max(0, y + (qy >> 2) + 1)) * width
        return (4 - fx) * (4 - fy) * Int(image[top + left]) + fx * (4 - fy) * Int(image[top + right])
            + (4 - fx) * fy * Int(image[bottom + left]) + fx * fy * Int(image[bottom + right])
    }
}
