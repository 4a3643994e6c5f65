/// One printed side (impression) written as a PNG in the job's folder: the same value in the render worker's
/// `impression` line and in the job record's `impressions` (docs/job-record.md, docs/render-protocol.md).
public struct PrintedSide: Sendable, Hashable, Codable {
    /// Which side of the sheet.
    public enum Face: String, Sendable, Hashable, Codable {
        case front
        case back
    }

    /// How the text of a side is obtained.
    public enum TextSource: String, Sendable, Hashable, Codable {
        /// From the PDF pages' text, written beside the PNG during the render.
        case pdf
        /// By OCR of the PNG, on request (a raster or image page is on the side).
        case ocr
    }

    /// 1-based impression number.
    public var number: Int
    /// File name inside the job folder (`page-0001.png`).
    public var file: String
    /// 1-based sheet number.
    public var sheet: Int
    /// Front or back of the sheet.
    public var side: Face
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Resolution in dots per inch.
    public var dpi: Int
    /// True for an RGB image, false for gray (monochrome or bi-level).
    public var color: Bool
    /// The document pages placed on the side, in presentation order; nil in records of older versions.
    public var pages: [PlacedPage]?
    /// Blank or not, ink coverage, colored pixels, ink cut by the margins; nil in records of older versions.
    public var facts: SideFacts?
    /// Where the side's text comes from; nil in records of older versions.
    public var textSource: TextSource?

    public init(
        number: Int, file: String, sheet: Int, side: Face, width: Int, height: Int, dpi: Int, color: Bool,
        pages: [PlacedPage]? = nil, facts: SideFacts? = nil, textSource: TextSource? = nil
    ) {
        self.number = number
        self.file = file
        self.sheet = sheet
        self.side = side
        self.width = width
        self.height = height
        self.dpi = dpi
        self.color = color
        self.pages = pages
        self.facts = facts
        self.textSource = textSource
    }

    /// The file name of impression `number` (`page-0001.png`).
    public static func fileName(_ number: Int) -> String {
        baseName(number) + ".png"
    }

    /// The name of the text file of impression `number` (`page-0001.txt`).
    public static func textFileName(_ number: Int) -> String {
        baseName(number) + ".txt"
    }

    /// The text file of a side's PNG file name (`page-0001.png` -> `page-0001.txt`); nil for a name that is not a
    /// plain `.png` file name of the job's folder (a path, a hidden file, `.png` alone).
    public static func textFileName(forImage file: String) -> String? {
        guard file.hasSuffix(".png"), !file.hasPrefix("."), !file.contains("/"), file.count > 4 else { return nil }
        return String(file.dropLast(4)) + ".txt"
    }

    private static func baseName(_ number: Int) -> String {
        let digits = String(number)
        return "page-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    enum CodingKeys: String, CodingKey {
        case number, file, sheet, side, width, height, dpi, color, pages
        case textSource = "text-source"
    }

    /// The facts' keys sit beside the others (`blank`, `ink-coverage`, ...), as the record has them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        number = try c.decode(Int.self, forKey: .number)
        file = try c.decode(String.self, forKey: .file)
        sheet = try c.decodeIfPresent(Int.self, forKey: .sheet) ?? number
        side = try c.decodeIfPresent(Face.self, forKey: .side) ?? .front
        width = try c.decodeIfPresent(Int.self, forKey: .width) ?? 0
        height = try c.decodeIfPresent(Int.self, forKey: .height) ?? 0
        dpi = try c.decodeIfPresent(Int.self, forKey: .dpi) ?? 0
        color = try c.decodeIfPresent(Bool.self, forKey: .color) ?? false
        pages = try c.decodeIfPresent([PlacedPage].self, forKey: .pages)
        textSource = try c.decodeIfPresent(TextSource.self, forKey: .textSource)
        let factKeys = try decoder.container(keyedBy: SideFacts.CodingKeys.self)
        facts = factKeys.contains(.blank) ? try SideFacts(from: decoder) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(file, forKey: .file)
        try c.encode(sheet, forKey: .sheet)
        try c.encode(side, forKey: .side)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(dpi, forKey: .dpi)
        try c.encode(color, forKey: .color)
        try c.encodeIfPresent(pages, forKey: .pages)
        try c.encodeIfPresent(textSource, forKey: .textSource)
        try facts?.encode(to: encoder)
    }
}

/// A document page placed on a printed side: document number and page number, both from 1.
public struct PlacedPage: Sendable, Hashable, Codable {
    public var document: Int
    public var page: Int

    public init(document: Int, page: Int) {
        self.document = document
        self.page = page
    }
}
