/// Bounds that keep rendering of hostile documents within memory and time.
///
/// Each default is a named constant with a test that crosses it. The worker request may lower or raise them.
public struct RenderLimits: Sendable, Equatable {
    /// Largest width or height of a raster page or image in pixels (a 600 dpi A0 sheet is 28,087 pixels tall).
    public static let defaultMaximumDimension = 32_768
    /// Largest number of pixels of one raster page (600 dpi A0 is about 558 million).
    public static let defaultMaximumPagePixels = 600_000_000
    /// Largest number of pixels of a decoded JPEG or PNG image, which is held in memory as a whole
    /// (96 M pixels = 288 MB as RGB).
    public static let defaultMaximumImagePixels = 96_000_000
    /// Largest number of pages in one job, all its documents together (`--max-pages`).
    public static let defaultMaximumPages = 1_000
    /// Largest resolution of a raster page or of a rendered sheet, in dots per inch.
    public static let defaultMaximumResolution = 2_400
    /// Largest JPEG file, which libjpeg reads from memory (256 MB).
    public static let defaultMaximumImageFileSize = 256 * 1024 * 1024
    /// Largest number of pixels of one rendered sheet, which is held in memory as a whole (4 bytes a pixel).
    public static let defaultMaximumSheetPixels = 40_000_000
    /// Longest a PostScript document may be interpreted (Ghostscript, wall-clock seconds); a program that loops
    /// forever is stopped then.
    public static let defaultMaximumInterpreterSeconds = 300
    /// Most memory the PostScript interpreter may allocate (Ghostscript `-K`, bytes): 1 GiB.
    public static let defaultMaximumInterpreterMemory = 1 << 30

    /// See ``defaultMaximumDimension``.
    public var maximumDimension = Self.defaultMaximumDimension
    /// See ``defaultMaximumPagePixels``.
    public var maximumPagePixels = Self.defaultMaximumPagePixels
    /// See ``defaultMaximumImagePixels``.
    public var maximumImagePixels = Self.defaultMaximumImagePixels
    /// See ``defaultMaximumPages``.
    public var maximumPages = Self.defaultMaximumPages
    /// See ``defaultMaximumResolution``.
    public var maximumResolution = Self.defaultMaximumResolution
    /// See ``defaultMaximumImageFileSize``.
    public var maximumImageFileSize = Self.defaultMaximumImageFileSize
    /// See ``defaultMaximumSheetPixels``.
    public var maximumSheetPixels = Self.defaultMaximumSheetPixels
    /// See ``defaultMaximumInterpreterSeconds``.
    public var maximumInterpreterSeconds = Self.defaultMaximumInterpreterSeconds
    /// See ``defaultMaximumInterpreterMemory``.
    public var maximumInterpreterMemory = Self.defaultMaximumInterpreterMemory

    /// The defaults.
    public init() {}

}

/// The limits in the render request (docs/render-protocol.md), every key optional on reading.
extension RenderLimits: Codable {
    enum CodingKeys: String, CodingKey {
        case maximumDimension = "max-dimension"
        case maximumPagePixels = "max-page-pixels"
        case maximumImagePixels = "max-image-pixels"
        case maximumPages = "max-pages"
        case maximumResolution = "max-dpi"
        case maximumSheetPixels = "max-sheet-pixels"
        case maximumImageFileSize = "max-image-file-size"
        case maximumInterpreterSeconds = "max-interpreter-seconds"
        case maximumInterpreterMemory = "max-interpreter-memory"
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumDimension) { maximumDimension = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumPagePixels) { maximumPagePixels = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumImagePixels) { maximumImagePixels = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumPages) { maximumPages = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumResolution) { maximumResolution = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumSheetPixels) { maximumSheetPixels = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumImageFileSize) { maximumImageFileSize = v }
        // Zero or less leaves the interpreter's default.
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumInterpreterSeconds), v > 0 {
            maximumInterpreterSeconds = v
        }
        if let v = try c.decodeIfPresent(Int.self, forKey: .maximumInterpreterMemory), v > 0 {
            maximumInterpreterMemory = v
        }
    }
}
