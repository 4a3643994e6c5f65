import PrintModel

/// The 1796-byte page header of PWG Raster (PWG 5102.4 section 4.3), read into a ``RasterPageHeader``.
///
/// Every integer is an unsigned 32-bit big-endian value; strings are 64-byte NUL-terminated fields.
enum PWGPageHeader {
    /// Size of a page header in bytes (PWG 5102.4 section 4.3).
    static let size = 1796

    /// Reads and validates a header.
    static func parse(_ bytes: [UInt8], pageNumber: Int, limits: RenderLimits) throws(RasterError) -> RasterPageHeader {
        func integer(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3])
        }
        func value(_ offset: Int) -> Int { Int(integer(offset)) }
        func signed(_ offset: Int) -> Int { Int(Int32(bitPattern: integer(offset))) }
        func string(_ offset: Int) -> String {
            let field = bytes[offset..<(offset + 64)]
            let end = field.firstIndex(of: 0) ?? field.endIndex
            return String(decoding: field[offset..<end], as: UTF8.self)
        }

        let code = integer(400)
        guard let colorSpace = RasterColorSpace(pwgCode: code) else {
            throw .badHeader(page: pageNumber, field: "ColorSpace", value: Int(code))
        }
        guard value(396) == 0 else { throw .badHeader(page: pageNumber, field: "ColorOrder", value: value(396)) }
        var header = RasterPageHeader(
            pageNumber: pageNumber, width: value(372), height: value(376), resolutionX: value(276),
            resolutionY: value(280), colorSpace: colorSpace, bitsPerColor: value(384), bytesPerLine: value(392))
        header.duplex = value(272) != 0
        header.tumble = value(368) != 0
        header.copies = value(340)
        header.pageSizeName = string(1732)
        for (offset, field) in [(456, "CrossFeedTransform"), (460, "FeedTransform")] {
            let transform = signed(offset)
            guard transform == 1 || transform == -1 || transform == 0 else {
                throw .badHeader(page: pageNumber, field: field, value: transform)
            }
            if offset == 456 {
                header.crossFeedTransform = transform == -1 ? -1 : 1
            } else {
                header.feedTransform = transform == -1 ? -1 : 1
            }
        }
        try header.validate(limits: limits)
        guard value(388) == header.bitsPerPixel else {
            throw .badHeader(page: pageNumber, field: "BitsPerPixel", value: value(388))
        }
        let colors = value(420)
        guard colors == 0 || colors == colorSpace.colorCount else {
            throw .badHeader(page: pageNumber, field: "NumColors", value: colors)
        }
        return header
    }
}
