/// One image a scan job delivers, as the printer asks the render worker to make it (render protocol operation
/// `scan-page`, docs/render-protocol.md): what lies on the glass (a page of a source file, or the generated test
/// chart), the part of it that is scanned, and how.
public struct ScanPage: Sendable, Equatable, Codable {
    /// How the image's pixels are sampled (eSCL ColorMode).
    public enum ColorMode: String, Sendable, Codable, CaseIterable {
        case rgb24 = "RGB24"
        case grayscale8 = "Grayscale8"
        case blackAndWhite1 = "BlackAndWhite1"
    }

    /// The file format of the image (eSCL DocumentFormat).
    public enum Format: String, Sendable, Codable, CaseIterable {
        case jpeg = "image/jpeg"
        case png = "image/png"
        case pdf = "application/pdf"

        /// The file name extension of an image in this format.
        public var fileExtension: String {
            switch self {
            case .jpeg: "jpg"
            case .png: "png"
            case .pdf: "pdf"
            }
        }
    }

    /// A rectangle on the glass in three-hundredths of an inch, from the top left corner (eSCL ScanRegion).
    public struct Region: Sendable, Equatable, Codable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// What the generated test chart prints, so that a test can tell which image it received.
    public struct ChartLabel: Sendable, Equatable, Codable {
        /// The scan job's number.
        public var job: Int
        /// The image's number in the job, from 1.
        public var image: Int
        /// `Platen` or `Feeder`.
        public var source: String
        /// `front` or `back` (a duplex feeder's second side).
        public var side: String

        public init(job: Int, image: Int, source: String, side: String) {
            self.job = job
            self.image = image
            self.source = source
            self.side = side
        }

        enum CodingKeys: String, CodingKey {
            case job, image, source, side
        }
    }

    /// The source file lying on the glass (PDF, PNG or JPEG); nil: the generated test chart.
    public var sourcePath: String?
    /// The page of a PDF source, from 1 (ignored for images and the chart).
    public var sourcePage: Int
    /// The size of the glass or sheet the source is laid on, in three-hundredths of an inch: a source page is
    /// fitted into it at its top left corner, and the chart fills it.
    public var sheetWidth: Int
    public var sheetHeight: Int
    /// The part of the sheet scanned.
    public var region: Region
    /// Dots per inch, the same across and down.
    public var resolution: Int
    public var colorMode: ColorMode
    public var format: Format
    /// What the chart prints (used only when ``sourcePath`` is nil).
    public var label: ChartLabel
    /// Where the image is written (a path in the scan job's folder).
    public var outputPath: String

    public init(
        sourcePath: String?, sourcePage: Int = 1, sheetWidth: Int, sheetHeight: Int, region: Region,
        resolution: Int, colorMode: ColorMode, format: Format, label: ChartLabel, outputPath: String
    ) {
        self.sourcePath = sourcePath
        self.sourcePage = sourcePage
        self.sheetWidth = sheetWidth
        self.sheetHeight = sheetHeight
        self.region = region
        self.resolution = resolution
        self.colorMode = colorMode
        self.format = format
        self.label = label
        self.outputPath = outputPath
    }

    enum CodingKeys: String, CodingKey {
        case sourcePath = "source-path", sourcePage = "source-page"
        case sheetWidth = "sheet-width", sheetHeight = "sheet-height"
        case region, resolution, colorMode = "color-mode", format, label
        case outputPath = "output-path"
    }

    /// The image's size in pixels: the region at the resolution.
    public var pixelWidth: Int { max(1, (region.width * resolution + 150) / 300) }
    public var pixelHeight: Int { max(1, (region.height * resolution + 150) / 300) }
}

/// An image the worker made for a scan job: its file and size.
public struct ScannedImage: Sendable, Equatable, Codable {
    /// The path written (``ScanPage/outputPath``).
    public var path: String
    public var width: Int
    public var height: Int
    /// Its size in bytes.
    public var bytes: Int

    public init(path: String, width: Int, height: Int, bytes: Int) {
        self.path = path
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
