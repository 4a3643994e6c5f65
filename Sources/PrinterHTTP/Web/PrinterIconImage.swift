import CZlib
import PrinterCore

/// Draws the printer icon served at `<printer path>/icon-<size>.png` and encodes it as PNG (ISO/IEC 15948):
/// a stylised printer in gray, with a sheet coming out, tinted for color printers.
enum PrinterIconImage {
    /// The PNG bytes of a square icon of `size` pixels.
    static func png(size: Int, color: Bool) -> [UInt8] {
        let side = max(16, min(size, 1024))
        var rows = [UInt8]()
        rows.reserveCapacity(side * (side * 4 + 1))
        for y in 0..<side {
            rows.append(0)  // filter type None
            for x in 0..<side {
                rows += pixel(x: Double(x) / Double(side), y: Double(y) / Double(side), color: color)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendUInt32(UInt32(side), to: &header)
        appendUInt32(UInt32(side), to: &header)
        header += [8, 6, 0, 0, 0]  // 8-bit RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", deflate(rows), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// RGBA of one point, coordinates in 0..<1.
    private static func pixel(x: Double, y: Double, color: Bool) -> [UInt8] {
        func inside(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
            x >= x0 && x < x1 && y >= y0 && y < y1
        }
        if inside(0.28, 0.08, 0.72, 0.40) { return [250, 250, 250, 255] }  // sheet going in
        if inside(0.10, 0.36, 0.90, 0.78) {
            if inside(0.70, 0.44, 0.80, 0.50) { return color ? [40, 170, 90, 255] : [90, 200, 120, 255] }
            return color ? [70, 110, 170, 255] : [96, 96, 104, 255]
        }
        if inside(0.24, 0.62, 0.76, 0.94) { return [255, 255, 255, 255] }  // printed sheet
        return [0, 0, 0, 0]
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(data.count), 6)
            }
        }
        guard status == Z_OK else { return [] }
        return Array(output.prefix(Int(length)))
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendUInt32(UInt32(data.count), to: &png)
        let typed = Array(type.utf8) + data
        png += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendUInt32(UInt32(crc), to: &png)
    }

    private static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
