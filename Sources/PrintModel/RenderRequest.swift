/// What the printer asks of the render worker, one JSON object on the worker's stdin (docs/render-protocol.md).
public struct RenderRequest: Sendable, Equatable, Codable {
    /// The protocol version both sides speak.
    public static let protocolVersion = 1

    /// What the worker is to do.
    public enum Operation: String, Sendable, Codable {
        /// Render the documents into `page-NNNN.png` files (the default when the request names none).
        case render
        /// Read the text of sides already rendered, by OCR.
        case recognizeText = "recognize-text"
        /// Make one scanned image (``RenderRequest/scan``): the answer is a `scanned` line, then the status.
        case scanPage = "scan-page"
    }

    /// A document to render.
    public struct Document: Sendable, Equatable, Codable {
        /// Path of the document file.
        public var path: String
        /// The format it is rendered as; nil or `application/octet-stream` to detect it.
        public var format: DocumentFormat?
        /// Its number in the job (what sides, warnings and page overrides name it by); nil: its place in the
        /// request, from 1. A job whose canceled documents are left out numbers the others as the job does.
        public var number: Int?

        public init(path: String, format: DocumentFormat? = nil, number: Int? = nil) {
            self.path = path
            self.format = format
            self.number = number
        }
    }

    /// A rendered side whose text is to be read.
    public struct Side: Sendable, Equatable, Codable {
        /// 1-based impression number.
        public var number: Int
        /// The PNG file's name in the folder (`page-0001.png`).
        public var file: String
        /// Its resolution, for the recognizer.
        public var dpi: Int

        public init(number: Int, file: String, dpi: Int) {
            self.number = number
            self.file = file
            self.dpi = dpi
        }
    }

    /// Memory and CPU limits the worker sets on itself (setrlimit).
    public struct ResourceLimits: Sendable, Equatable, Codable {
        /// RLIMIT_AS, bytes.
        public var addressSpace: Int?
        /// RLIMIT_CPU, seconds.
        public var cpuSeconds: Int?

        public init(addressSpace: Int?, cpuSeconds: Int?) {
            self.addressSpace = addressSpace
            self.cpuSeconds = cpuSeconds
        }

        enum CodingKeys: String, CodingKey {
            case addressSpace = "address-space"
            case cpuSeconds = "cpu-seconds"
        }
    }

    public var protocolVersion = Self.protocolVersion
    public var operation: Operation
    /// The job's folder: pages (and text files) are written there.
    public var folder: String
    /// The documents to render (``Operation/render``).
    public var documents: [Document]
    /// How to render them (``Operation/render``).
    public var ticket: JobTicket
    /// Bounds for hostile documents (``Operation/render``).
    public var limits: RenderLimits
    /// The sides to read (``Operation/recognizeText``).
    public var sides: [Side]
    /// Tesseract language names joined by `+` (``Operation/recognizeText``); nil for the worker's default.
    public var languages: String?
    /// Threads working on one job; nil for one per core.
    public var threads: Int?
    public var resourceLimits: ResourceLimits?
    /// The image to make (``Operation/scanPage``).
    public var scan: ScanPage?

    /// A render request.
    public static func render(
        folder: String, documents: [Document], ticket: JobTicket, limits: RenderLimits = RenderLimits(),
        threads: Int? = nil, resourceLimits: ResourceLimits? = nil
    ) -> RenderRequest {
        RenderRequest(
            operation: .render, folder: folder, documents: documents, ticket: ticket, limits: limits, sides: [],
            languages: nil, threads: threads, resourceLimits: resourceLimits)
    }

    /// A request to read the text of rendered sides.
    public static func recognizeText(
        folder: String, sides: [Side], languages: String? = nil, threads: Int? = nil,
        resourceLimits: ResourceLimits? = nil
    ) -> RenderRequest {
        RenderRequest(
            operation: .recognizeText, folder: folder, documents: [], ticket: JobTicket(), limits: RenderLimits(),
            sides: sides, languages: languages, threads: threads, resourceLimits: resourceLimits)
    }

    /// A request to make one scanned image; its `folder` is the one the image is written into, and `limits`
    /// bound the image and its source file as they bound a render (docs/render-protocol.md, "Scanned images").
    public static func scanPage(
        _ page: ScanPage, limits: RenderLimits = RenderLimits(), resourceLimits: ResourceLimits? = nil
    ) -> RenderRequest {
        var request = RenderRequest(
            operation: .scanPage, folder: folder(of: page.outputPath), documents: [], ticket: JobTicket(),
            limits: limits, sides: [], languages: nil, threads: 1, resourceLimits: resourceLimits)
        request.scan = page
        return request
    }

    /// The folder part of `path` (`.` for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case operation, folder, documents, ticket, limits, sides, languages, threads
        case resourceLimits = "rlimits"
        case scan
    }

    /// Every key but `protocol` and `folder` may be left out: the defaults of the operation are taken.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try c.decode(Int.self, forKey: .protocolVersion)
        operation = try c.decodeIfPresent(Operation.self, forKey: .operation) ?? .render
        folder = try c.decode(String.self, forKey: .folder)
        documents = try c.decodeIfPresent([Document].self, forKey: .documents) ?? []
        ticket = try c.decodeIfPresent(JobTicket.self, forKey: .ticket) ?? JobTicket()
        limits = try c.decodeIfPresent(RenderLimits.self, forKey: .limits) ?? RenderLimits()
        sides = try c.decodeIfPresent([Side].self, forKey: .sides) ?? []
        languages = try c.decodeIfPresent(String.self, forKey: .languages)
        threads = try c.decodeIfPresent(Int.self, forKey: .threads)
        resourceLimits = try c.decodeIfPresent(ResourceLimits.self, forKey: .resourceLimits)
        scan = try c.decodeIfPresent(ScanPage.self, forKey: .scan)
    }

    private init(
        operation: Operation, folder: String, documents: [Document], ticket: JobTicket, limits: RenderLimits,
        sides: [Side], languages: String?, threads: Int?, resourceLimits: ResourceLimits?
    ) {
        self.operation = operation
        self.folder = folder
        self.documents = documents
        self.ticket = ticket
        self.limits = limits
        self.sides = sides
        self.languages = languages
        self.threads = threads
        self.resourceLimits = resourceLimits
    }
}
