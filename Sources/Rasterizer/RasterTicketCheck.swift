import PrintModel

/// Compares the pages of a PWG or Apple Raster document with the job ticket and reports, once per document and
/// kind, pages made for another media size or other sides than the job prints with. The job still prints as
/// its ticket says.
struct RasterTicketCheck {
    /// Page and media sizes within this many hundredths of a millimetre agree.
    static let sizeTolerance = JobWarning.pageSizeTolerance

    let ticket: JobTicket
    let document: Int
    let log: WarningLog
    private var reportedSize = false
    private var reportedSides = false

    init(ticket: JobTicket, document: Int, log: WarningLog) {
        self.ticket = ticket
        self.document = document
        self.log = log
    }

    mutating func check(_ header: RasterPageHeader, page: Int) {
        // With media from the document the sheet is the page's own size: nothing to disagree with.
        if !ticket.mediaFromDocument, !reportedSize, header.resolutionX > 0, header.resolutionY > 0 {
            let width = header.width * 2540 / header.resolutionX
            let height = header.height * 2540 / header.resolutionY
            func close(_ a: Int, _ b: Int) -> Bool { abs(a - b) <= Self.sizeTolerance }
            let matches =
                (close(width, ticket.mediaWidth) && close(height, ticket.mediaHeight))
                || (close(width, ticket.mediaHeight) && close(height, ticket.mediaWidth))
            if !matches {
                reportedSize = true
                let named = header.pageSizeName.isEmpty ? "" : " (\(header.pageSizeName))"
                log.report(
                    JobWarning(
                        kind: .rasterPageSize, document: document, page: page,
                        message:
                            "page \(page) is \(Self.millimetres(width)) x \(Self.millimetres(height)) mm\(named) but "
                            + "the job prints on \(Self.millimetres(ticket.mediaWidth)) x "
                            + "\(Self.millimetres(ticket.mediaHeight)) mm media"))
            }
        }
        if !reportedSides {
            let pageSides: Sides =
                header.duplex ? (header.tumble ? .twoSidedShortEdge : .twoSidedLongEdge) : .oneSided
            if pageSides != ticket.sides {
                reportedSides = true
                log.report(
                    JobWarning(
                        kind: .rasterDuplex, document: document, page: page,
                        message:
                            "page \(page) was made for \(pageSides.rawValue) (Duplex \(header.duplex), Tumble "
                            + "\(header.tumble)) but the job prints \(ticket.sides.rawValue)"))
            }
        }
    }

    /// Hundredths of a millimetre as millimetres with one decimal.
    static func millimetres(_ value: Int) -> String {
        let tenths = (value + 5) / 10
        return "\(tenths / 10).\(tenths % 10)"
    }
}
