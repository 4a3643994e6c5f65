import Foundation
import PrintModel
import Testing

@testable import PrinterCore

/// What lies on the glass: `--scan-source` files and folders, and a source a client sends through the API.
@Suite struct ScanSourceTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scan-source-\(UUID().uuidString)").path
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let pdf = Array("%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj\n".utf8)

    func write(_ name: String, _ bytes: [UInt8]) -> String {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/\(name)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func aPDFGivesAPageAnImageAndAnImageEveryImage() throws {
        let pdf = try ScanSourceFiles.open(write("doc.pdf", Self.pdf))
        #expect(pdf.page(ofImage: 1) == (pdf.path, 1) && pdf.page(ofImage: 3) == (pdf.path, 3))
        let image = try ScanSourceFiles.open(write("photo.png", Self.png))
        #expect(image.page(ofImage: 2).path == image.path && !image.isFolder)
    }

    @Test func aFolderGivesItsFilesInNameOrderAndRepeats() throws {
        _ = write("b.png", Self.png)
        _ = write("a.pdf", Self.pdf)
        _ = write("c.txt", Array("notes".utf8))
        _ = write(".hidden.png", Self.png)
        try FileManager.default.createDirectory(atPath: "\(folder)/sub.png", withIntermediateDirectories: true)
        let source = try ScanSourceFiles.open(folder)
        #expect(source.files == ["\(folder)/a.pdf", "\(folder)/b.png"])
        #expect(source.page(ofImage: 2) == ("\(folder)/b.png", 1))
        #expect(source.page(ofImage: 3) == ("\(folder)/a.pdf", 1), "the stack is fed again")
    }

    @Test func whatCannotBeScannedIsRefusedWithWhy() throws {
        let text = write("notes.txt", Array("notes".utf8))
        let raster = write("page.pwg", Array("RaS2".utf8) + [UInt8](repeating: 0, count: 16))
        let empty = "\(folder)/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let cases = [
            ("\(folder)/missing.pdf", "does not exist"), (text, "cannot be read"),
            (raster, "image/pwg-raster, not a PDF, PNG or JPEG file"), (empty, "holds no PDF, PNG or JPEG file"),
        ]
        for (path, why) in cases {
            let error = #expect(throws: ScanSourceError.self) { try ScanSourceFiles.open(path) }
            #expect(error?.message.contains(why) == true, "\(path): \(String(describing: error))")
        }
    }

    @Test func aSourceSentThroughTheAPIIsStoredWholeOrNotAtAll() throws {
        let imaging = ScannerDeviceTests.StandInImaging()
        let device = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp")
        #expect(device.source == nil, "the test chart")
        func send(_ bytes: [UInt8], failing: Bool = false) -> Result<ScanSourceFiles, ScanSourceError> {
            var offset = 0
            return device.receiveSource { buffer in
                if failing, offset > 0 { throw CancellationError() }
                let count = min(buffer.count, bytes.count - offset, 5)
                bytes.withUnsafeBytes { all in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
                }
                offset += count
                return count
            }
        }
        let stored = try send(Self.pdf).get()
        #expect(stored.path.hasSuffix(".pdf") && device.source == stored)
        #expect(FileManager.default.contents(atPath: stored.path) == Data(Self.pdf))
        #expect(send(Array("plain text".utf8)).failure?.message.contains("PDF, PNG or JPEG") == true)
        #expect(send(Self.png, failing: true).failure?.message.contains("not received whole") == true)
        #expect(device.source == stored, "a refused source leaves the last one")
        // Each source has a folder of its own; a refused one leaves neither its folder nor a partial file.
        let upload = (stored.path as NSString).deletingLastPathComponent
        let folders = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/scans/sources")
        #expect(folders == [(upload as NSString).lastPathComponent], "no refused upload stays")
        let files = try FileManager.default.contentsOfDirectory(atPath: upload)
        #expect(files == [(stored.path as NSString).lastPathComponent], "no partial file stays")

        // One byte past the limit, as a chunked body may carry it: refused for its size, and nothing stays.
        var sent = 0
        let oversized = device.receiveSource { buffer in
            let count = min(buffer.count, ScannerDevice.maximumSourceBytes + 1 - sent)
            if sent == 0 { buffer.copyBytes(from: Self.png) }
            sent += count
            return count
        }
        #expect(oversized.failure?.isTooLarge == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/scans/sources").count == 1)

        let job = try device.createJob(settingsBody: ScannerDeviceTests().settings("Platen"), client: nil, now: 1).get()
        _ = try device.nextImage(job: job.uuid).get()
        #expect(imaging.pages.withLock { $0.last?.sourcePath } == stored.path)
        device.resetSource()
        #expect(device.source == nil && !FileManager.default.fileExists(atPath: upload))
    }
}
