import Testing

@testable import VirtualPrinter

/// DocumentFormat.detect: each magic number, and what is not one.
@Suite struct DocumentFormatTests {
    /// Sample leading bytes, the format they show, its extension and the length of the magic number.
    static let magics: [(bytes: [UInt8], format: String, ext: String, magic: Int)] = [
        (Array("%PDF-1.7\n".utf8), "application/pdf", "pdf", 5),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "image/jpeg", "jpg", 3),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D], "image/png", "png", 8),
        (Array("RaS2PwgRaster\0".utf8), "image/pwg-raster", "pwg", 4),
        (Array("UNIRAST".utf8) + [0, 0, 0, 0, 1], "image/urf", "urf", 8),
        (Array("%!PS-Adobe-3.0\n".utf8), "application/postscript", "ps", 2),
        ([0x1B, 0x45, 0x1B, 0x26], "application/vnd.hp-pcl", "pcl", 2),
    ]

    @Test func eachMagicNumberIsDetectedAndGetsItsExtension() {
        for (bytes, format, ext, _) in Self.magics {
            #expect(DocumentFormat.detect(bytes) == format)
            #expect(DocumentFormat.fileExtension(for: format) == ext)
        }
    }

    @Test func aMagicCutShortIsNotDetected() {
        for (bytes, format, _, magic) in Self.magics {
            #expect(DocumentFormat.detect(bytes.prefix(magic - 1)) == nil, "\(format)")
        }
    }

    @Test func unknownOrEmptyBytesAreNotDetected() {
        #expect(DocumentFormat.detect([UInt8]()) == nil)
        #expect(DocumentFormat.detect(Array("Hello, printer".utf8)) == nil)
        #expect(DocumentFormat.detect(Array("UNIRASTX".utf8)) == nil)
        #expect(DocumentFormat.detect(Array(" %PDF-1.7".utf8)) == nil)
        #expect(DocumentFormat.detect(Array("\u{1B}%-12345X@PJL".utf8)) == "application/vnd.hp-pcl")
    }

    @Test func onlyTheFirstBytesAreLookedAt() {
        let long = Array("%PDF-1.7".utf8) + [UInt8](repeating: 0, count: 10_000)
        #expect(DocumentFormat.detect(long) == "application/pdf")
        #expect(DocumentFormat.detectionLength >= 8)
    }

    @Test func unknownAndMissingFormatsAreStoredAsBinAndTextAsTxt() {
        #expect(DocumentFormat.fileExtension(for: nil) == "bin")
        #expect(DocumentFormat.fileExtension(for: "application/octet-stream") == "bin")
        #expect(DocumentFormat.fileExtension(for: "text/plain") == "txt")
    }
}
