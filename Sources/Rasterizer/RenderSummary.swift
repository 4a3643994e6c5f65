import PrintModel

/// The counts of a rendered job (PWG 5100.11 / RFC 8011 job-impressions, job-media-sheets, job-pages).
public struct RenderSummary: Sendable, Equatable, Codable {
    /// Sides rendered (once, whatever the number of copies).
    public var impressions = 0
    /// Sheets used by one copy.
    public var sheets = 0
    /// Document pages placed by one copy.
    public var pages = 0
    /// copies.
    public var copies = 1
    /// Pages of each document (all pages, before page-ranges).
    public var documentPages: [Int] = []
    /// The detected format of each document.
    public var documentFormats: [DocumentFormat] = []

    /// job-impressions: sides of all copies.
    public var jobImpressions: Int { impressions * copies }
    /// job-media-sheets: sheets of all copies.
    public var jobMediaSheets: Int { sheets * copies }
    /// job-pages: document pages of all copies.
    public var jobPages: Int { pages * copies }
}
