import CJPEG

/// The EXIF orientation tag (0x0112) of a JPEG's APP1 marker: 1 upright ... 8 (TIFF 6.0 / Exif 2.3 section 4.6.4).
enum ExifOrientation {
    static func read(markers: jpeg_saved_marker_ptr?) -> Int {
        var marker = markers
        while let current = marker {
            defer { marker = current.pointee.next }
            guard current.pointee.marker == 0xE1, let data = current.pointee.data else { continue }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(current.pointee.data_length)))
            if let value = orientation(exif: bytes) { return value }
        }
        return 1
    }

    /// The orientation in an APP1 payload (`Exif\0\0` + TIFF), or nil.
    static func orientation(exif bytes: [UInt8]) -> Int? {
        guard bytes.count >= 14, bytes.starts(with: Array("Exif\0\0".utf8)) else { return nil }
        let tiff = Array(bytes[6...])
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
