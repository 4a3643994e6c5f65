/// Something wrong with a job that still printed: reported with the job (its record's `warnings`), never a
/// reason to fail it (docs/job-record.md). The render worker sends them as `warning` lines.
public struct JobWarning: Sendable, Hashable, Codable {
    /// What kind of problem it is; an open set, so that a record of a later version still reads.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// Poppler reported a syntax error, an I/O error or an unimplemented feature while reading the PDF.
        public static let pdf = Self(rawValue: "pdf")
        /// A PWG or Apple Raster page was made for another size than the job's media.
        public static let rasterPageSize = Self(rawValue: "raster-page-size")
        /// A PWG or Apple Raster page asks for other sides (Duplex, Tumble) than the job prints with.
        public static let rasterDuplex = Self(rawValue: "raster-duplex")
        /// The data is in another format than the client declared.
        public static let documentFormat = Self(rawValue: "document-format")
        /// A PDF uses a font it does not embed: the message names the font asked for and the font printed instead.
        public static let fontSubstituted = Self(rawValue: "font-substituted")
    }

    public var kind: Kind
    /// The 1-based document it concerns, when one.
    public var document: Int?
    /// The 1-based page of that document, when the problem is on one page.
    public var page: Int?
    /// What is wrong, for a person.
    public var message: String

    public init(kind: Kind, document: Int? = nil, page: Int? = nil, message: String) {
        self.kind = kind
        self.document = document
        self.page = page
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case kind, document, page, message
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .init(rawValue: "document")
        document = try c.decodeIfPresent(Int.self, forKey: .document)
        page = try c.decodeIfPresent(Int.self, forKey: .page)
        message = try c.decode(String.self, forKey: .message)
    }
}
