import CZlib
import Foundation
import PrintModel
import Testing

@testable import Rasterizer

/// The incremental update that gives a PDF's pages the press profile as their DefaultCMYK (ISO 32000-1 section
/// 8.6.5.6), checked on its structure and on what Poppler draws from the copy.
@Suite(.timeLimit(.minutes(1))) struct PDFDefaultCMYKTests {
    /// Bytes standing for the profile where the test does not draw the copy.
    static let profile = Array("not read by this test".utf8)

    /// A PDF made by Ghostscript's pdfwrite from `postScript`.
    func ghostscriptPDF(_ postScript: String, in folder: TemporaryFolder, options: [String] = []) throws -> String {
        let source = folder.file("source.ps")
        try ("%!PS\n" + postScript).write(toFile: source, atomically: true, encoding: .utf8)
        let pdf = folder.file("document.pdf")
        try ExternalTool.ghostscript(["-sDEVICE=pdfwrite", "-sOutputFile=\(pdf)"] + options + [source])
        return pdf
    }

    /// The pages of `pdf` drawn by Poppler and Cairo (pdftocairo) at 36 dpi, as PPM bytes, one per page.
    func drawn(_ pdf: String, in folder: TemporaryFolder) throws -> [Data] {
        let prefix = folder.file(UUID().uuidString)
        _ = try ExternalTool.run("pdftocairo", ["-r", "36", "-png", pdf, prefix])
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix((prefix as NSString).lastPathComponent) }.sorted()
        return try pages.map { try Data(contentsOf: URL(fileURLWithPath: folder.file($0))) }
    }

    @Test func everyPageOfAGhostscriptPDFGetsTheProfile() throws {
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF(
            "0 1 0 0 setcmykcolor 0 0 100 100 rectfill showpage 1 0 0 0 setcmykcolor 0 0 50 50 rectfill showpage\n",
            in: folder)
        let made = try #require(try PDFDefaultCMYK(path: pdf, profile: Self.profile))
        #expect(made.pages == 2)
        let text = String(decoding: made.update, as: UTF8.self)
        #expect(text.components(separatedBy: "/DefaultCMYK [/ICCBased").count == 3)
        #expect(text.contains("/Alternate /DeviceCMYK /Length \(Self.profile.count)"))
        // The update's trailer goes back to the document's own cross-reference section, whose offset is the
        // file's startxref.
        let original = try String(decoding: Data(contentsOf: URL(fileURLWithPath: pdf)), as: UTF8.self)
        let previous = try #require(original.components(separatedBy: "startxref").last?.split(separator: "\n").first)
        #expect(text.contains("/Prev \(previous)"))
    }

    @Test func aDocumentWithoutDeviceCMYKDrawsAsBefore() throws {
        // The copy Poppler draws: every page the same pixels as the original.
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF(
            """
            << /PageSize [200 300] >> setpagedevice 1 0 0 setrgbcolor 10 10 80 80 rectfill
            /Helvetica findfont 20 scalefont setfont 0 0 1 setrgbcolor 20 200 moveto (Page one) show showpage
            << /PageSize [300 200] >> setpagedevice 0.5 setgray 20 20 100 50 rectfill showpage

            """, in: folder)
        let copy = try #require(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: folder.path))
        let before = try drawn(pdf, in: folder)
        let after = try drawn(copy.path, in: folder)
        withExtendedLifetime(copy) {}
        #expect(before.count == 2)
        #expect(before == after)
    }

    @Test func deviceCMYKIsDrawnThroughTheProfile() throws {
        // Pure cyan: Poppler's own conversion gives (0, 255, 255), the press profile Ghostscript's (0, 173, 239).
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF("1 0 0 0 setcmykcolor 0 0 612 792 rectfill showpage\n", in: folder)
        let managedCopy = try #require(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: folder.path))
        let copy = managedCopy.path
        let reference = folder.file("reference.png")
        try ExternalTool.ghostscript(["-sDEVICE=png16m", "-r36", "-sOutputFile=\(reference)", pdf])
        let harness = try RenderHarness()
        let expected = try harness.decode(reference).rgb(100, 100)
        let output = folder.file("copy")
        _ = try ExternalTool.run("pdftocairo", ["-r", "36", "-png", "-singlefile", copy, output])
        let managed = try harness.decode(output + ".png").rgb(100, 100)
        withExtendedLifetime(managedCopy) {}
        _ = try ExternalTool.run("pdftocairo", ["-r", "36", "-png", "-singlefile", pdf, output])
        let unmanaged = try harness.decode(output + ".png").rgb(100, 100)
        #expect(
            abs(managed.0 - expected.0) <= 2 && abs(managed.1 - expected.1) <= 2 && abs(managed.2 - expected.2) <= 2)
        #expect(unmanaged != managed)
    }

    @Test func everySideOfAJobIsDrawnThroughTheProfile() throws {
        // Four pages drawn on two threads, each opening the copy by its name: all through the profile, as gs shows
        // them.
        let harness = try RenderHarness()
        let pdf = try ghostscriptPDF(
            String(repeating: "1 0 0 0 setcmykcolor 0 0 612 792 rectfill showpage\n", count: 4), in: harness.folder)
        let reference = harness.folder.file("reference.png")
        try ExternalTool.ghostscript(["-sDEVICE=png16m", "-r36", "-dLastPage=1", "-sOutputFile=\(reference)", pdf])
        let expected = try harness.decode(reference).rgb(100, 100)
        var ticket = JobTicket()
        ticket.resolution = 36
        let (impressions, _) = try harness.render([pdf], ticket: ticket)
        #expect(impressions.count == 4)
        for side in impressions {
            let drawn = try harness.image(side.file).rgb(100, 100)
            #expect(abs(drawn.0 - expected.0) <= 2 && abs(drawn.1 - expected.1) <= 2 && abs(drawn.2 - expected.2) <= 2)
        }
    }

    @Test func aPageWithADefaultCMYKOfItsOwnKeepsIt() throws {
        let folder = try TemporaryFolder()
        let document = PDFBuilder()
        document.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        document.add(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792.5] >>")
        document.add(3, "<< /Type /Page /Parent 2 0 R /Resources << /ColorSpace << /DefaultCMYK /DeviceGray >> >> >>")
        document.add(4, "<< /Type /Page /Parent 2 0 R >>")
        let made = try #require(try PDFDefaultCMYK(path: try document.write(into: folder), profile: Self.profile))
        #expect(made.pages == 1)
        let text = String(decoding: made.update, as: UTF8.self)
        #expect(text.contains("4 0 obj") && !text.contains("3 0 obj"))
    }

    @Test func resourcesInheritedFromThePageTreeAreKept() throws {
        // Page 3 inherits resources object 5, written again with its fonts and color spaces; page 8 has resources of
        // its own, and is written again with the rest of its entries.
        let folder = try TemporaryFolder()
        let document = PDFBuilder()
        document.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        document.add(2, "<< /Type /Pages /Kids [3 0 R 8 0 R] /Count 2 /Resources 5 0 R /MediaBox [0 0 612 792] >>")
        document.add(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
        document.add(8, "<< /Type /Page /Parent 2 0 R /Resources << >> /Annots [(a \\) string) <4142>] >>")
        document.addStream(4, "0 0 0 1 k 0 0 10 10 re f")
        document.add(5, "<< /Font << /F1 6 0 R >> /ColorSpace << /CS0 [/Indexed /DeviceRGB 1 <000000FFFFFF>] >> >>")
        document.add(6, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        document.add(7, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>")
        // A resource name with a byte above ASCII (Latin-1 e acute) comes back as the same byte, escaped.
        document.replace("/F1 6 0 R", with: Array("/F1 6 0 R /F\u{E9} 7 0 R".unicodeScalars.map { UInt8($0.value) }))
        let made = try #require(try PDFDefaultCMYK(path: try document.write(into: folder), profile: Self.profile))
        #expect(made.pages == 2 && made.rewrittenObjects == 2)
        let text = String(decoding: made.update, as: UTF8.self)
        #expect(text.contains("5 0 obj") && text.contains("8 0 obj") && !text.contains("3 0 obj"))
        #expect(text.contains("/F1 6 0 R"))
        #expect(text.contains("/F#E9 7 0 R"))
        #expect(text.contains("/CS0 [/Indexed /DeviceRGB 1 <000000FFFFFF>]"))
        #expect(text.contains("/Annots [(a \\) string) <4142>]"))
        #expect(text.contains("/Parent 2 0 R"))
    }

    @Test(arguments: [false, true])
    func pagesInAnObjectStreamAreFound(compressed: Bool) throws {
        // Catalog, page tree and page inside an object stream, as PDF 1.5 writers put them; the page object written
        // again as an uncompressed object of the update.
        let members = [
            (1, "<< /Type /Catalog /Pages 2 0 R >>"), (2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            (3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90 >>"),
        ]
        var header = ""
        var body = ""
        for (number, text) in members {
            header += "\(number) \(body.utf8.count) "
            body += text + "\n"
        }
        var data = Array((header + "\n" + body).utf8)
        let first = header.utf8.count + 1
        var filter = ""
        if compressed {
            var size = compressBound(uLong(data.count))
            var packed = [UInt8](repeating: 0, count: Int(size))
            #expect(compress(&packed, &size, data, uLong(data.count)) == Z_OK)
            data = Array(packed[0..<Int(size)])
            filter = " /Filter /FlateDecode"
        }
        let folder = try TemporaryFolder()
        let document = PDFBuilder()
        document.addStream(7, data, dictionary: "/Type /ObjStm /N 3 /First \(first)\(filter)")
        let made = try #require(
            try PDFDefaultCMYK(path: try document.write(into: folder, root: 1), profile: Self.profile))
        #expect(made.pages == 1)
        let text = String(decoding: made.update, as: UTF8.self)
        #expect(text.contains("3 0 obj"))
        #expect(text.contains("/Rotate 90"))
        #expect(text.contains("/MediaBox [0 0 612 792]"))
    }

    @Test func anEncryptedDocumentGetsNoUpdate() throws {
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF(
            "1 0 0 0 setcmykcolor 0 0 100 100 rectfill showpage\n", in: folder,
            options: ["-sOwnerPassword=owner", "-sUserPassword=user"])
        #expect(throws: RasterError.self) { _ = try PDFDefaultCMYK(path: pdf, profile: Self.profile) }
        #expect(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: folder.path) == nil)
    }

    @Test func aDocumentCutShortGetsNoUpdate() throws {
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF("1 0 0 0 setcmykcolor 0 0 100 100 rectfill showpage\n", in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        for length in [bytes.count / 3, bytes.count - 40] {
            let cut = folder.file("cut-\(length).pdf")
            try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
            #expect(PDFDefaultCMYK.colorManagedCopy(of: cut, in: folder.path) == nil)
        }
    }

    @Test func damagedDocumentsNeverTrap() throws {
        // Bytes of a real document changed or cut at 400 pseudo-random places: an update or an error, every time.
        let folder = try TemporaryFolder()
        let pdf = try ghostscriptPDF(
            "1 0 0 0 setcmykcolor 0 0 100 100 rectfill /Helvetica findfont 9 scalefont setfont 9 9 moveto (x) show showpage\n",
            in: folder)
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: pdf)))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let damaged = folder.file("damaged.pdf")
        var updated = 0
        for round in 0..<400 {
            var bytes = original
            if round % 4 == 0 {
                bytes.removeLast(next(bytes.count))
            } else {
                for _ in 0...next(4) { bytes[next(bytes.count)] = [0, 0x28, 0x3C, 0x2F, 0x5B, 0x39, 0xFF][next(7)] }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: damaged))
            if (try? PDFDefaultCMYK(path: damaged, profile: Self.profile)) != nil { updated += 1 }
        }
        #expect(updated > 0)
    }

    /// A document of `pages` pages, each with `resources` as its /Resources entry (nil: none), under one page tree
    /// node whose entries end with `node`; object 3 holds 40 fonts, about 2 KB, for the pages to share.
    static func document(pages: Int, resources: String?, node: String = "") -> PDFBuilder {
        let document = PDFBuilder()
        document.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pages).map { "\(10 + $0) 0 R" }.joined(separator: " ")
        document.add(2, "<< /Type /Pages /Kids [\(kids)] /Count \(pages) /MediaBox [0 0 612 792] \(node) >>")
        document.add(3, Self.sharedResources)
        document.add(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        document.addStream(5, "0 0 0 1 k 0 0 10 10 re f")
        for page in 0..<pages {
            let own = resources.map { "/Resources \($0)" } ?? ""
            document.add(10 + page, "<< /Type /Page /Parent 2 0 R /Contents 5 0 R \(own) >>")
        }
        return document
    }

    static let sharedResources =
        "<< /ProcSet [/PDF /Text] /Font << "
        + (0..<40).map { "/Font\($0)WithAName 4 0 R /Other\($0)Name 4 0 R" }.joined(separator: " ") + " >> >>"

    @Test(arguments: [("3 0 R", ""), (nil, "/Resources \(sharedResources)")])
    func aThousandPagesSharingTheirResourcesGetOneNewObject(page: String?, node: String) throws {
        // Shared by reference (object 3 written again) or inherited as a dictionary of the page tree node (the node
        // written again): either way one object, where a copy of the resources in every page was 1,000.
        let folder = try TemporaryFolder()
        let pdf = try Self.document(pages: 1000, resources: page, node: node).write(into: folder)
        let made = try #require(try PDFDefaultCMYK(path: pdf, profile: Self.profile))
        #expect(made.pages == 1000 && made.rewrittenObjects == 1)
        let text = String(decoding: made.update, as: UTF8.self)
        #expect(text.components(separatedBy: "/DefaultCMYK [/ICCBased").count == 2)
        #expect(text.contains(page == nil ? "2 0 obj" : "3 0 obj") && !text.contains("/Type /Page\n"))
        // The update: one resources object (a node also lists its 1,000 kids), the profile, the cross-reference
        // section and the trailer.
        let written = made.update.count - Self.profile.count
        let kids = (0..<1000).map { "\(10 + $0) 0 R" }.joined(separator: " ").utf8.count
        let object = Self.sharedResources.utf8.count + (page == nil ? kids : 0)
        print(
            "1,000 pages sharing \(Self.sharedResources.utf8.count) bytes of resources: an update of \(written) bytes")
        #expect(written < object + 600, "\(written) bytes written for a resources object of about \(object)")
    }

    @Test func pagesWithResourcesOfTheirOwnAreEachWrittenAgain() throws {
        let folder = try TemporaryFolder()
        let pdf = try Self.document(pages: 3, resources: "<< /Font << /F1 4 0 R >> >>").write(into: folder)
        let made = try #require(try PDFDefaultCMYK(path: pdf, profile: Self.profile))
        #expect(made.pages == 3 && made.rewrittenObjects == 3)
    }

    @Test func pastThePageCapTheDocumentIsDrawnAsItIs() throws {
        // 10,001 pages sharing their resources: past maximumPages, no update and no copy.
        let folder = try TemporaryFolder()
        let pages = PDFDefaultCMYK.maximumPages + 1
        let pdf = try Self.document(pages: pages, resources: "3 0 R").write(into: folder)
        #expect(
            throws: RasterError.limitExceeded(
                limit: "pages of a DefaultCMYK update", value: pages, maximum: PDFDefaultCMYK.maximumPages)
        ) { try PDFDefaultCMYK(path: pdf, profile: Self.profile) }
        #expect(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: folder.path) == nil)
        #expect(try PDFDefaultCMYK(path: pdf, profile: Self.profile, maximumPages: pages)?.pages == pages)
    }

    @Test func pastTheByteCapTheDocumentIsDrawnAsItIs() throws {
        // 17 pages of 1 MiB of resources each (a string of the longest the scanner keeps), each its own: 17 MiB to
        // write again, past maximumUpdateBytes (16 MiB); 15 of them fit.
        let folder = try TemporaryFolder()
        let string = "(" + String(repeating: "x", count: PDFObjectScanner.maximumStringBytes - 2) + ")"
        for (pages, fits) in [(15, true), (17, false)] {
            let pdf = try Self.document(pages: pages, resources: "<< /Big \(string) >>").write(into: folder)
            if fits {
                #expect(try PDFDefaultCMYK(path: pdf, profile: Self.profile)?.rewrittenObjects == pages)
                continue
            }
            let error = #expect(throws: RasterError.self) { try PDFDefaultCMYK(path: pdf, profile: Self.profile) }
            guard case .limitExceeded(let limit, _, let maximum)? = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
            #expect(limit == "bytes of a DefaultCMYK update" && maximum == PDFDefaultCMYK.maximumUpdateBytes)
            #expect(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: folder.path) == nil)
        }
    }

    @Test func theCopyIsMadeInTheJobsFolderAndLeavesNothingThere() throws {
        let folder = try TemporaryFolder()
        let job = folder.file("job")
        try FileManager.default.createDirectory(atPath: job, withIntermediateDirectories: false)
        let pdf = try Self.document(pages: 2, resources: "3 0 R").write(into: folder)
        let copy = try #require(PDFDefaultCMYK.colorManagedCopy(of: pdf, in: job))
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(copy.path, &buffer, buffer.count - 1)
        let target = String(decoding: buffer.prefix(max(0, count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(target.hasPrefix(job + "/.vprinter-pdf-") && target.hasSuffix(" (deleted)"), "\(target)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: job).isEmpty)
        // The copy: the document and the update, nothing else.
        var copied = stat()
        var original = stat()
        #expect(stat(copy.path, &copied) == 0 && stat(pdf, &original) == 0)
        let profile = try #require(PDFDefaultCMYK.pressProfile)
        let made = try #require(try PDFDefaultCMYK(path: pdf, profile: profile))
        #expect(Int(copied.st_size) == Int(original.st_size) + made.update.count)
        withExtendedLifetime(copy) {}
    }

    @Test func realsAreWrittenWithoutAnExponent() {
        #expect(PDFValue.decimal(0.00001) == "0.00001")
        #expect(PDFValue.decimal(-595.5) == "-595.5")
        #expect(PDFValue.decimal(12) == "12")
        #expect(PDFValue.decimal(.infinity) == "0")
        #expect(PDFValue.decimal(1e300) == "0")
    }
}

/// A small PDF written object by object with a classic cross-reference table, for structures Ghostscript does not
/// write.
final class PDFBuilder {
    private var bytes = Array("%PDF-1.7\n".utf8)
    private var offsets: [Int: Int] = [:]

    func add(_ number: Int, _ value: String) {
        offsets[number] = bytes.count
        bytes += Array("\(number) 0 obj\n\(value)\nendobj\n".utf8)
    }

    /// Replaces the first occurrence of `text` in the objects added so far with `bytes` (for bytes no Swift
    /// string literal here writes as one byte each), keeping the offsets of later objects right.
    func replace(_ text: String, with bytes: [UInt8]) {
        let pattern = Array(text.utf8)
        guard
            let start = (0...(self.bytes.count - pattern.count)).first(where: {
                self.bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
            })
        else { return }
        self.bytes.replaceSubrange(start..<(start + pattern.count), with: bytes)
        for (number, offset) in offsets where offset > start { offsets[number] = offset + bytes.count - pattern.count }
    }

    func addStream(_ number: Int, _ text: String) {
        addStream(number, Array(text.utf8), dictionary: "")
    }

    func addStream(_ number: Int, _ data: [UInt8], dictionary: String) {
        offsets[number] = bytes.count
        bytes += Array("\(number) 0 obj\n<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8)
        bytes += data
        bytes += Array("\nendstream\nendobj\n".utf8)
    }

    /// Writes the file with its table and trailer; objects missing from the table are listed as free.
    func write(into folder: TemporaryFolder, root: Int = 1) throws -> String {
        let size = (offsets.keys.max() ?? 0) + 1
        let table = bytes.count
        var text = "xref\n0 \(size)\n"
        for number in 0..<size {
            text += offsets[number].map { String(format: "%010d 00000 n\r\n", $0) } ?? "0000000000 65535 f\r\n"
        }
        text += "trailer\n<< /Size \(size) /Root \(root) 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        let path = folder.file("built-\(UUID().uuidString).pdf")
        try Data(bytes + Array(text.utf8)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
