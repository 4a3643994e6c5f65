/// The comparison across renderer releases (`vprinter compare --across-releases`, docs/snapshots.md): two
/// renderings of one document by other versions of Poppler, Cairo and FreeType place glyphs a pixel apart and
/// anti-alias their edges in their own way, which the strict measures (PSNR, SSIM, differing pixels) fail, while a
/// line moved by a few points, a glyph lost or replaced, an image left out or a fill in another colour must still
/// fail. Pixels only, in three checks, all of which must pass:
///
/// 1. **Tolerant distance**, both ways: both images are smoothed (a 3 x 3 binomial blur), then every pixel of each
///    must find, within ``Tolerance/radius`` pixels in the other, one whose channels are all within
///    ``Tolerance/sampleTolerance`` of its own. The pixels that find none are grouped into 8-connected regions;
///    a region of ``Tolerance/minimumRegionArea`` pixels or more fails. A glyph moved by a pixel finds itself; a lost
///    glyph, a moved line or a missing image leaves a region of ink (or of paper) without a match.
/// 2. **Glyphs aligned one by one**: every connected shape of ink (a glyph, a rule) of each image is moved, in
///    quarter pixels up to ``Tolerance/glyphShift`` each way, to where it best covers the other image (least sum of
///    absolute differences); what is left must nowhere reach ``Tolerance/glyphResidual`` (the mean over 3 x 3
///    pixels). The first check lets every pixel find its own match, so a digit swapped for one of like shape
///    passes it; a glyph moves as a whole, so here the part that differs remains.
/// 3. **Colour of smoothed tiles**: the mean colour of every ``Tolerance/tileSize`` tile that is flat in both
///    images (a fill, the inside of an image) must agree within ``Tolerance/colourTolerance`` per channel: a colour
///    change too small for the first check still fails.
public enum TolerantComparison {
    /// What the comparison tolerates.
    public struct Tolerance: Sendable, Equatable {
        /// How far, in pixels, a pixel may find its match in the other image.
        public var radius: Int
        /// The largest difference of a channel (0-255) between a smoothed pixel and its match.
        public var sampleTolerance: Int
        /// The smallest region of unmatched pixels that fails.
        public var minimumRegionArea: Int
        /// How far a glyph may move as a whole, in pixels each way (searched in quarter pixels).
        public var glyphShift: Double
        /// The most ink (0-255, mean over 3 x 3 pixels) a glyph may differ by once aligned.
        public var glyphResidual: Int
        /// The side of the tiles of the colour check, in pixels.
        public var tileSize: Int
        /// The largest standard deviation of luma (0-255) of a tile that counts as flat.
        public var flatness: Double
        /// The largest difference of the mean of a channel (0-255) between two flat tiles.
        public var colourTolerance: Double

        public init(
            radius: Int, sampleTolerance: Int, minimumRegionArea: Int, glyphShift: Double, glyphResidual: Int,
            tileSize: Int, flatness: Double, colourTolerance: Double
        ) {
            self.radius = radius
            self.sampleTolerance = sampleTolerance
            self.minimumRegionArea = minimumRegionArea
            self.glyphShift = glyphShift
            self.glyphResidual = glyphResidual
            self.tileSize = tileSize
            self.flatness = flatness
            self.colourTolerance = colourTolerance
        }

        /// Renderings of Debian 12 (Poppler 22.12, Cairo 1.16, FreeType 2.12) and Debian 13 (Poppler 25.03, Cairo
        /// 1.18, FreeType 2.13) at 100 dpi pass; the changes of the release fixtures fail (docs/snapshots.md has
        /// the measured margins).
        public static let acrossReleases = Tolerance(
            radius: defaultRadius, sampleTolerance: defaultSampleTolerance, minimumRegionArea: defaultMinimumRegionArea,
            glyphShift: defaultGlyphShift, glyphResidual: defaultGlyphResidual, tileSize: defaultTileSize,
            flatness: defaultFlatness, colourTolerance: defaultColourTolerance)

        /// One pixel: with it no pixel of the measured Debian 12 and 13 pairs is left without a match; without it
        /// (0) regions of up to 26 pixels are.
        public static let defaultRadius = 1
        /// About 25 % of the range: above the anti-aliasing of a glyph edge between releases, below ink on paper.
        public static let defaultSampleTolerance = 64
        /// The smallest region that fails, in pixels: more than the strays of anti-aliasing between releases,
        /// less than the stroke of a lost glyph at 100 dpi.
        public static let defaultMinimumRegionArea = 6
        /// A glyph and its counterpart may be 1.5 pixels apart: more than the moves of a fraction of a pixel
        /// between Debian 12 and 13; less than a moved line (3 pt, 4 pixels at 100 dpi).
        public static let defaultGlyphShift = 1.5
        /// Half the range: between Debian 12 and 13 an aligned glyph differs by at most 108 (anti-aliasing), a
        /// swapped digit at 11 pt by 146 or more.
        public static let defaultGlyphResidual = 128
        /// Tiles of 16 pixels.
        public static let defaultTileSize = 16
        /// A tile is flat when its luma varies by less than 3 levels (standard deviation).
        public static let defaultFlatness = 3.0
        /// Flat tiles agree within 6 levels per channel.
        public static let defaultColourTolerance = 6.0
    }

    /// The farthest a pixel's match is searched, in pixels, whatever the tolerance asks.
    public static let largestRadius = 16

    /// A region of pixels without a match in the other image: its bounding box and its size in pixels.
    public struct Region: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var area: Int
    }

    /// A glyph that differs once aligned: its bounding box, the image it is of (`actual` or not) and what is
    /// left of it (the largest mean over 3 x 3 pixels of the difference of ink).
    public struct Glyph: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var ofActual: Bool
        public var residual: Int
    }

    /// A flat tile whose mean colour differs: its corner and the largest difference of a channel's mean.
    public struct Tile: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var difference: Double
    }

    /// The outcome of a comparison.
    public struct Result: Sendable, Equatable {
        /// False when the images have different sizes; nothing else is then measured.
        public var sizeMatches: Bool
        /// Pixels of either image without a match in the other.
        public var unmatchedPixels: Int
        /// The regions of unmatched pixels of ``Tolerance/minimumRegionArea`` or more, largest first.
        public var regions: [Region]
        /// The largest region of unmatched pixels, failing or not (0 when every pixel has a match).
        public var largestRegionArea: Int
        /// The glyphs that differ beyond ``Tolerance/glyphResidual`` once aligned, largest residual first.
        public var glyphs: [Glyph]
        /// The largest residual of any glyph once aligned (0-255).
        public var largestGlyphResidual: Int
        /// The flat tiles whose colour differs beyond ``Tolerance/colourTolerance``, largest difference first.
        public var tiles: [Tile]
        /// The largest colour difference of any tile flat in both images (0-255).
        public var largestTileDifference: Double

        /// True when the sizes match, and no region, glyph or tile fails.
        public var passed: Bool { sizeMatches && regions.isEmpty && glyphs.isEmpty && tiles.isEmpty }
    }

    /// Compares `actual` with `expected` within `tolerance`.
    public static func compare(
        _ actual: RGBImage, _ expected: RGBImage, tolerance: Tolerance = .acrossReleases
    ) -> Result {
        guard actual.width == expected.width, actual.height == expected.height else {
            return Result(
                sizeMatches: false, unmatchedPixels: 0, regions: [], largestRegionArea: 0, glyphs: [],
                largestGlyphResidual: 0, tiles: [], largestTileDifference: 0)
        }
        let width = actual.width
        let height = actual.height
        let a = blurred(actual)
        let e = blurred(expected)
        var unmatched = [Bool](repeating: false, count: width * height)
        let radius = min(max(0, tolerance.radius), largestRadius)
        let limit = max(0, tolerance.sampleTolerance)
        a.withUnsafeBufferPointer { a in
            e.withUnsafeBufferPointer { e in
                unmatched.withUnsafeMutableBufferPointer { unmatched in
                    for y in 0..<height {
                        for x in 0..<width {
                            if !hasMatch(a, at: x, y, in: e, width: width, height: height, radius: radius, limit: limit)
                                || !hasMatch(
                                    e, at: x, y, in: a, width: width, height: height, radius: radius, limit: limit)
                            {
                                unmatched[y * width + x] = true
                            }
                        }
                    }
                }
            }
        }
        let (count, regions) = Self.regions(of: &unmatched, width: width, height: height)
        let failing = regions.filter { $0.area >= max(1, tolerance.minimumRegionArea) }.sorted { $0.area > $1.area }
        let actualInk = ink(actual)
        let expectedInk = ink(expected)
        let glyphs =
            GlyphAlignment.residuals(of: actualInk, in: expectedInk, width: width, height: height, tolerance: tolerance)
            .map { ($0, true) }
            + GlyphAlignment.residuals(
                of: expectedInk, in: actualInk, width: width, height: height, tolerance: tolerance
            ).map { ($0, false) }
        let differing = glyphs.filter { $0.0.residual > tolerance.glyphResidual }.map { region, ofActual in
            Glyph(
                x: region.x, y: region.y, width: region.width, height: region.height, ofActual: ofActual,
                residual: region.residual)
        }
        let (tiles, largestTile) = colourTiles(a, e, width: width, height: height, tolerance: tolerance)
        return Result(
            sizeMatches: true, unmatchedPixels: count, regions: failing,
            largestRegionArea: regions.map(\.area).max() ?? 0, glyphs: differing.sorted { $0.residual > $1.residual },
            largestGlyphResidual: glyphs.map(\.0.residual).max() ?? 0, tiles: tiles, largestTileDifference: largestTile)
    }

    /// The ink of every pixel: 255 less its luma.
    static func ink(_ image: RGBImage) -> [UInt8] {
        image.luma().map { 255 - $0 }
    }

    /// The image smoothed by a 3 x 3 binomial kernel (1 2 1 / 2 4 2 / 1 2 1, over 16), edges repeated.
    static func blurred(_ image: RGBImage) -> [UInt8] {
        let width = image.width
        let height = image.height
        guard width > 0, height > 0 else { return [] }
        var horizontal = [UInt16](repeating: 0, count: image.pixels.count)
        var result = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { middle in
                for y in 0..<height {
                    for x in 0..<width {
                        let left = (y * width + max(0, x - 1)) * 3
                        let centre = (y * width + x) * 3
                        let right = (y * width + min(width - 1, x + 1)) * 3
                        for channel in 0..<3 {
                            middle[centre + channel] =
                                UInt16(source[left + channel]) + 2 * UInt16(source[centre + channel])
                                + UInt16(source[right + channel])
                        }
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { middle in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let up = max(0, y - 1) * width * 3
                    let row = y * width * 3
                    let down = min(height - 1, y + 1) * width * 3
                    for index in 0..<(width * 3) {
                        let sum = Int(middle[up + index]) + 2 * Int(middle[row + index]) + Int(middle[down + index])
                        target[row + index] = UInt8((sum + 8) >> 4)
                    }
                }
            }
        }
        return result
    }

    /// Whether the pixel (`x`, `y`) of `image` has a pixel within `radius` in `other` whose channels are all
    /// within `limit` of its own; the pixel at the same place is tried first.
    @inline(__always)
    private static func hasMatch(
        _ image: UnsafeBufferPointer<UInt8>, at x: Int, _ y: Int, in other: UnsafeBufferPointer<UInt8>, width: Int,
        height: Int, radius: Int, limit: Int
    ) -> Bool {
        let index = (y * width + x) * 3
        let r = Int(image[index])
        let g = Int(image[index + 1])
        let b = Int(image[index + 2])
        @inline(__always) func close(_ other: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
            abs(Int(other[at]) - r) <= limit && abs(Int(other[at + 1]) - g) <= limit
                && abs(Int(other[at + 2]) - b) <= limit
        }
        if close(other, index) { return true }
        for qy in max(0, y - radius)...min(height - 1, y + radius) {
            for qx in max(0, x - radius)...min(width - 1, x + radius) where close(other, (qy * width + qx) * 3) {
                return true
            }
        }
        return false
    }

    /// The 8-connected regions of `mask` (cleared as it is read) and the number of pixels set.
    static func regions(of mask: inout [Bool], width: Int, height: Int) -> (Int, [Region]) {
        var result: [Region] = []
        var count = 0
        var stack: [Int] = []
        for start in mask.indices where mask[start] {
            mask[start] = false
            stack.append(start)
            var region = Region(x: start % width, y: start / width, width: 0, height: 0, area: 0)
            var (minX, minY, maxX, maxY) = (region.x, region.y, region.x, region.y)
            while let index = stack.popLast() {
                let x = index % width
                let y = index / width
                region.area += 1
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) where mask[ny * width + nx] {
                        mask[ny * width + nx] = false
                        stack.append(ny * width + nx)
                    }
                }
            }
            count += region.area
            region.x = minX
            region.y = minY
            region.width = maxX - minX + 1
            region.height = maxY - minY + 1
            result.append(region)
        }
        return (count, result)
    }

    /// The flat tiles (in both images) whose mean colour differs beyond the tolerance, and the largest difference
    /// of any flat tile.
    private static func colourTiles(
        _ a: [UInt8], _ e: [UInt8], width: Int, height: Int, tolerance: Tolerance
    ) -> ([Tile], Double) {
        let size = min(max(1, tolerance.tileSize), max(1, min(width, height)))
        var tiles: [Tile] = []
        var largest = 0.0
        for tileY in stride(from: 0, to: height - size + 1, by: size) {
            for tileX in stride(from: 0, to: width - size + 1, by: size) {
                let first = statistics(a, width: width, x: tileX, y: tileY, size: size)
                let second = statistics(e, width: width, x: tileX, y: tileY, size: size)
                guard first.deviation <= tolerance.flatness, second.deviation <= tolerance.flatness else { continue }
                let difference = (0..<3).map { abs(first.mean[$0] - second.mean[$0]) }.max() ?? 0
                largest = max(largest, difference)
                if difference > tolerance.colourTolerance {
                    tiles.append(Tile(x: tileX, y: tileY, difference: difference))
                }
            }
        }
        return (tiles.sorted { $0.difference > $1.difference }, largest)
    }

    /// The mean of each channel and the standard deviation of luma of one tile.
    private static func statistics(
        _ image: [UInt8], width: Int, x: Int, y: Int, size: Int
    ) -> (mean: [Double], deviation: Double) {
        var sums = [0, 0, 0]
        var luma = 0
        var squares = 0
        image.withUnsafeBufferPointer { image in
            for row in y..<(y + size) {
                for column in x..<(x + size) {
                    let index = (row * width + column) * 3
                    let r = Int(image[index])
                    let g = Int(image[index + 1])
                    let b = Int(image[index + 2])
                    sums[0] += r
                    sums[1] += g
                    sums[2] += b
                    let l = RGBImage.luma(red: r, green: g, blue: b)
                    luma += l
                    squares += l * l
                }
            }
        }
        let n = Double(size * size)
        let meanLuma = Double(luma) / n
        let variance = max(0, Double(squares) / n - meanLuma * meanLuma)
        return (sums.map { Double($0) / n }, variance.squareRoot())
    }
}
