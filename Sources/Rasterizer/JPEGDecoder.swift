import CJPEG
import Glibc
import PrintModel

/// Decodes a JPEG file (baseline or progressive; gray, YCbCr, RGB, CMYK, YCCK, Adobe-inverted CMYK) into a
/// ``PageImage`` through libjpeg, upright according to its EXIF orientation. Owns the libjpeg decoder.
final class JPEGDecoder {
    private let decoder: UnsafeMutablePointer<vprinter_jpeg>
    private let data: [UInt8]

    /// Decodes the file at `path`.
    static func decode(path: String, limits: RenderLimits) throws(RasterError) -> PageImage {
        let data = try FileContents.read(path: path, maximum: limits.maximumImageFileSize)
        return try JPEGDecoder(data: data).decode(limits: limits)
    }

    private init(data: [UInt8]) throws(RasterError) {
        guard let decoder = vprinter_jpeg_new() else {
            throw .libraryFailure(library: "libjpeg", message: "out of memory")
        }
        self.decoder = decoder
        self.data = data
    }

    deinit {
        vprinter_jpeg_free(decoder)
    }

    private var message: String {
        withUnsafeBytes(of: decoder.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private func decode(limits: RenderLimits) throws(RasterError) -> PageImage {
        let opened = data.withUnsafeBufferPointer { vprinter_jpeg_read_header(decoder, $0.baseAddress, UInt($0.count)) }
        guard opened == 1 else { throw .libraryFailure(library: "libjpeg", message: message) }
        let info = decoder.pointee.info
        let width = Int(info.image_width)
        let height = Int(info.image_height)
        try RenderLimits.check("maximum image width", width, limits.maximumDimension)
        try RenderLimits.check("maximum image height", height, limits.maximumDimension)
        try RenderLimits.check("maximum image pixels", width * height, limits.maximumImagePixels)
        let source = info.jpeg_color_space
        let isCMYK = source == JCS_CMYK || source == JCS_YCCK
        let isGray = source == JCS_GRAYSCALE
        let output = isCMYK ? JCS_CMYK : (isGray ? JCS_GRAYSCALE : JCS_RGB)
        guard vprinter_jpeg_start(decoder, output) == 1 else {
            throw .libraryFailure(library: "libjpeg", message: message)
        }
        let inverted = decoder.pointee.info.saw_Adobe_marker != 0
        var resolution = 72
        if info.density_unit == 1, info.X_density > 0 { resolution = Int(info.X_density) }
        if info.density_unit == 2, info.X_density > 0 { resolution = (Int(info.X_density) * 254 + 50) / 100 }
        var image = PageImage(
            width: width, height: height, isGray: isGray, resolutionX: resolution, resolutionY: resolution)
        let components = isCMYK ? 4 : image.channels
        var line = [UInt8](repeating: 0, count: width * components)
        for y in 0..<height {
            let ok = line.withUnsafeMutableBufferPointer { vprinter_jpeg_read_line(decoder, $0.baseAddress) }
            guard ok == 1 else { throw .libraryFailure(library: "libjpeg", message: message) }
            let rowStart = y * image.bytesPerRow
            if isCMYK {
                // Adobe writes CMYK inverted (255 = no ink); others write ink amounts.
                if inverted { for i in line.indices { line[i] = 255 - line[i] } }
                showInks(line, in: &image, row: y)
            } else {
                image.pixels.replaceSubrange(rowStart..<(rowStart + image.bytesPerRow), with: line)
            }
        }
        return image.oriented(ExifOrientation.read(markers: decoder.pointee.info.marker_list))
    }

    /// Writes a row of CMYK inks (0 = no ink) into `image` as light (``RasterPixelConverter/showInks``).
    private func showInks(_ inks: [UInt8], in image: inout PageImage, row: Int) {
        let rowStart = row * image.bytesPerRow
        let width = image.width
        image.pixels.withUnsafeMutableBytes { pixels in
            inks.withUnsafeBytes { inks in
                RasterPixelConverter.showInks(
                    inks.baseAddress!, into: pixels.baseAddress! + rowStart, count: width,
                    through: CMYKConversion.shared)
            }
        }
    }
}
