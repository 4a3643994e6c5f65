import Foundation
import Rasterizer
import Testing

/// The PNG writer, read back by ImageMagick.
@Suite(.timeLimit(.minutes(1))) struct PNGWriterTests {
    @Test func grayAndRGBRowsAreWrittenWithTheirResolution() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("rows.png")
        let writer = try PNGWriter(path: path, width: 3, height: 2, layout: .rgb, resolution: 300)
        let rows: [[UInt8]] = [[255, 0, 0, 0, 255, 0, 0, 0, 255], [0, 0, 0, 128, 128, 128, 255, 255, 255]]
        for row in rows { row.withUnsafeBytes { writer.writeRow($0.baseAddress!) } }
        try writer.finish()
        let image = try harness.decode(path)
        #expect(image.pixels == rows.flatMap { $0 })
        let density = try ExternalTool.run("identify", ["-units", "PixelsPerInch", "-format", "%x", path])
        #expect(String(decoding: density, as: UTF8.self).hasPrefix("300"))
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    }

    @Test func unfinishedFileLeavesNothingBehind() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("unfinished.png")
        do {
            let writer = try PNGWriter(path: path, width: 4, height: 4, layout: .gray, resolution: 72)
            #expect(FileManager.default.fileExists(atPath: path + ".part"))
            _ = writer
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    }

    @Test func unwritableFolderIsAnAccessError() {
        do {
            _ = try PNGWriter(path: "/nonexistent-folder/page.png", width: 1, height: 1, layout: .gray, resolution: 72)
            Issue.record("a PNG file was created in a missing folder")
        } catch {
            #expect(error.ippReason == "document-access-error")
        }
    }
}
