import Foundation
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// DocumentWriter: streamed storage, size limit, names from the detected format.
@Suite struct DocumentWriterTests {
    static let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x11, count: 100)

    func writer(
        _ folder: TemporaryFolder, format: DocumentFormat = .pdf, compression: String = "none",
        maximumSize: Int = 1 << 20
    ) -> DocumentWriter {
        DocumentWriter(
            folder: folder.path, number: 1, declaredFormat: format, compression: compression, name: "doc",
            maximumSize: maximumSize)
    }

    @Test func storedDocumentIsNamedForTheDetectedFormatNotTheDeclaredOne() throws {
        let folder = try TemporaryFolder()
        let writer = writer(folder, format: "application/pdf")
        try writer.write(Self.jpegBytes.prefix(2))
        try writer.write(Self.jpegBytes.dropFirst(2))
        let record = try writer.finish()
        #expect(record.file == "document-1.jpg")
        #expect(record.format == "application/pdf")
        #expect(record.detectedFormat == "image/jpeg")
        #expect(record.size == Self.jpegBytes.count)
        #expect(record.name == "doc")
        #expect(record.compression == "none")
        #expect(folder.contents() == ["document-1.jpg"])
        let stored = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/document-1.jpg"))
        #expect(Array(stored) == Self.jpegBytes)
        var hash = SHA256()
        hash.update(Self.jpegBytes)
        #expect(record.sha256 == hash.hexDigest())
    }

    @Test func unknownBytesTakeTheDeclaredFormatsExtension() throws {
        let folder = try TemporaryFolder()
        let writer = writer(folder, format: "text/plain")
        try writer.write(Array("hello".utf8))
        let record = try writer.finish()
        #expect(record.detectedFormat == nil)
        #expect(record.file == "document-1.txt")
    }

    @Test func unknownBytesOfAnUnknownDeclaredFormatAreStoredAsBin() throws {
        let folder = try TemporaryFolder()
        let writer = writer(folder, format: "application/octet-stream")
        try writer.write([0x00, 0x01, 0x02])
        #expect(try writer.finish().file == "document-1.bin")
    }

    @Test func anEmptyDocumentIsStoredAsAnEmptyFile() throws {
        let folder = try TemporaryFolder()
        let record = try writer(folder).finish()
        #expect(record.size == 0)
        #expect(record.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(folder.contents() == ["document-1.pdf"])
    }

    @Test func sizeAtTheLimitIsAcceptedAndOneByteMoreIsTooLarge() throws {
        let folder = try TemporaryFolder()
        let exact = writer(folder, format: "application/octet-stream", maximumSize: 1000)
        try exact.write([UInt8](repeating: 1, count: 1000))
        #expect(try exact.finish().size == 1000)

        let overFolder = try TemporaryFolder()
        let over = writer(overFolder, maximumSize: 1000)
        try over.write([UInt8](repeating: 1, count: 600))
        #expect(throws: DocumentError.tooLarge(limit: 1000)) {
            try over.write([UInt8](repeating: 1, count: 401))
        }
        over.discard()
        #expect(overFolder.contents().isEmpty, "no partial file is left")
    }

    @Test func theLimitAppliesToDecompressedBytes() throws {
        let compressed = try InflaterTests.compress([UInt8](repeating: 0x41, count: 50_000), as: "gzip")
        #expect(compressed.count < 1000)
        let folder = try TemporaryFolder()
        let writer = writer(folder, compression: "gzip", maximumSize: 10_000)
        #expect(throws: DocumentError.tooLarge(limit: 10_000)) { try writer.write(compressed) }
        writer.discard()
        #expect(folder.contents().isEmpty)
    }

    @Test func gzipDocumentIsStoredDecompressedWithTheHashOfThePlainBytes() throws {
        let plain = Array("%PDF-1.4\n".utf8) + InflaterTests.plain
        let compressed = try InflaterTests.compress(plain, as: "gzip")
        let folder = try TemporaryFolder()
        let writer = writer(folder, compression: "gzip")
        for start in stride(from: 0, to: compressed.count, by: 999) {
            try writer.write(compressed[start..<min(start + 999, compressed.count)])
        }
        let record = try writer.finish()
        #expect(record.size == plain.count)
        #expect(record.compression == "gzip")
        #expect(record.detectedFormat == "application/pdf")
        var hash = SHA256()
        hash.update(plain)
        #expect(record.sha256 == hash.hexDigest())
        let stored = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + record.file))
        #expect(Array(stored) == plain)
    }

    @Test func truncatedGzipFailsAtFinishAndDiscardLeavesNothing() throws {
        let compressed = try InflaterTests.compress(InflaterTests.plain, as: "gzip")
        let folder = try TemporaryFolder()
        let writer = writer(folder, compression: "gzip")
        try writer.write(compressed.prefix(compressed.count / 2))
        #expect(throws: DocumentError.self) { try writer.finish() }
        writer.discard()
        #expect(folder.contents().isEmpty)
    }

    @Test func aMissingFolderIsAStorageError() {
        let writer = DocumentWriter(
            folder: "/nonexistent-vprinter-folder", number: 1, declaredFormat: "application/pdf", compression: "none",
            name: nil, maximumSize: 100)
        #expect {
            try writer.write([1, 2, 3])
        } throws: { error in
            if case DocumentError.storage = error { return true }
            return false
        }
    }

    @Test func aDocumentHasItsNameOnlyOnceItIsWhole() throws {
        let folder = try TemporaryFolder()
        let writer = writer(folder)
        try writer.write(Self.jpegBytes.prefix(10))
        #expect(folder.contents() == ["document-1.partial"], "a document still arriving has its temporary name")
        try writer.write(Self.jpegBytes.dropFirst(10))
        let record = try writer.finish()
        #expect(folder.contents() == [record.file])
        #expect(FileManager.default.contents(atPath: folder.path + "/" + record.file).map(Array.init) == Self.jpegBytes)
    }
}
