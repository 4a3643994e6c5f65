import Glibc

/// How far one image is from another: PSNR over the R, G, B samples, SSIM over luma, and the pixels that differ
/// visibly. Images of different sizes are not compared (``Result/sizeMatches`` is false).
public enum ImageComparison {
    /// A pixel differs when one of its channels differs by more than this (of 255): about 6 %, above the
    /// anti-aliasing noise between two renderers, below any real change of content.
    public static let pixelTolerance = 16

    /// The outcome of a comparison.
    public struct Result: Sendable, Equatable {
        /// False when the images have different sizes; the other values are then nil or 0.
        public var sizeMatches: Bool
        /// Peak signal-to-noise ratio in dB; `.infinity` for identical images, nil when the sizes differ.
        public var psnr: Double?
        /// Mean structural similarity (1 = identical), nil when the sizes differ.
        public var ssim: Double?
        /// Pixels with a channel differing by more than ``pixelTolerance``.
        public var differingPixels: Int
        /// The largest difference of any channel (0-255).
        public var maximumDifference: Int

        /// True when every sample is equal.
        public var isIdentical: Bool { sizeMatches && maximumDifference == 0 }
    }

    /// Compares `actual` with `expected`.
    public static func compare(_ actual: RGBImage, _ expected: RGBImage) -> Result {
        guard actual.width == expected.width, actual.height == expected.height else {
            return Result(sizeMatches: false, psnr: nil, ssim: nil, differingPixels: 0, maximumDifference: 0)
        }
        var squares = 0.0
        var differing = 0
        var maximum = 0
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                for y in 0..<actual.height {
                    var rowSquares = 0
                    for x in 0..<actual.width {
                        let index = (y * actual.width + x) * 3
                        let dr = abs(Int(a[index]) - Int(e[index]))
                        let dg = abs(Int(a[index + 1]) - Int(e[index + 1]))
                        let db = abs(Int(a[index + 2]) - Int(e[index + 2]))
                        rowSquares += dr * dr + dg * dg + db * db
                        let largest = max(dr, max(dg, db))
                        if largest > pixelTolerance { differing += 1 }
                        maximum = max(maximum, largest)
                    }
                    squares += Double(rowSquares)
                }
            }
        }
        let samples = Double(max(1, actual.pixels.count))
        let meanSquare = squares / samples
        let psnr = meanSquare == 0 ? Double.infinity : 10 * log10(255 * 255 / meanSquare)
        let ssim = StructuralSimilarity.mean(actual.luma(), expected.luma(), width: actual.width, height: actual.height)
        return Result(sizeMatches: true, psnr: psnr, ssim: ssim, differingPixels: differing, maximumDifference: maximum)
    }

    /// An image that marks where `actual` and `expected` differ: the expected side faded to light gray, pixels
    /// that differ by more than ``pixelTolerance`` in red, and the part only one of the images covers (when the
    /// sizes differ) in blue.
    public static func differenceImage(_ actual: RGBImage, _ expected: RGBImage) -> RGBImage {
        let width = max(actual.width, expected.width)
        let height = max(actual.height, expected.height)
        var result = RGBImage(width: width, height: height, red: 0, green: 0, blue: 255)
        for y in 0..<height {
            for x in 0..<width {
                guard x < actual.width, y < actual.height, x < expected.width, y < expected.height else { continue }
                let a = actual[x, y]
                let e = expected[x, y]
                let largest = max(
                    abs(Int(a.red) - Int(e.red)), abs(Int(a.green) - Int(e.green)), abs(Int(a.blue) - Int(e.blue)))
                if largest > pixelTolerance {
                    result[x, y] = (255, 0, 0)
                } else {
                    let luma = RGBImage.luma(red: Int(e.red), green: Int(e.green), blue: Int(e.blue))
                    let faded = UInt8(192 + luma / 4)
                    result[x, y] = (faded, faded, faded)
                }
            }
        }
        return result
    }
}
