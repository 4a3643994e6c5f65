import Foundation
import PrintModel
import Testing

@testable import Rasterizer

/// Numbers a hostile PDF, PCLm or raster file can carry (object numbers past Int, reals past Double, strip heights
/// that add up past Int.max, a MediaBox a few units of 1e-120 wide, a page header of 0xFFFFFFFF lines) and
/// comments by the hundred thousand: each ends in a typed error or a clean result, never a trap of the render
/// worker.
@Suite(.timeLimit(.minutes(1))) struct CraftedNumberTests {
    /// A file of `objects` (text) with a classic cross-reference section at its startxref and `trailer`.
    func pdf(_ objects: String, trailer: String = "/Size 4 /Root 1 0 R", in folder: TemporaryFolder) throws -> String {
        let body = "%PDF-1.7\n" + objects
        let table = body.utf8.count
        let text = body + "xref\n0 1\n0000000000 65535 f\r\ntrailer\n<< \(trailer) >>\nstartxref\n\(table)\n%%EOF\n"
        let path = folder.file("crafted-\(UUID().uuidString).pdf")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A catalog and a page tree whose one kid is `page` (a reference), then `rest`.
    func document(kid page: String, _ rest: String) -> String {
        "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [\(page)] /Count 1 >> endobj\n"
            + rest
    }

    /// What the DefaultCMYK update makes of the file: "update", "none" or the error's message.
    func update(_ path: String) -> String {
        do {
            return try PDFDefaultCMYK(path: path, profile: PDFDefaultCMYKTests.profile) == nil ? "none" : "update"
        } catch {
            return error.description
        }
    }

    @Test func objectNumbersPastTheirRangeAreRefused() throws {
        // ISO 32000-1 Annex C.2 (8,388,607 objects) and section 7.5.4 (generations up to 65,535). Int.max as an
        // object number made the profile's number (the highest number + 1) overflow.
        let folder = try TemporaryFolder()
        let cases = [
            document(kid: "9223372036854775807 0 R", "9223372036854775807 0 obj << /Type /Page >> endobj\n"),
            document(kid: "3 0 R", "99999999999999999999 0 obj << /Type /Page >> endobj\n"),
            document(kid: "3 0 R", "3 99999 obj << /Type /Page >> endobj\n"),
            document(kid: "-3 0 R", "3 0 obj << /Type /Page >> endobj\n"),
        ]
        for text in cases {
            let message = update(try pdf(text, in: folder))
            #expect(message.contains("out of range"), "\(text): \(message)")
        }
        #expect(update(try pdf(document(kid: "3 0 R", "3 0 obj << /Type /Page >> endobj\n"), in: folder)) == "update")
    }

    @Test func theObjectNumberLimitsAreTheStandardsOwn() throws {
        func scan(_ text: String) throws(RasterError) -> PDFObjectScanner.Item? {
            try PDFObjectScanner(ByteReader(MemoryInput(Array(text.utf8)))).next()
        }
        guard case .object(let number, let generation, _, _, _)? = try scan("8388607 65535 obj null endobj") else {
            Issue.record("the highest object number and generation were not read")
            return
        }
        #expect(number == PDFObjectScanner.maximumObjectNumber && generation == PDFObjectScanner.maximumGeneration)
        for text in ["8388608 0 obj null endobj", "1 65536 obj null endobj", "1 0 obj [8388608 0 R] endobj"] {
            #expect(throws: RasterError.self, "\(text)") { try scan(text) }
        }
    }

    @Test func numbersPastIntOrDoubleAndNonNumbersAreErrors() throws {
        // `/Width 1e300` and `/Height -nan` are no PDF numbers (ISO 32000-1 section 7.3.3 has no exponent and no
        // NaN); 1.e400 is past Double's range, 20 digits past Int's.
        let folder = try TemporaryFolder()
        for value in ["1e300", "-nan", "inf", "1.e400", "-99999999999999999999"] {
            let text = document(kid: "3 0 R", "3 0 obj << /Type /Page /Width \(value) >> endobj\n")
            let message = update(try pdf(text, in: folder))
            #expect(message.starts(with: "not a valid PDF file"), "\(value): \(message)")
        }
        let scanner = PDFObjectScanner(ByteReader(MemoryInput(Array("[-.5 +3. 12.25]".utf8))))
        #expect(try scanner.nextValue() == .array([.real(-0.5), .real(3), .real(12.25)]))
    }

    @Test func objectStreamHeadersPastTheirRangeAreRefused() throws {
        // An offset of Int.max after /First (whose sum overflowed) and a member numbered Int.max.
        let folder = try TemporaryFolder()
        for header in ["3 9223372036854775807", "9223372036854775807 0"] {
            let data = header + " << /Type /Page >>"
            let text = document(
                kid: "3 0 R",
                "7 0 obj << /Type /ObjStm /N 1 /First \(header.utf8.count + 1) /Length \(data.utf8.count) >>\nstream\n"
                    + data + "\nendstream\nendobj\n")
            let message = update(try pdf(text, in: folder))
            #expect(message.contains("bad header") || message.contains("out of range"), "\(header): \(message)")
        }
    }

    @Test func aSizeOfIntMaxIsRefused() throws {
        let folder = try TemporaryFolder()
        let text = document(kid: "3 0 R", "3 0 obj << /Type /Page >> endobj\n")
        let message = update(try pdf(text, trailer: "/Size 9223372036854775807 /Root 1 0 R", in: folder))
        #expect(message.contains("out of range"), "\(message)")
    }

    @Test func aHundredThousandCommentsAreSkippedInALoop() throws {
        // Comments are whitespace inside a value (ISO 32000-1 section 7.2.3); one recursion per comment ran out of
        // stack long before 100,000.
        let folder = try TemporaryFolder()
        let comments = String(repeating: "%c\n", count: 100_000)
        let text = document(kid: "\(comments) 3 0 R \(comments)", "3 0 obj << \(comments) /Type /Page >> endobj\n")
        #expect(update(try pdf(comments + text + comments, in: folder)) == "update")
        let scanner = PDFObjectScanner(ByteReader(MemoryInput(Array((comments + "[1 \(comments) 2]").utf8))))
        #expect(try scanner.nextValue() == .array([.integer(1), .integer(2)]))
    }

    /// The PCLm check of a one-page file whose MediaBox is `[0 0 box]`, its strips 72 pixels wide, `heights` high.
    func checkPCLm(box: String, heights: [String], in folder: TemporaryFolder) throws -> String {
        let path = folder.file("crafted-\(UUID().uuidString).pclm")
        try Data(PCLmTests.stripFile(mediaBox: "0 0 \(box)", heights: heights).utf8).write(
            to: URL(fileURLWithPath: path))
        do {
            let structure = try PCLmStructure.check(path: path)
            return "accepted at \(structure.resolution) dpi"
        } catch {
            #expect(error.ippReason == "document-format-error")
            return error.description
        }
    }

    @Test func pclmNumbersThatOverflowAreErrors() throws {
        let folder = try TemporaryFolder()
        let max = "9223372036854775807"
        #expect(try checkPCLm(box: "72 32", heights: ["16", "16"], in: folder) == "accepted at 72 dpi")
        // Strips whose heights add up past Int.max.
        #expect(try checkPCLm(box: "72 32", heights: [max, max], in: folder).contains("add up past"))
        // A MediaBox 1e-120 points wide: 72 pixels on it are 5e121 dpi, no Int.
        let narrow = "0." + String(repeating: "0", count: 119) + "1"
        #expect(try checkPCLm(box: "\(narrow) 32", heights: ["16"], in: folder).contains("give no resolution"))
        // A MediaBox 1e120 points high: the height it needs is no Int either, and the message says it as it is.
        let tall = "1" + String(repeating: "0", count: 120) + ".0"
        let message = try checkPCLm(box: "72 \(tall)", heights: ["16"], in: folder)
        #expect(message.contains("16 pixels high, the page needs 1"), "\(message)")
        // A MediaBox 1e100 points wide: no dpi at all.
        let wide = "1" + String(repeating: "0", count: 100) + ".0"
        #expect(try checkPCLm(box: "\(wide) 32", heights: ["16"], in: folder).contains("give no resolution"))
    }

    @Test func rasterHeadersOfAllOnesAreErrorsWhateverTheLimits() {
        // Limits the request raised to Int.max: 0xFFFFFFFF x 0xFFFFFFFF pixels overflowed the pixel count.
        var limits = RenderLimits()
        limits.maximumDimension = .max
        limits.maximumPagePixels = .max
        let page = SyntheticRaster.PWGPage(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, bytesPerLine: 0xFFFF_FFFF)
        #expect(throws: RasterError.limitExceeded(limit: "maximum page pixels", value: .max, maximum: .max)) {
            let reader = try RasterReader(input: MemoryInput(SyntheticRaster.pwg([page])), limits: limits)
            _ = try reader.nextPage()
        }
    }

    @Test func realsWrittenBackNeverTrap() {
        #expect(PDFValue.decimal(.nan) == "0")
        #expect(PDFValue.decimal(8.99e18) == "8990000000000000000")
        #expect(PDFValue.decimal(-8.99e18) == "-8990000000000000000")
        #expect(PDFValue.decimal(-.infinity) == "0")
    }
}
