import Foundation
import Rasterizer

/// Reads binary PGM (P5) and PPM (P6) images of 8-bit samples, the reference format the tests ask ghostscript and
/// ImageMagick for. ImageMagick 7 (Debian 13) writes them at the image's own depth (maximum 1, 15 or 65535) unless
/// given `-depth 8`, as ImageMagick 6 (Debian 12) did for these images.
enum NetPBM {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) throws -> PageImage {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var index = 0
        func token() -> Int? {
            while index < data.count {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != 10 { index += 1 }
                } else if data[index] == 32 || data[index] == 10 || data[index] == 13 || data[index] == 9 {
                    index += 1
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while index < data.count, data[index] >= 48, data[index] <= 57 {
                value = value * 10 + Int(data[index] - 48)
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard data.count > 2, data[0] == UInt8(ascii: "P") else {
            throw Failure(description: "\(path): not a PNM file")
        }
        let isGray = data[1] == UInt8(ascii: "5")
        index = 2
        guard let width = token(), let height = token(), let maximum = token() else {
            throw Failure(description: "\(path): no width, height and maximum in its header")
        }
        guard maximum == 255 else {
            throw Failure(description: "\(path): samples of maximum \(maximum), not 8-bit (255): ask for -depth 8")
        }
        index += 1
        var image = PageImage(width: width, height: height, isGray: isGray)
        let count = image.pixels.count
        guard data.count - index >= count else {
            throw Failure(description: "\(path): \(data.count - index) bytes of samples, not \(count)")
        }
        image.pixels = Array(data[index..<(index + count)])
        return image
    }
}

/// Compares images the way the tests' bounds are written: PSNR over all samples, in decibels.
enum ImageComparison {
    /// Peak signal-to-noise ratio of `a` against `b` (infinity when equal); both must have the same size
    /// and channel count, otherwise the result is 0.
    static func psnr(_ a: PageImage, _ b: PageImage) -> Double {
        guard a.width == b.width, a.height == b.height, a.isGray == b.isGray else { return 0 }
        var sum = 0.0
        for index in 0..<a.pixels.count {
            let difference = Double(Int(a.pixels[index]) - Int(b.pixels[index]))
            sum += difference * difference
        }
        if sum == 0 { return .infinity }
        let mse = sum / Double(a.pixels.count)
        return 10 * log10(255 * 255 / mse)
    }

    /// The image converted to gray with Rec. 601 weights (for comparing a color render with a gray one).
    static func gray(_ image: PageImage) -> PageImage {
        if image.isGray { return image }
        var result = PageImage(width: image.width, height: image.height, isGray: true)
        for index in 0..<(image.width * image.height) {
            let r = Int(image.pixels[index * 3])
            let g = Int(image.pixels[index * 3 + 1])
            let b = Int(image.pixels[index * 3 + 2])
            result.pixels[index] = UInt8((r * 299 + g * 587 + b * 114 + 500) / 1000)
        }
        return result
    }
}
