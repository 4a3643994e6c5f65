extension SheetCanvas {
    /// Turns every pixel gray in place: its luma, with the Rec. 601 weights that ``writePNG(path:color:resolution:
    /// printable:tally:)`` uses for monochrome sides, or with `bilevel` black below 50 % (luma under 128) and white
    /// from 50 % up, as bi-level sides are. Blue, green and red then hold the same value.
    func convertToGray(bilevel: Bool) {
        for y in 0..<height {
            let row = (pixels + y * stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let b = UInt32(row[x * 4])
                let g = UInt32(row[x * 4 + 1])
                let r = UInt32(row[x * 4 + 2])
                let luma = UInt8((r * 77 + g * 150 + b * 29 + 128) >> 8)
                let value = bilevel ? (luma < 128 ? 0 : 255) : luma
                row[x * 4] = value
                row[x * 4 + 1] = value
                row[x * 4 + 2] = value
            }
        }
    }

    /// Copies the gray values of row `y` (its blue bytes, after ``convertToGray(bilevel:)``) into `gray`, one byte
    /// a pixel.
    func grayRow(_ y: Int, into gray: UnsafeMutablePointer<UInt8>) {
        let row = (pixels + y * stride).assumingMemoryBound(to: UInt8.self)
        for x in 0..<width { gray[x] = row[x * 4] }
    }

    /// Packs row `y`, after ``convertToGray(bilevel:)`` with `bilevel`, into `bits`: eight pixels a byte, the
    /// leftmost in the high bit, 1 for white (``PNGWriter/InputLayout/bits``).
    func bilevelRow(_ y: Int, into bits: UnsafeMutablePointer<UInt8>) {
        let row = (pixels + y * stride).assumingMemoryBound(to: UInt8.self)
        for byte in 0..<((width + 7) / 8) {
            var packed: UInt8 = 0
            for bit in 0..<8 {
                let x = byte * 8 + bit
                if x < width, row[x * 4] >= 128 { packed |= 0x80 >> UInt8(bit) }
            }
            bits[byte] = packed
        }
    }
}
