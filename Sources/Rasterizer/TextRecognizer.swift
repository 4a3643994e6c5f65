import CTesseract
import PrintModel

/// Tesseract OCR for one thread: owns a TessBaseAPI with its language data loaded, and frees it in `deinit`. The
/// library itself is loaded on first use (``TesseractLibrary``).
final class TextRecognizer {
    /// Sides printed below this resolution are enlarged to twice their size first: Tesseract reads text best
    /// at about 300 dpi, and 150 dpi sides lose most of their small print otherwise.
    static let enlargeBelowDPI = 200

    private let api: TesseractLibrary
    private let handle: OpaquePointer

    /// Loads the language data of `languages` (Tesseract's names joined by `+`, e.g. `eng` or `eng+deu`).
    init(languages: String) throws(RasterError) {
        api = try TesseractLibrary.shared.get()
        guard let handle = api.create() else {
            throw .libraryFailure(library: "tesseract", message: "cannot create an OCR engine")
        }
        guard api.initialize(handle, nil, languages) == 0 else {
            api.delete(handle)
            throw .libraryFailure(
                library: "tesseract", message: "cannot load the OCR language data '\(languages)' (tesseract-ocr-eng)")
        }
        api.setPageSegMode(handle, PSM_AUTO)
        self.handle = handle
    }

    deinit {
        api.end(handle)
        api.delete(handle)
    }

    /// The text of an 8-bit gray image (0 = black) of `width` x `height` pixels at `resolution` dpi.
    func recognize(gray: [UInt8], width: Int, height: Int, resolution: Int) throws(RasterError) -> String {
        var (pixels, w, h, dpi) = (gray, width, height, resolution)
        if resolution < Self.enlargeBelowDPI {
            pixels = Self.doubled(gray, width: width, height: height)
            (w, h, dpi) = (width * 2, height * 2, resolution * 2)
        }
        pixels.withUnsafeBufferPointer { buffer in
            api.setImage(handle, buffer.baseAddress, Int32(w), Int32(h), 1, Int32(w))
        }
        api.setSourceResolution(handle, Int32(max(1, dpi)))
        defer { api.clear(handle) }
        guard api.recognize(handle, nil) == 0, let text = api.utf8Text(handle) else {
            throw .libraryFailure(library: "tesseract", message: "OCR failed on a \(w) x \(h) image")
        }
        defer { api.deleteText(text) }
        return String(cString: text)
    }

    /// The image at twice its size: even rows and columns repeat a source pixel, odd ones average it with the
    /// next (linear interpolation, a quarter of a pixel off, which OCR does not notice).
    static func doubled(_ gray: [UInt8], width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return gray }
        let doubledWidth = width * 2
        var result = [UInt8](repeating: 255, count: doubledWidth * height * 2)
        gray.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<(height * 2) {
                    let y0 = y / 2
                    let y1 = y % 2 == 1 ? min(height - 1, y0 + 1) : y0
                    for x in 0..<doubledWidth {
                        let x0 = x / 2
                        let x1 = x % 2 == 1 ? min(width - 1, x0 + 1) : x0
                        let sum =
                            Int(source[y0 * width + x0]) + Int(source[y0 * width + x1]) + Int(source[y1 * width + x0])
                            + Int(source[y1 * width + x1])
                        target[y * doubledWidth + x] = UInt8((sum + 2) / 4)
                    }
                }
            }
        }
        return result
    }
}
