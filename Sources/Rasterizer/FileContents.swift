import PrintModel

/// Whole-file reads for formats whose libraries want the bytes in memory (JPEG) or only their start (detection).
enum FileContents {
    /// The bytes of `path`; files larger than `maximum` are refused.
    static func read(path: String, maximum: Int) throws(RasterError) -> [UInt8] {
        let reader = ByteReader(try FileInput(path: path))
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try reader.read(into: &chunk)
            if count == 0 { return result }
            try RenderLimits.check("maximum file size", result.count + count, maximum)
            result += chunk[0..<count]
        }
    }

    /// At most the first `count` bytes of `path`.
    static func prefix(path: String, count: Int) throws(RasterError) -> [UInt8] {
        let reader = ByteReader(try FileInput(path: path))
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try reader.read(into: &bytes)
        return Array(bytes.prefix(read))
    }
}
