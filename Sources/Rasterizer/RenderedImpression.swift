/// One printed side written as a PNG file, as the job record lists it.
public struct RenderedImpression: Sendable, Equatable, Codable {
    /// A document page placed on the side.
    public struct PlacedPage: Sendable, Equatable, Codable {
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

    /// The file name of impression `number`.
    public static func fileName(_ number: Int) -> String {
        let digits = String(number)
        return "page-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }
}
