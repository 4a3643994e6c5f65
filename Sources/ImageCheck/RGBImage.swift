/// An image in memory as 8-bit R, G, B samples, rows top to bottom without padding.
public struct RGBImage: Sendable, Equatable {
    /// The largest image read or made, in pixels (a 600 dpi A3 sheet has 70 million).
    public static let maximumPixels = 100_000_000

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// An image of one color, white by default.
    public init(width: Int, height: Int, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
        for index in 0..<(self.width * self.height) {
            pixels[index * 3] = red
            pixels[index * 3 + 1] = green
            pixels[index * 3 + 2] = blue
        }
    }

    /// An image from its samples; `pixels` must hold `width * height * 3` bytes (a programmer's mistake
    /// otherwise, checked with a precondition).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage needs width * height * 3 samples")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (`x`, `y`).
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        get {
            let index = (y * width + x) * 3
            return (pixels[index], pixels[index + 1], pixels[index + 2])
        }
        set {
            let index = (y * width + x) * 3
            pixels[index] = newValue.red
            pixels[index + 1] = newValue.green
            pixels[index + 2] = newValue.blue
        }
    }

    /// Rec. 601 luma (0-255) of one pixel, in integers.
    @inline(__always)
    static func luma(red r: Int, green g: Int, blue b: Int) -> Int {
        (r * 77 + g * 150 + b * 29 + 128) >> 8
    }

    /// Rec. 601 luma of every pixel, one byte each.
    public func luma() -> [UInt8] {
        var result = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for index in 0..<target.count {
                    target[index] = UInt8(
                        Self.luma(
                            red: Int(source[index * 3]), green: Int(source[index * 3 + 1]),
                            blue: Int(source[index * 3 + 2])))
                }
            }
        }
        return result
    }
}
