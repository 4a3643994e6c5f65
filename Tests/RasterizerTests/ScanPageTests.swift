import Foundation
import PrintModel
import Rasterizer
import Synchronization
import TestSupport
import Testing

/// Scanned images (render protocol operation `scan-page`): the test chart and source files cut to a region, in each
/// color mode and format, read back by independent tools (ImageMagick, Poppler's pdfinfo and pdftocairo).
@Suite(.timeLimit(.minutes(2))) struct ScanPageTests {
    /// US Letter in three-hundredths of an inch.
    static let letter = (width: 2550, height: 3300)

    /// A scan of the chart (or of `source`) on a Letter sheet, written into `harness`'s folder as `name`.
    static func page(
        _ harness: RenderHarness, _ name: String, region: ScanPage.Region, resolution: Int = 150,
        colorMode: ScanPage.ColorMode = .rgb24, format: ScanPage.Format = .png, source: String? = nil,
        sourcePage: Int = 1
    ) -> ScanPage {
        ScanPage(
            sourcePath: source, sourcePage: sourcePage, sheetWidth: letter.width, sheetHeight: letter.height,
            region: region, resolution: resolution, colorMode: colorMode, format: format,
            label: .init(job: 7, image: 2, source: "Feeder", side: "back"), outputPath: harness.folder.file(name))
    }

    /// The chart's middle rows, where the patches are, cut from (150, 300) on: each 300ths of an inch is half a
    /// pixel at 150 dpi.
    static let patchRegion = ScanPage.Region(x: 150, y: 300, width: 2250, height: 1500)

    /// The pixel of the patch region's image at sheet point (`x`, `y`) at 150 dpi.
    static func pixel(_ x: Int, _ y: Int) -> (Int, Int) { ((x - patchRegion.x) / 2, (y - patchRegion.y) / 2) }

    /// The center of the chart's patch `name`, in the sheet's three-hundredths of an inch.
    static func patchCenter(_ name: String) -> (Int, Int) {
        let patches = ["red": 300, "green": 700, "blue": 1100, "black": 1500, "gray": 1900]
        return (patches[name]! + 150, 1350 + 150)
    }

    /// The pixel at the center of patch `name` of an image of ``patchRegion``.
    static func patch(_ image: PageImage, _ name: String) -> (Int, Int, Int) {
        let (x, y) = pixel(patchCenter(name).0, patchCenter(name).1)
        return image.rgb(x, y)
    }

    /// The bit depth and color type of a PNG file (IHDR bytes 24 and 25).
    static func pngDepthAndColorType(_ path: String) throws -> (Int, Int) {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(26))
        return (Int(header[24]), Int(header[25]))
    }

    /// The output of `tool` as text.
    static func text(_ tool: String, _ arguments: [String]) throws -> String {
        String(decoding: try ExternalTool.run(tool, arguments), as: UTF8.self)
    }

    @Test func theChartAt150DPIHasTheRegionsSizeAndItsPatchesWhereTheLayoutSays() throws {
        let harness = try RenderHarness()
        let scanned = try ScanPageMaker().make(Self.page(harness, "chart.png", region: Self.patchRegion))
        #expect(scanned.width == 1125 && scanned.height == 750)
        let size = try FileManager.default.attributesOfItem(atPath: scanned.path)[.size] as? Int
        #expect(scanned.bytes == size)
        let image = try harness.decode(scanned.path)
        #expect(image.width == 1125 && image.height == 750)
        let expected = [
            "red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255), "black": (0, 0, 0), "gray": (128, 128, 128),
        ]
        for (name, color) in expected {
            let (r, g, b) = Self.patch(image, name)
            #expect(abs(r - color.0) <= 2 && abs(g - color.1) <= 2 && abs(b - color.2) <= 2, "\(name): \((r, g, b))")
        }
        // Between two patches, and below them: white.
        let (gapX, gapY) = Self.pixel(650, 1500)
        #expect(image.rgb(gapX, gapY) == (255, 255, 255))
        let (belowX, belowY) = Self.pixel(450, 1700)
        #expect(image.rgb(belowX, belowY) == (255, 255, 255))
        let density = try Self.text("identify", ["-units", "PixelsPerInch", "-format", "%x", scanned.path])
        #expect(density.hasPrefix("150"), "\(density)")
    }

    @Test func theBorderAndTheRulerInTenthsOfAnInchLieAlongTheSheetsEdges() throws {
        let harness = try RenderHarness()
        // At 300 dpi a pixel is a three-hundredth of an inch: pixels are sheet positions.
        let region = ScanPage.Region(x: 0, y: 0, width: 600, height: 600)
        let image = try harness.decode(
            try ScanPageMaker().make(Self.page(harness, "ruler.png", region: region, resolution: 300)).path)
        #expect(image.width == 600 && image.height == 600)
        #expect(image.isDark(2, 450) && image.isDark(450, 2), "the border")
        #expect(image.isDark(300, 80) && image.isDark(80, 300), "the inch ticks, 90 long")
        #expect(image.isDark(150, 45) && !image.isDark(150, 60), "the half-inch tick, 50 long")
        #expect(image.isDark(330, 20) && !image.isDark(330, 40), "a tenth-of-an-inch tick, 30 long")
        #expect(!image.isDark(315, 20), "between two ticks")
    }

    @Test func theChartsTextIsReadByOCRAt150DPIInBlackAndWhite() throws {
        let harness = try RenderHarness()
        let whole = ScanPage.Region(x: 0, y: 0, width: Self.letter.width, height: Self.letter.height)
        var page = Self.page(harness, "", region: whole, colorMode: .blackAndWhite1)
        page.outputPath = harness.output + "/page-0001.png"
        _ = try ScanPageMaker().make(page)
        let outcomes = Mutex<[SideTextRecognition.Outcome]>([])
        try SideTextRecognition(folder: harness.output, threads: 1).run(
            [SideTextRecognition.Side(number: 1, file: "page-0001.png", dpi: 150)]
        ) { outcome in outcomes.withLock { $0.append(outcome) } }
        #expect(outcomes.withLock { $0.first?.error } == nil)
        let text = try String(contentsOfFile: harness.output + "/page-0001.txt", encoding: .utf8)
        for line in ["vprinter scan job 7", "image 2", "Feeder back", "150 dpi"] {
            #expect(text.contains(line), "'\(line)' in \(text)")
        }
    }

    @Test func grayscaleIsEightBitLuminanceAndBlackAndWhiteIsOneBit() throws {
        let harness = try RenderHarness()
        let gray = try ScanPageMaker().make(
            Self.page(harness, "gray.png", region: Self.patchRegion, colorMode: .grayscale8))
        #expect(try Self.pngDepthAndColorType(gray.path) == (8, 0))
        let grayImage = try harness.decode(gray.path)
        // Rec. 601 luma (77, 150 and 29 in 256ths) as the printer's monochrome sides: red 77, green 149, blue 29.
        for (name, luma) in ["red": 77, "green": 149, "blue": 29, "black": 0, "gray": 128] {
            #expect(Self.patch(grayImage, name) == (luma, luma, luma), "\(name)")
        }

        let bilevel = try ScanPageMaker().make(
            Self.page(harness, "bilevel.png", region: Self.patchRegion, colorMode: .blackAndWhite1))
        #expect(try Self.pngDepthAndColorType(bilevel.path) == (1, 0))
        let bilevelImage = try harness.decode(bilevel.path)
        #expect(bilevelImage.pixels.allSatisfy { $0 == 0 || $0 == 255 })
        // Black below 50 %: red and blue; green and the 50 % gray are white.
        for (name, value) in ["red": 0, "green": 255, "blue": 0, "black": 0, "gray": 255] {
            #expect(Self.patch(bilevelImage, name) == (value, value, value), "\(name)")
        }
        #expect(bilevelImage.pixels.contains(0) && bilevelImage.pixels.contains(255))
    }

    @Test func jpegIsColorOrGrayWithItsResolutionAndCloseToThePNG() throws {
        let harness = try RenderHarness()
        for (mode, colorspace) in [
            (ScanPage.ColorMode.rgb24, "sRGB"), (.grayscale8, "Gray"), (.blackAndWhite1, "Gray"),
        ] {
            let jpeg = try ScanPageMaker().make(
                Self.page(harness, "\(mode.rawValue).jpg", region: Self.patchRegion, colorMode: mode, format: .jpeg))
            let facts = try Self.text(
                "identify", ["-units", "PixelsPerInch", "-format", "%m %w %h %x %[colorspace]", jpeg.path])
            #expect(facts == "JPEG 1125 750 150 \(colorspace)", "\(mode): \(facts)")
            let png = try ScanPageMaker().make(
                Self.page(harness, "\(mode.rawValue).png", region: Self.patchRegion, colorMode: mode))
            let psnr = ImageComparison.psnr(try harness.decode(jpeg.path), try harness.decode(png.path))
            print("scanned chart, \(mode.rawValue), JPEG quality 90 against PNG: PSNR \(psnr) dB, \(jpeg.bytes) bytes")
            #expect(psnr >= 35, "\(mode): PSNR \(psnr) dB")
        }
    }

    @Test func pdfIsOnePageOfTheRegionsSizeInPointsHoldingTheImageAtItsResolution() throws {
        let harness = try RenderHarness()
        for (mode, minimumPSNR) in [(ScanPage.ColorMode.rgb24, 35.0), (.grayscale8, 35), (.blackAndWhite1, .infinity)] {
            // 2250 x 1500 three-hundredths of an inch are 540 x 360 points, 1500 x 1000 pixels at 200 dpi.
            let pdf = try ScanPageMaker().make(
                Self.page(
                    harness, "\(mode.rawValue).pdf", region: Self.patchRegion, resolution: 200, colorMode: mode,
                    format: .pdf))
            #expect(pdf.width == 1500 && pdf.height == 1000)
            let info = try Self.text("pdfinfo", [pdf.path])
            #expect(info.contains("Pages:           1"), "\(info)")
            #expect(info.contains("Page size:       540 x 360 pts"), "\(info)")
            let rendered = harness.folder.file("\(mode.rawValue)-pdf")
            try ExternalTool.run("pdftocairo", ["-png", "-r", "200", "-singlefile", pdf.path, rendered])
            let png = try ScanPageMaker().make(
                Self.page(harness, "\(mode.rawValue).png", region: Self.patchRegion, resolution: 200, colorMode: mode))
            let psnr = ImageComparison.psnr(try harness.decode(rendered + ".png"), try harness.decode(png.path))
            print("scanned chart, \(mode.rawValue), PDF rendered by pdftocairo against PNG: PSNR \(psnr) dB")
            #expect(psnr >= minimumPSNR, "\(mode): PSNR \(psnr) dB")
        }
    }

    @Test func aPNGSourceIsScannedBackFromItsRegion() throws {
        let harness = try RenderHarness()
        // A 6 x 8 inch picture at 150 dpi (pHYs): gradients, hard edges and a dark square. Smaller than the sheet,
        // it lies at its own size only if its resolution is read.
        let source = harness.folder.file("source.png")
        var picture = PageImage(width: 900, height: 1200, isGray: false, resolutionX: 150, resolutionY: 150)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let index = (y * picture.width + x) * 3
                let inSquare = (400..<700).contains(x) && (500..<800).contains(y)
                picture.pixels[index] = inSquare ? 20 : UInt8(x * 255 / picture.width)
                picture.pixels[index + 1] = inSquare ? 20 : UInt8(y * 255 / picture.height)
                picture.pixels[index + 2] = (x / 50 + y / 50) % 2 == 0 ? 200 : 90
            }
        }
        let writer = try PNGWriter(path: source, width: 900, height: 1200, layout: .rgb, resolution: 150)
        picture.pixels.withUnsafeBytes { bytes in
            for y in 0..<picture.height { writer.writeRow(bytes.baseAddress! + y * picture.bytesPerRow) }
        }
        try writer.finish()

        let region = ScanPage.Region(x: 300, y: 600, width: 1200, height: 900)
        let scanned = try ScanPageMaker().make(Self.page(harness, "scan.png", region: region, source: source))
        let image = try harness.decode(scanned.path)
        var expected = PageImage(width: 600, height: 450, isGray: false)
        for y in 0..<450 {
            let from = ((y + 300) * picture.width + 150) * 3
            expected.pixels.replaceSubrange(y * 1800..<(y + 1) * 1800, with: picture.pixels[from..<(from + 1800)])
        }
        let psnr = ImageComparison.psnr(image, expected)
        print("PNG source scanned at its own resolution: PSNR \(psnr) dB against its region")
        #expect(psnr >= 35, "PSNR \(psnr) dB")
    }

    @Test func aSourceLiesAtTheTopLeftShrunkToFitTheSheetAndNeverEnlarged() throws {
        let harness = try RenderHarness()
        let wide = harness.folder.file("wide.png")
        // 20 x 10 inches at 100 dpi: shrunk to the sheet's 8.5 inch width, so 4.25 inches high.
        try ExternalTool.run(
            "convert", ["-size", "2000x1000", "xc:blue", "-units", "PixelsPerInch", "-density", "100", wide])
        let small = harness.folder.file("small.jpg")
        // One inch square at 300 dpi: stays one inch.
        try ExternalTool.run(
            "convert", ["-size", "300x300", "xc:red", "-units", "PixelsPerInch", "-density", "300", small])
        let whole = ScanPage.Region(x: 0, y: 0, width: Self.letter.width, height: Self.letter.height)
        // At 30 dpi a pixel is ten three-hundredths of an inch.
        let wideScan = try harness.decode(
            try ScanPageMaker().make(Self.page(harness, "wide.png", region: whole, resolution: 30, source: wide)).path)
        #expect(wideScan.isBlue(250, 120) && wideScan.isBlue(10, 10))
        #expect(wideScan.rgb(120, 135) == (255, 255, 255), "below 4.25 inches")
        let smallScan = try harness.decode(
            try ScanPageMaker().make(Self.page(harness, "small.png", region: whole, resolution: 30, source: small)).path
        )
        let (r, g, b) = smallScan.rgb(15, 15)
        #expect(r > 240 && g < 20 && b < 20)
        #expect(smallScan.rgb(45, 15) == (255, 255, 255) && smallScan.rgb(15, 45) == (255, 255, 255))
    }

    @Test func aPDFSourcePageIsScannedAsPdftocairoRendersIt() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 3)
        // The region from (1, 1) inch, 6 x 8 inches: at 150 dpi 900 x 1200 pixels from (150, 150).
        let region = ScanPage.Region(x: 300, y: 300, width: 1800, height: 2400)
        let scanned = try ScanPageMaker().make(
            Self.page(harness, "page2.png", region: region, source: pdf, sourcePage: 2))
        let reference = harness.folder.file("reference")
        try ExternalTool.run(
            "pdftocairo",
            [
                "-png", "-r", "150", "-f", "2", "-l", "2", "-x", "150", "-y", "150", "-W", "900", "-H", "1200",
                "-singlefile",
                pdf, reference,
            ])
        let psnr = ImageComparison.psnr(try harness.decode(scanned.path), try harness.decode(reference + ".png"))
        print("PDF source page 2 scanned at 150 dpi: PSNR \(psnr) dB against pdftocairo")
        #expect(psnr >= 30, "PSNR \(psnr) dB")
        // The pages repeat as a stack fed again: page 5 of three is page 2.
        let again = try ScanPageMaker().make(
            Self.page(harness, "page5.png", region: region, source: pdf, sourcePage: 5))
        #expect(ImageComparison.psnr(try harness.decode(scanned.path), try harness.decode(again.path)) == .infinity)
    }

    @Test func anUnreadableSourceOrAPageTheSourceLacksIsAnErrorThatLeavesNoFile() throws {
        let harness = try RenderHarness()
        let region = ScanPage.Region(x: 0, y: 0, width: 600, height: 600)
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        let text = harness.folder.file("notes.txt")
        try "not an image".write(toFile: text, atomically: true, encoding: .utf8)
        let cases: [(source: String, page: Int, reason: String)] = [
            (harness.folder.file("missing.pdf"), 1, "document-access-error"),
            (pdf, 0, "document-unprintable-error"),
            (text, 1, "unsupported-document-format"),
        ]
        for (source, sourcePage, reason) in cases {
            let page = Self.page(harness, "out.png", region: region, source: source, sourcePage: sourcePage)
            let error = #expect(throws: RasterError.self) { try ScanPageMaker().make(page) }
            #expect(error?.ippReason == reason, "\(source) page \(sourcePage): \(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: page.outputPath))
            #expect(!FileManager.default.fileExists(atPath: page.outputPath + ".part"))
        }
    }

    @Test func aSourceImageOrAScanBeyondTheLimitsIsRefused() throws {
        let harness = try RenderHarness()
        let source = harness.folder.file("source.png")
        try ExternalTool.run("convert", ["-size", "200x100", "xc:white", source])
        var limits = RenderLimits()
        limits.maximumImagePixels = 19_999
        let whole = ScanPage.Region(x: 0, y: 0, width: 600, height: 600)
        #expect(throws: RasterError.limitExceeded(limit: "maximum image pixels", value: 20_000, maximum: 19_999)) {
            try ScanPageMaker(limits: limits).make(Self.page(harness, "a.png", region: whole, source: source))
        }
        limits = RenderLimits()
        limits.maximumSheetPixels = 1_000_000
        // Letter at 150 dpi: 1275 x 1650 = 2,103,750 pixels.
        let letter = ScanPage.Region(x: 0, y: 0, width: Self.letter.width, height: Self.letter.height)
        #expect(throws: RasterError.limitExceeded(limit: "maximum scan pixels", value: 2_103_750, maximum: 1_000_000)) {
            try ScanPageMaker(limits: limits).make(Self.page(harness, "b.png", region: letter))
        }
        #expect(throws: RasterError.limitExceeded(limit: "maximum resolution", value: 4800, maximum: 2400)) {
            try ScanPageMaker().make(Self.page(harness, "c.png", region: whole, resolution: 4800))
        }
        let huge = ScanPage.Region(x: 0, y: 0, width: Int.max, height: 600)
        #expect(throws: RasterError.self) { try ScanPageMaker().make(Self.page(harness, "d.png", region: huge)) }
        let offTheSheet = ScanPage.Region(x: 2550, y: 0, width: 300, height: 300)
        #expect(throws: RasterError.self) {
            try ScanPageMaker().make(Self.page(harness, "e.png", region: offTheSheet))
        }
        for name in ["a.png", "b.png", "c.png", "d.png", "e.png"] {
            #expect(!FileManager.default.fileExists(atPath: harness.folder.file(name)))
        }
    }

    @Test func theScanRequestAndTheScannedLineSurviveTheirJSON() throws {
        let harness = try RenderHarness()
        let page = Self.page(harness, "image-0001.jpg", region: Self.patchRegion, format: .jpeg, source: "/a/b.pdf")
        let request = RenderRequest.scanPage(page, resourceLimits: .init(addressSpace: 1 << 30, cpuSeconds: 60))
        #expect(request.folder == harness.folder.path)
        let decoded = try JSONDecoder().decode(RenderRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
        #expect(decoded.operation == .scanPage && decoded.scan == page)
        let line = WorkerMessage.scanned(ScannedImage(path: page.outputPath, width: 1125, height: 750, bytes: 1234))
        let text = String(decoding: try line.line(), as: UTF8.self)
        #expect(text.contains(#""type":"scanned""#))
        #expect(try WorkerMessage.parse(line.line()) == line)
    }

    @Test func theWorkerAnswersAScanPageWithTheScannedLineThenItsStatus() throws {
        let harness = try RenderHarness()
        let page = Self.page(
            harness, "image-0001.pdf", region: Self.patchRegion, colorMode: .grayscale8, format: .pdf)
        let missing = Self.page(harness, "image-0002.png", region: Self.patchRegion, source: "/nonexistent/scan.pdf")
        func run(_ request: RenderRequest) throws -> (status: Int32, messages: [WorkerMessage]) {
            let input = try JSONEncoder().encode(request)
            let result = try ChildProcess.run(try RenderWorkerTests.workerPath(), [], input: Array(input))
            let lines = result.output.split(separator: 0x0A)
            return (result.status, try lines.map { try WorkerMessage.parse($0) })
        }
        let made = try run(.scanPage(page))
        #expect(made.status == 0)
        let bytes = try FileManager.default.attributesOfItem(atPath: page.outputPath)[.size] as? Int
        #expect(
            made.messages == [
                .scanned(ScannedImage(path: page.outputPath, width: 1125, height: 750, bytes: bytes ?? -1)),
                .status(WorkerStatus(status: .ok)),
            ])

        let failed = try run(.scanPage(missing))
        #expect(failed.status == 1)
        guard case .status(let status) = failed.messages.last, failed.messages.count == 1 else {
            Issue.record("expected one status line: \(failed.messages)")
            return
        }
        #expect(status.status == .error && status.reason == "document-access-error")
        #expect(status.message?.contains("/nonexistent/scan.pdf") == true, "\(status.message ?? "")")

        var withoutScan = RenderRequest.scanPage(page)
        withoutScan.scan = nil
        let refused = try run(withoutScan)
        #expect(refused.status == 2)
        #expect(
            refused.messages.last
                == .status(.error(reason: "bad-request", message: "a scan-page request without its scan")))
    }
}
