/// Turns one uncompressed raster line, in any color space and depth, into 8-bit gray or 8-bit RGB pixels.
///
/// CMYK becomes light through the press profile of ``CMYKConversion``; other inks (black, DeviceN) with the simple
/// complement model a printer without a color profile uses; 16-bit samples keep their high byte; Adobe RGB is shown
/// as sRGB.
struct RasterPixelConverter {
    let header: RasterPageHeader
    /// The press profile's conversion; nil shows CMYK with the complement model as well.
    var cmyk: CMYKConversion? = CMYKConversion.shared

    /// Converts `line` (``RasterPageHeader/bytesPerLine`` bytes) into `output`
    /// (width times ``RasterPageHeader/outputChannels`` bytes).
    func convert(_ line: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        let width = header.width
        let space = header.colorSpace
        switch (space, header.bitsPerColor) {
        case (.sGray, 8), (.sRGB, 8), (.rgb, 8), (.adobeRGB, 8):
            output.baseAddress!.update(
                from: line.baseAddress!.assumingMemoryBound(to: UInt8.self), count: width * header.outputChannels)
        case (_, 1) where space.colorCount == 1:
            convertOneBit(line, into: output, inkIsOne: space.isSubtractive)
        case (.cmyk, 8):
            Self.showInks(line.baseAddress!, into: output.baseAddress!, count: width, through: cmyk)
        case (.cmyk, _):
            convertCMYK(line, into: output)
        default:
            convertGeneric(line, into: output)
        }
    }

    /// 1-bit gray or black: bit 7 of byte 0 is the leftmost pixel.
    private func convertOneBit(
        _ line: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>, inkIsOne: Bool
    ) {
        let bytes = line.bindMemory(to: UInt8.self)
        let width = header.width
        let one: UInt8 = inkIsOne ? 0 : 255
        let zero: UInt8 = inkIsOne ? 255 : 0
        for x in 0..<width {
            let bit = (bytes[x >> 3] >> (7 - UInt8(x & 7))) & 1
            output[x] = bit == 1 ? one : zero
        }
    }

    /// Reads sample `index` of the line as an 8-bit value.
    @inline(__always)
    private func sample(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt8 {
        switch header.bitsPerColor {
        case 16: return bytes[index * 2]
        case 8: return bytes[index]
        default:
            let bits = header.bitsPerColor
            let bitOffset = index * bits
            let byte = bytes[bitOffset >> 3]
            let shift = 8 - bits - (bitOffset & 7)
            let mask = (1 << bits) - 1
            let value = (Int(byte) >> shift) & mask
            return UInt8(value * 255 / mask)
        }
    }

    private func convertGeneric(_ line: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        let bytes = line.bindMemory(to: UInt8.self)
        let width = header.width
        let colors = header.colorSpace.colorCount
        switch header.colorSpace {
        case .sGray:
            for x in 0..<width { output[x] = sample(bytes, x) }
        case .black:
            for x in 0..<width { output[x] = 255 - sample(bytes, x) }
        case .rgb, .sRGB, .adobeRGB:
            for i in 0..<(width * 3) { output[i] = sample(bytes, i) }
        case .cieLab:
            for x in 0..<width {
                let (r, g, b) = CIELab.toSRGB(
                    sample(bytes, x * 3), sample(bytes, x * 3 + 1), sample(bytes, x * 3 + 2))
                output[x * 3] = r
                output[x * 3 + 1] = g
                output[x * 3 + 2] = b
            }
        case .cmyk:
            convertCMYK(line, into: output)
        case .device(let count) where count < 3:
            // One or two colorants: the darkest ink wins.
            for x in 0..<width {
                var ink: UInt8 = 0
                for c in 0..<count { ink = max(ink, sample(bytes, x * colors + c)) }
                output[x] = 255 - ink
            }
        case .device(let count):
            // Three colorants are C, M, Y; a fourth is K; further ones are not shown.
            for x in 0..<width {
                let k = count >= 4 ? sample(bytes, x * colors + 3) : 0
                for c in 0..<3 { output[x * 3 + c] = Self.ink(sample(bytes, x * colors + c), k) }
            }
        }
    }

    /// CMYK of any other depth: the inks of a run of pixels gathered as 8-bit samples, then converted together.
    private func convertCMYK(_ line: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        let bytes = line.bindMemory(to: UInt8.self)
        let width = header.width
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CMYKConversion.chunkPixels * 4) { inks in
            var start = 0
            while start < width {
                let count = min(CMYKConversion.chunkPixels, width - start)
                for i in 0..<(count * 4) { inks[i] = sample(bytes, start * 4 + i) }
                Self.showInks(inks.baseAddress!, into: output.baseAddress! + start * 3, count: count, through: cmyk)
                start += count
            }
        }
    }

    /// Shows `count` pixels of 8-bit CMYK inks (0 = no ink) as 8-bit R, G, B: through `conversion`, or with the
    /// complement model without one.
    static func showInks(
        _ inks: UnsafeRawPointer, into rgb: UnsafeMutableRawPointer, count: Int, through conversion: CMYKConversion?
    ) {
        if let conversion {
            conversion.convert(inks, into: rgb, count: count)
            return
        }
        let inks = inks.assumingMemoryBound(to: UInt8.self)
        let rgb = rgb.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let k = inks[x * 4 + 3]
            for c in 0..<3 { rgb[x * 3 + c] = ink(inks[x * 4 + c], k) }
        }
    }

    /// Light left by `ink` and `black` on white paper: (255 - ink) * (255 - black) / 255.
    @inline(__always)
    static func ink(_ ink: UInt8, _ black: UInt8) -> UInt8 {
        UInt8((Int(255 - ink) * Int(255 - black) + 127) / 255)
    }
}
