import PrintModel
import Testing

/// DocumentFormat.detect, the one format detector of the printer and the render worker: each magic number, and
/// what is not one.
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
            #expect(DocumentFormat.detect(bytes)?.rawValue == format)
            #expect(DocumentFormat(rawValue: format).fileExtension == ext)
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
        #expect(DocumentFormat.detect(Array("\u{1B}%-12345X@PJL".utf8)) == .pcl)
    }

    @Test func onlyTheFirstBytesAreLookedAt() {
        let long = Array("%PDF-1.7".utf8) + [UInt8](repeating: 0, count: 10_000)
        #expect(DocumentFormat.detect(long) == .pdf)
        #expect(DocumentFormat.detectionLength == 1024)
    }

    @Test func unknownAndMissingFormatsAreStoredAsBinAndTextAsTxt() {
        #expect(DocumentFormat(rawValue: "application/x-unknown").fileExtension == "bin")
        #expect(DocumentFormat.octetStream.fileExtension == "bin")
        #expect(DocumentFormat.plainText.fileExtension == "txt")
        #expect(DocumentFormat(rawValue: "application/pclm").fileExtension == "pclm")
    }

    /// ISO 32000-1 annex H.3: readers accept a PDF header within the first 1024 bytes. The printer and the
    /// worker used to disagree here (the printer refused what the worker rendered).
    @Test func pdfAfterLeadingBytesIsPDFUpToTheDetectionLength() {
        #expect(DocumentFormat.detect(Array(" %PDF-1.7".utf8)) == .pdf)
        #expect(DocumentFormat.detect(Array(repeating: 0x20, count: 500) + Array("%PDF-1.4".utf8)) == .pdf)
        #expect(DocumentFormat.detect(Array("\u{1B}%-12345X@PJL ENTER LANGUAGE=PDF\n%PDF-1.4".utf8)) == .pdf)
        #expect(DocumentFormat.detect(Array(repeating: 0x20, count: 1_100) + Array("%PDF-1.4".utf8)) == nil)
    }

    @Test func pclmIsAPDFWithThePCLmCommentOnTheSecondLine() {
        #expect(DocumentFormat.detect(Array("%PDF-1.7\n%PCLm 1.0\n".utf8)) == .pclm)
        #expect(DocumentFormat.detect(Array("%PDF-1.7\r\n%PCLm 1.0\r\n".utf8)) == .pclm)
        #expect(DocumentFormat.detect(Array("junk\n%PDF-1.7\n%PCLm 1.0\n".utf8)) == .pclm)
        #expect(DocumentFormat.detect(Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj".utf8)) == .pdf)
        #expect(DocumentFormat.detect(Array("%PDF-1.7 %PCLm".utf8)) == .pdf)
        let late = Array("%PDF-1.7\n".utf8) + Array(repeating: 0x20, count: 80) + Array("\n%PCLm 1.0".utf8)
        #expect(DocumentFormat.detect(late) == .pdf)
    }

    @Test func mediaTypesCompareWithoutCase() {
        #expect(DocumentFormat(rawValue: "application/pclm").matches(.pclm))
        #expect(DocumentFormat(rawValue: "Application/PDF").canonical == .pdf)
        #expect(DocumentFormat(rawValue: "image/PWG-raster").isRenderable)
        #expect(!DocumentFormat.pcl.isRenderable && !DocumentFormat.octetStream.isRenderable)
    }
}
