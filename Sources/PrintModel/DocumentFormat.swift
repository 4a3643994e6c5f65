/// A document format, by its MIME media type (IPP `document-format`, RFC 8011 section 5.4.21).
///
/// An open set: any type a client declares survives as it was sent; the formats vprinter knows by their bytes
/// are static members, and ``detect(_:)`` finds them in a document's first bytes.
public struct DocumentFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The MIME media type, as declared or as vprinter names a detected format (`application/PCLm`).
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A format named by its MIME media type: `"application/pdf"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// PDF (ISO 32000).
    public static let pdf = Self(rawValue: "application/pdf")
    /// PCLm (Wi-Fi Direct Print Services / Mopria): a PDF subset, told from PDF by its `%PCLm` comment.
    public static let pclm = Self(rawValue: "application/PCLm")
    /// PostScript (and EPS).
    public static let postScript = Self(rawValue: "application/postscript")
    /// JPEG (JFIF or Exif).
    public static let jpeg = Self(rawValue: "image/jpeg")
    /// PNG.
    public static let png = Self(rawValue: "image/png")
    /// PWG Raster (PWG 5102.4).
    public static let pwgRaster = Self(rawValue: "image/pwg-raster")
    /// Apple Raster (URF).
    public static let appleRaster = Self(rawValue: "image/urf")
    /// HP PCL, recognised so that it is named, never rendered.
    public static let pcl = Self(rawValue: "application/vnd.hp-pcl")
    /// Plain text.
    public static let plainText = Self(rawValue: "text/plain")
    /// "Detect it from the data" (RFC 8011 section 5.4.21 note).
    public static let octetStream = Self(rawValue: "application/octet-stream")

    /// The formats the render worker turns into pages.
    public static let renderable: [DocumentFormat] = [.pdf, .pclm, .postScript, .jpeg, .png, .pwgRaster, .appleRaster]

    /// True when both name the same media type: MIME types compare without regard to case (RFC 2045 section 5.1).
    public func matches(_ other: DocumentFormat) -> Bool {
        rawValue.lowercased() == other.rawValue.lowercased()
    }

    /// True when this, the format a document was declared as, is contradicted by the format found in its data:
    /// application/octet-stream asks the printer to find out, and a PCLm file is also a PDF.
    public func isContradicted(byDetected detected: DocumentFormat) -> Bool {
        !matches(.octetStream) && !matches(detected) && !(matches(.pdf) && detected.matches(.pclm))
    }

    /// The known format this type names, whatever its case (`application/pclm` is ``pclm``); else self.
    public var canonical: DocumentFormat {
        Self.named.first { $0.matches(self) } ?? self
    }

    /// True for a format the render worker reads.
    public var isRenderable: Bool { Self.renderable.contains(canonical) }

    /// The file name extension a stored document in this format gets (`document-1.pdf`); `bin` when unknown.
    public var fileExtension: String {
        switch canonical {
        case .pdf: "pdf"
        case .pclm: "pclm"
        case .postScript: "ps"
        case .jpeg: "jpg"
        case .png: "png"
        case .pwgRaster: "pwg"
        case .appleRaster: "urf"
        case .pcl: "pcl"
        case .plainText: "txt"
        default: "bin"
        }
    }

    private static let named: [DocumentFormat] = renderable + [.pcl, .plainText, .octetStream]
}
