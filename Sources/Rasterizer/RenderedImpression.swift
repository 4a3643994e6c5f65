import ImageCheck

/// One printed side written as a PNG file, as the job record lists it.
public struct RenderedImpression: Sendable, Equatable {
    /// How the text of a side is obtained.
    public enum TextSource: String, Sendable {
        /// From the PDF pages' text, written beside the PNG during the render.
        case pdf
        /// By OCR of the PNG, on request (a raster or image page is on the side).
        case ocr
    }

    /// A document page placed on the side.
    public struct PlacedPage: Sendable, Equatable {
        /// 1-based document number in the job.
        public var document: Int
        /// 1-based page number in the document.
        public var page: Int
    }

    /// 1-based impression number.
    public var number: Int
    /// File name inside the job folder (`page-0001.png`).
    public var file: String
    /// 1-based sheet number.
    public var sheet: Int
    /// `front` or `back`.
    public var side: String
    /// The pages placed on the side, in presentation order.
    public var pages: [PlacedPage]
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Resolution in dots per inch.
    public var dpi: Int
    /// True for an RGB image, false for gray (monochrome or bi-level).
    public var color: Bool
    /// Blank or not, ink coverage, colored pixels, ink cut by the margins.
    public var facts: SideFacts
    /// Where the side's text comes from.
    public var textSource: TextSource

    /// The file name of impression `number`.
    public static func fileName(_ number: Int) -> String {
        baseName(number) + ".png"
    }

    /// The name of the text file of impression `number` (`page-0001.txt`).
    public static func textFileName(_ number: Int) -> String {
        baseName(number) + ".txt"
    }

    private static func baseName(_ number: Int) -> String {
        let digits = String(number)
        return "page-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
