/// The formats the renderer reads, detected from the first bytes of a document (application/octet-stream is
/// resolved this way too).
public enum DocumentFormat: String, Sendable, CaseIterable {
    case pdf = "application/pdf"
    case jpeg = "image/jpeg"
    case png = "image/png"
    case pwgRaster = "image/pwg-raster"
    case appleRaster = "image/urf"
    case postScript = "application/postscript"
    /// PCLm (Wi-Fi Direct Print Services / Mopria): a PDF subset, told from PDF by its `%PCLm` comment.
    case pclm = "application/PCLm"

    /// Bytes ``detect(_:)`` needs to decide.
    public static let signatureLength = 1024

    /// The format of data that starts with `bytes`, or nil when it is none of them.
    ///
    /// PDF may follow up to 1 KB of leading garbage, as readers accept (ISO 32000-1 annex H.3 note); a PDF whose
    /// header is followed by the `%PCLm` comment is PCLm. The others must start with their signature.
    public static func detect(_ bytes: [UInt8]) -> DocumentFormat? {
        func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RaS2".utf8)) { return .pwgRaster }
        if starts(Array("UNIRAST\0".utf8)) { return .appleRaster }
        if starts(Array("%!".utf8)) || starts([0xC5, 0xD0, 0xD3, 0xC6]) { return .postScript }
        let marker = Array("%PDF-".utf8)
        let window = bytes.prefix(signatureLength)
        if window.count >= marker.count {
            for start in 0...(window.count - marker.count) where window[start] == 0x25 {
                if window[start..<(start + marker.count)].elementsEqual(marker) {
                    return PCLmStructure.hasMarker(window[start...]) ? .pclm : .pdf
                }
            }
        }
        return nil
    }

    /// The format of the file at `path`.
    public static func detect(path: String) throws(RasterError) -> DocumentFormat? {
        detect(try FileContents.prefix(path: path, count: signatureLength))
    }

    /// File name extension for a document kept in this format.
    public var fileExtension: String {
        switch self {
        case .pdf: "pdf"
        case .jpeg: "jpg"
        case .png: "png"
        case .pwgRaster: "pwg"
        case .appleRaster: "urf"
        case .postScript: "ps"
        case .pclm: "pclm"
        }
    }
}
