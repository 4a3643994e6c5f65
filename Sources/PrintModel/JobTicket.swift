/// The job ticket values that change how a job is rendered (RFC 8011 section 5.2, PWG 5100.13, PWG 5100.14).
///
/// Lengths are in hundredths of a millimetre, as IPP's media-col gives them.
public struct JobTicket: Sendable, Equatable {
    /// When true and the first document is PWG or Apple Raster, the sheet takes that raster's page size (the job
    /// asked for no media: a printer prints a raster page on the size it was made for).
    public var mediaFromDocument = false
    /// Media width (media-size x-dimension).
    public var mediaWidth = 21_590
    /// Media length (media-size y-dimension).
    public var mediaHeight = 27_940
    /// media-top-margin.
    public var topMargin = 0
    /// media-bottom-margin.
    public var bottomMargin = 0
    /// media-left-margin.
    public var leftMargin = 0
    /// media-right-margin.
    public var rightMargin = 0
    /// sides.
    public var sides = Sides.oneSided
    /// number-up: 1, 2, 4, 6, 9 or 16.
    public var numberUp = 1
    /// presentation-direction-number-up.
    public var presentationDirection = PresentationDirection.toRightToBottom
    /// copies: counted, not rendered again.
    public var copies = 1
    /// print-color-mode.
    public var colorMode = ColorMode.color
    /// print-scaling.
    public var scaling = Scaling.auto
    /// orientation-requested; nil lets landscape pages turn automatically.
    public var orientation: Orientation?
    /// page-ranges, 1-based and inclusive; empty means every page.
    public var pageRanges: [PageRange] = []
    /// Render resolution in dots per inch (from print-quality / printer-resolution, capped by the printer).
    public var resolution = 150
    /// When set, a job whose first document is PWG or Apple Raster renders at that raster's own resolution,
    /// capped by this value, instead of at ``resolution``.
    public var rasterMaximumResolution: Int?
    /// document-password for encrypted PDF.
    public var password: String?
    /// How the printer wants back sides of Apple Raster pages (its urf-supported DM value, as a
    /// pwg-raster-document-sheet-back keyword); PWG Raster pages say it in their own headers.
    public var sheetBack = SheetBack.normal
    /// multiple-document-handling.
    public var multipleDocumentHandling = MultipleDocumentHandling.separateDocumentsUncollatedCopies
    /// Pages that print with other media, sides or orientation (PWG 5100.6 overrides), in the job's order.
    public var overrides: [PageOverride] = []

    /// The defaults: US Letter, borderless, one-sided, 150 dpi.
    public init() {}
}

/// sides (RFC 8011 section 5.2.8).
public enum Sides: String, Sendable, Codable, CaseIterable {
    case oneSided = "one-sided"
    case twoSidedLongEdge = "two-sided-long-edge"
    case twoSidedShortEdge = "two-sided-short-edge"
}

/// print-color-mode (PWG 5100.13 section 6.2.3).
public enum ColorMode: String, Sendable, Codable, CaseIterable {
    case color
    case monochrome
    case biLevel = "bi-level"
}

/// print-scaling (PWG 5100.13 section 6.2.5).
public enum Scaling: String, Sendable, Codable, CaseIterable {
    case auto
    case autoFit = "auto-fit"
    case fit
    case fill
    case none
}

/// orientation-requested (RFC 8011 section 5.2.10).
public enum Orientation: String, Sendable, Codable, CaseIterable {
    case portrait
    case landscape
    case reverseLandscape = "reverse-landscape"
    case reversePortrait = "reverse-portrait"
}

/// presentation-direction-number-up (PWG 5100.3 section 3.13.6).
public enum PresentationDirection: String, Sendable, Codable, CaseIterable {
    case toRightToBottom = "toright-tobottom"
    case toBottomToRight = "tobottom-toright"
    case toLeftToBottom = "toleft-tobottom"
    case toBottomToLeft = "tobottom-toleft"
    case toRightToTop = "toright-totop"
    case toTopToRight = "totop-toright"
    case toLeftToTop = "toleft-totop"
    case toTopToLeft = "totop-toleft"
}

/// pwg-raster-document-sheet-back (PWG 5102.4 section 4.4): how a client lays out the back of a two-sided sheet.
public enum SheetBack: String, Sendable, Codable, CaseIterable {
    case normal
    case flipped
    case rotated
    case manualTumble = "manual-tumble"
}

/// multiple-document-handling (RFC 8011 section 5.2.4).
public enum MultipleDocumentHandling: String, Sendable, Codable, CaseIterable {
    case singleDocument = "single-document"
    case singleDocumentNewSheet = "single-document-new-sheet"
    case separateDocumentsCollatedCopies = "separate-documents-collated-copies"
    case separateDocumentsUncollatedCopies = "separate-documents-uncollated-copies"
}

/// One range of page-ranges (rangeOfInteger), 1-based, inclusive.
public struct PageRange: Sendable, Equatable, Codable {
    /// First page of the range.
    public var lower: Int
    /// Last page of the range.
    public var upper: Int

    /// The pages `lower` through `upper`.
    public init(lower: Int, upper: Int) {
        self.lower = lower
        self.upper = upper
    }
}
