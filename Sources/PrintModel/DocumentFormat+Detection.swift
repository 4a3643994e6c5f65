extension DocumentFormat {
    /// The leading bytes ``detect(_:)`` looks at: a PDF header may follow up to this many bytes of other data.
    public static let detectionLength = 1024
    /// Bytes after the `%PDF-` header in which the `%PCLm` comment line must start (it is the second line).
    public static let pclmMarkerWindow = 64

    /// The format of a document that starts with `prefix`, or nil when it is none vprinter knows.
    ///
    /// The one detector of vprinter: the printer names a stored document's format with it, and the render worker
    /// reads the document as what it finds. Magic numbers: JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, PWG
    /// Raster `RaS2` (PWG 5102.4), Apple Raster `UNIRAST\0`, PostScript `%!` or the DOS EPS header `C5 D0 D3 C6`,
    /// PCL `ESC E` or the UEL `ESC %-12345X`. PDF may follow up to ``detectionLength`` bytes of leading garbage, as
    /// readers accept (ISO 32000-1 annex H.3 note); a PDF whose header line is followed by a `%PCLm` comment line
    /// is PCLm.
    public static func detect(_ prefix: some Collection<UInt8>) -> DocumentFormat? {
        let bytes = Array(prefix.prefix(detectionLength))
        func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RaS2".utf8)) { return .pwgRaster }
        if starts(Array("UNIRAST".utf8) + [0]) { return .appleRaster }
        if starts(Array("%!".utf8)) || starts([0xC5, 0xD0, 0xD3, 0xC6]) { return .postScript }
        if let header = pdfHeaderOffset(bytes) {
            return hasPCLmMarker(bytes[header...]) ? .pclm : .pdf
        }
        if starts([0x1B, 0x45]) || starts(Array("\u{1B}%-12345X".utf8)) { return .pcl }
        return nil
    }

    /// Where the `%PDF-` header starts within the first ``detectionLength`` bytes, if it does.
    public static func pdfHeaderOffset(_ bytes: [UInt8]) -> Int? {
        let marker = Array("%PDF-".utf8)
        let window = bytes.prefix(detectionLength)
        guard window.count >= marker.count else { return nil }
        return (0...(window.count - marker.count)).first { start in
            window[start] == marker[0] && window[start..<(start + marker.count)].elementsEqual(marker)
        }
    }

    /// True when `bytes`, which start at a `%PDF-` header, hold a `%PCLm` comment at the start of a line within
    /// ``pclmMarkerWindow`` bytes.
    public static func hasPCLmMarker(_ bytes: some Collection<UInt8>) -> Bool {
        let window = Array(bytes.prefix(pclmMarkerWindow))
        let marker = Array("%PCLm".utf8)
        guard window.starts(with: Array("%PDF-".utf8)), window.count > marker.count else { return false }
        return (1...(window.count - marker.count)).contains { start in
            (window[start - 1] == 10 || window[start - 1] == 13)
                && window[start..<(start + marker.count)].elementsEqual(marker)
        }
    }
}
