
/// Decodes the compressed lines of one PWG Raster or Apple Raster page, one row at a time.
///
/// Both formats use the same scheme (PWG 5102.4 section 5.3): a line-repeat byte (repeat count - 1), then runs
/// until the line is full, in units of one pixel (one byte when a pixel is smaller): 0...127 repeat the next unit
/// n + 1 times, 129...255 copy 257 - n units, 128 fills the rest of the line with white.
/// Only one line is held in memory.
final class RasterLineDecoder {
    let header: RasterPageHeader
    private let reader: ByteReader
    private let converter: RasterPixelConverter
    private let line: UnsafeMutableRawBufferPointer
    private let converted: UnsafeMutableBufferPointer<UInt8>
    private var repeatsLeft = 0
    private var convertedIsCurrent = false
    /// Rows handed out so far.
    private(set) var row = 0

    init(header: RasterPageHeader, reader: ByteReader) {
        self.header = header
        self.reader = reader
        converter = RasterPixelConverter(header: header)
        line = .allocate(byteCount: header.bytesPerLine, alignment: 8)
        converted = .allocate(capacity: header.width * header.outputChannels)
    }

    deinit {
        line.deallocate()
        converted.deallocate()
    }

    /// True when every row of the page was read.
    var isFinished: Bool { row == header.height }

    /// The next row as 8-bit gray or RGB pixels; valid until the next call.
    func nextRow() throws(RasterError) -> UnsafeBufferPointer<UInt8> {
        if repeatsLeft == 0 {
            try startLineGroup()
            convertedIsCurrent = false
        }
        if !convertedIsCurrent {
            converter.convert(UnsafeRawBufferPointer(line), into: converted)
            convertedIsCurrent = true
        }
        repeatsLeft -= 1
        row += 1
        return UnsafeBufferPointer(converted)
    }

    /// Reads and discards the rows not read yet, so the reader stands at the next page.
    func skipRest() throws(RasterError) {
        while row < header.height {
            if repeatsLeft == 0 { try startLineGroup() }
            row += repeatsLeft
            repeatsLeft = 0
        }
    }

    /// Reads a line-repeat count and the line it repeats.
    private func startLineGroup() throws(RasterError) {
        let count = Int(try reader.byte("line repeat count")) + 1
        guard row + count <= header.height else {
            throw .corruptData(page: header.pageNumber, line: row, reason: "line repeat crosses the end of the page")
        }
        try decodeLine()
        repeatsLeft = count
    }

    /// Decodes one compressed line into `line`.
    private func decodeLine() throws(RasterError) {
        let length = header.bytesPerLine
        let unit = header.runUnit
        let base = line.baseAddress!
        var filled = 0
        while filled < length {
            let code = try reader.byte("compressed line")
            if code == 0x80 {
                (base + filled).initializeMemory(
                    as: UInt8.self, repeating: header.colorSpace.blankByte, count: length - filled)
                filled = length
            } else if code < 0x80 {
                let count = (Int(code) + 1) * unit
                guard filled + count <= length else { throw runOverflow() }
                let copied = try reader.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: unit))
                guard copied == unit else { throw .truncated(what: "repeated pixel", offset: reader.offset) }
                if unit == 1 {
                    (base + filled + 1).initializeMemory(
                        as: UInt8.self, repeating: base.load(fromByteOffset: filled, as: UInt8.self), count: count - 1)
                } else {
                    // Double the repeated span each step: log2(n) copies instead of n.
                    var done = unit
                    while done < count {
                        let chunk = min(done, count - done)
                        (base + filled + done).copyMemory(from: base + filled, byteCount: chunk)
                        done += chunk
                    }
                }
                filled += count
            } else {
                let count = (257 - Int(code)) * unit
                guard filled + count <= length else { throw runOverflow() }
                let copied = try reader.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: count))
                guard copied == count else { throw .truncated(what: "literal pixels", offset: reader.offset) }
                filled += count
            }
        }
    }

    private func runOverflow() -> RasterError {
        .corruptData(page: header.pageNumber, line: row, reason: "a run crosses the end of the line")
    }
}
