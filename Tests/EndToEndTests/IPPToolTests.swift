import Foundation
import TestSupport
import Testing

/// CUPS's own client against the built binary: `ipptool -t` with print-job.test, the document rendered.
@Suite(.timeLimit(.minutes(1))) struct IPPToolTests {
    static let ipptool = "/usr/bin/ipptool"
    static let suite = "/usr/share/cups/ipptool/print-job.test"

    @Test func ipptoolPrintJobTestPasses() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.ipptool),
            "ipptool is missing: scripts/setup installs it (Debian package cups-ipp-utils)")
        try #require(
            FileManager.default.fileExists(atPath: Self.suite),
            "print-job.test is missing: scripts/setup installs it (Debian package cups-ipp-utils)")
        let pdf = try #require(samplePDF, "ghostscript could not make a sample PDF: scripts/setup installs it")
        let scratch = try ScratchFolder()
        let document = scratch.path + "/sample.pdf"
        try Data(pdf).write(to: URL(fileURLWithPath: document))
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(
            ["--port", "0", "--listen", "127.0.0.1", "--no-dnssd", "--output-dir", output], scratch: scratch)

        let tool = try ChildProcess.run(Self.ipptool, ["-t", "-T", "20", "-f", document, uris[0], Self.suite])
        let report = tool.outputText + tool.errorOutput
        #expect(tool.status == 0, "ipptool failed:\n\(report)")
        #expect(report.contains("PASS"))

        // The job ipptool sent is rendered: wait (bounded) for its record to end, then look at its pages.
        let client = try IPPClient(uri: uris[0])
        #expect(try client.waitForEnd(uris[0], jobID: 1) == 9, "stderr: \(printer.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/jobs/1/job.json"))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let impressions = try #require(record["impressions"] as? [[String: Any]])
        #expect(impressions.count == 1)
        let page = try #require(impressions.first?["file"] as? String)
        #expect(FileManager.default.fileExists(atPath: output + "/jobs/1/" + page))
        #expect(printer.terminate() == 0)
    }
}
