/// Document formats known by their bytes, and the file extension each is stored with.
public enum DocumentFormat {
    /// The MIME media type the leading bytes show, or nil when they match no known format.
    ///
    /// Magic numbers: PDF `%PDF-`, PCLm `%PDF-` followed by a `%PCLm` comment line (a PDF subset), PostScript
    /// `%!`, JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, PWG Raster `RaS2` (PWG 5102.4), Apple Raster
    /// `UNIRAST\0`, PCL `ESC E` / `ESC %-12345X`. The render worker's detection (Rasterizer) agrees.
    public static func detect(_ prefix: some Collection<UInt8>) -> String? {
        let bytes = Array(prefix.prefix(detectionLength))
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && Array(bytes[0..<magic.count]) == magic }
        if starts(Array("%PDF-".utf8)) { return isPCLm(bytes) ? "application/PCLm" : "application/pdf" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("RaS2".utf8)) { return "image/pwg-raster" }
        if starts(Array("UNIRAST".utf8) + [0]) { return "image/urf" }
        if starts(Array("%!".utf8)) { return "application/postscript" }
        if starts([0x1B, 0x45]) || starts(Array("\u{1B}%-12345X".utf8)) { return "application/vnd.hp-pcl" }
        return nil
    }

    /// The number of leading bytes `detect` needs: enough for a PDF header line and the `%PCLm 1.0` line after it.
    public static let detectionLength = 64

    /// A `%PCLm` comment at the start of a line after the PDF header line.
    static func isPCLm(_ bytes: [UInt8]) -> Bool {
        let marker = Array("%PCLm".utf8)
        guard bytes.count > marker.count else { return false }
        return (1...(bytes.count - marker.count)).contains { start in
            (bytes[start - 1] == 10 || bytes[start - 1] == 13) && Array(bytes[start..<(start + marker.count)]) == marker
        }
    }

    /// The extension a stored document gets for its (detected or declared) format.
    public static func fileExtension(for format: String?) -> String {
        switch format?.lowercased() {
        case "application/pdf": "pdf"
        case "application/pclm": "pclm"
        case "image/jpeg": "jpg"
        case "image/png": "png"
        case "image/pwg-raster": "pwg"
        case "image/urf": "urf"
        case "application/postscript": "ps"
        case "application/vnd.hp-pcl": "pcl"
        case "text/plain": "txt"
        default: "bin"
        }
    }
}
