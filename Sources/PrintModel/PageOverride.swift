/// What a job prints differently on some pages (PWG 5100.6 section 6.1, `overrides`): media, sides or
/// orientation for the pages and documents it names. Everything it does not set is the job's.
public struct PageOverride: Sendable, Equatable, Codable {
    /// A sheet size and its margins, in hundredths of a millimetre.
    public struct Media: Sendable, Hashable, Codable {
        public var width: Int
        public var height: Int
        public var topMargin: Int
        public var bottomMargin: Int
        public var leftMargin: Int
        public var rightMargin: Int

        public init(width: Int, height: Int, topMargin: Int, bottomMargin: Int, leftMargin: Int, rightMargin: Int) {
            self.width = width
            self.height = height
            self.topMargin = topMargin
            self.bottomMargin = bottomMargin
            self.leftMargin = leftMargin
            self.rightMargin = rightMargin
        }

        enum CodingKeys: String, CodingKey {
            case width = "media-width", height = "media-height"
            case topMargin = "media-top-margin", bottomMargin = "media-bottom-margin"
            case leftMargin = "media-left-margin", rightMargin = "media-right-margin"
        }
    }

    /// The documents (1-based) whose pages it changes; empty: every document.
    public var documents: [PageRange]
    /// The pages (1-based, counted in each document) it changes; empty: every page of those documents.
    public var pages: [PageRange]
    public var media: Media?
    public var sides: Sides?
    public var orientation: Orientation?

    public init(
        documents: [PageRange] = [], pages: [PageRange] = [], media: Media? = nil, sides: Sides? = nil,
        orientation: Orientation? = nil
    ) {
        self.documents = documents
        self.pages = pages
        self.media = media
        self.sides = sides
        self.orientation = orientation
    }

    enum CodingKeys: String, CodingKey {
        case documents = "document-numbers", pages, media, sides, orientation = "orientation-requested"
    }

    /// True when it changes page `page` of document `document`.
    public func applies(document: Int, page: Int) -> Bool {
        func within(_ ranges: [PageRange], _ number: Int) -> Bool {
            ranges.isEmpty || ranges.contains { $0.lower <= number && number <= $0.upper }
        }
        return within(documents, document) && within(pages, page)
    }
}

extension JobTicket {
    /// The ticket page `page` of document `document` prints with: the job's, changed by the first of
    /// ``overrides`` that names the page (PWG 5100.6 leaves overlapping overrides undefined; the first wins).
    public func forPage(document: Int, page: Int) -> JobTicket {
        guard let override = overrides.first(where: { $0.applies(document: document, page: page) }) else {
            return self
        }
        var ticket = self
        if let media = override.media {
            ticket.mediaFromDocument = false
            (ticket.mediaWidth, ticket.mediaHeight) = (media.width, media.height)
            (ticket.topMargin, ticket.bottomMargin) = (media.topMargin, media.bottomMargin)
            (ticket.leftMargin, ticket.rightMargin) = (media.leftMargin, media.rightMargin)
        }
        if let sides = override.sides { ticket.sides = sides }
        if let orientation = override.orientation { ticket.orientation = orientation }
        return ticket
    }
}
