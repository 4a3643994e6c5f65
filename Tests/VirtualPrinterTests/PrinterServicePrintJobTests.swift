import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Print-Job through PrinterService.handle, without sockets: documents land on disk, errors abort the job.
@Suite(.timeLimit(.minutes(1))) struct PrinterServicePrintJobTests {
    static let pdfBytes = Array("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".utf8)
    static let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 2, 3]

    func printJob(format: String, compression: String? = nil, job: [IPPAttribute]? = nil) -> IPPMessage {
        var extra = [
            IPPAttribute("requesting-user-name", .name("alice")), IPPAttribute("job-name", .name("sample")),
            IPPAttribute("document-format", .mimeMediaType(format)),
        ]
        if let compression { extra.append(IPPAttribute("compression", .keyword(compression))) }
        return ippRequest(.printJob, requestID: 42, extra, job: job)
    }

    @Test func printJobCompletesWithTheDocumentAndItsHashOnDisk() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(
            printJob(format: "application/pdf", job: [IPPAttribute("copies", .integer(2))]), data: Self.pdfBytes)
        #expect(response.status == .successfulOK)
        #expect(response.requestID == 42)
        let id = try #require(response.jobID)
        #expect(response.attribute("job-uri", in: .jobAttributes)?.value == .uri("ipp://localhost:631/ipp/print/\(id)"))
        let job = try #require(harness.ended(id))
        #expect(job.state == .completed)
        #expect(job.user == "alice" && job.name == "sample")

        let record = try harness.record(id)
        #expect(record["job-state"] as? String == "completed")
        #expect((record["attributes"] as? [String: Any])?["copies"] as? Int == 2)
        let document = try #require((record["documents"] as? [[String: Any]])?.first)
        var hash = SHA256()
        hash.update(Self.pdfBytes)
        #expect(document["sha256"] as? String == hash.hexDigest())
        #expect(document["size"] as? Int == Self.pdfBytes.count)
        #expect(document["file"] as? String == "document-1.pdf")
        let stored = try Data(contentsOf: URL(fileURLWithPath: "\(harness.folder.path)/jobs/\(id)/document-1.pdf"))
        #expect(Array(stored) == Self.pdfBytes)
    }

    @Test func gzipCompressedPrintJobIsStoredDecompressed() throws {
        let harness = try PrinterHarness()
        let plain = Self.pdfBytes + InflaterTests.plain
        let compressed = try InflaterTests.compress(plain, as: "gzip")
        let response = try harness.send(printJob(format: "application/pdf", compression: "gzip"), data: compressed)
        #expect(response.status == .successfulOK)
        let id = try #require(response.jobID)
        #expect(harness.ended(id)?.state == .completed)
        let document = try #require(harness.printer.job(id)?.documents.first)
        #expect(document.compression == "gzip")
        #expect(document.size == plain.count)
        var hash = SHA256()
        hash.update(plain)
        #expect(document.sha256 == hash.hexDigest())
    }

    @Test func corruptGzipIsACompressionErrorAndAbortsTheJob() throws {
        let harness = try PrinterHarness()
        var compressed = try InflaterTests.compress(Self.pdfBytes + InflaterTests.plain, as: "gzip")
        for index in stride(from: 12, to: compressed.count, by: 5) { compressed[index] ^= 0xA5 }
        let response = try harness.send(printJob(format: "application/pdf", compression: "gzip"), data: compressed)
        #expect(response.status == .clientErrorCompressionError)
        let id = try #require(response.jobID)
        let job = try #require(harness.printer.job(id))
        #expect(job.state == .aborted)
        #expect(job.reasons == ["compression-error"])
        #expect(try harness.record(id)["job-state-reasons"] as? [String] == ["compression-error"])
        #expect(harness.folder.contents(of: "jobs/\(id)") == ["job.json"], "no partial document is left")
    }

    @Test func truncatedGzipIsACompressionError() throws {
        let harness = try PrinterHarness()
        let compressed = try InflaterTests.compress(Self.pdfBytes + InflaterTests.plain, as: "gzip")
        let response = try harness.send(
            printJob(format: "application/pdf", compression: "gzip"), data: Array(compressed.prefix(100)))
        #expect(response.status == .clientErrorCompressionError)
        #expect(harness.printer.job(try #require(response.jobID))?.state == .aborted)
    }

    @Test func aDocumentOverTheLimitIsTooLargeAndAbortsTheJob() throws {
        let harness = try PrinterHarness(maximumDocumentSize: 64)
        let response = try harness.send(
            printJob(format: "application/pdf"), data: Self.pdfBytes + [UInt8](repeating: 0x20, count: 64))
        #expect(response.status == .clientErrorRequestEntityTooLarge)
        let id = try #require(response.jobID)
        let job = try #require(harness.printer.job(id))
        #expect(job.state == .aborted)
        #expect(job.reasons == ["aborted-by-system"])
        #expect(job.message.contains("64"))
        #expect(harness.folder.contents(of: "jobs/\(id)") == ["job.json"])
    }

    @Test func aDocumentExactlyAtTheLimitIsAccepted() throws {
        let harness = try PrinterHarness(maximumDocumentSize: Self.pdfBytes.count)
        let response = try harness.send(printJob(format: "application/pdf"), data: Self.pdfBytes)
        #expect(response.status == .successfulOK)
        #expect(harness.ended(try #require(response.jobID))?.state == .completed)
    }

    @Test func unrecognizableOctetStreamIsAbortedAsUnsupportedFormat() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(
            printJob(format: "application/octet-stream"), data: Array("just some words".utf8))
        #expect(response.status == .successfulOK)
        let id = try #require(response.jobID)
        let job = try #require(harness.ended(id))
        #expect(job.state == .aborted)
        #expect(job.reasons == ["unsupported-document-format"])
        #expect(job.documents.first?.file == "document-1.bin")
    }

    @Test func octetStreamThatIsAPDFIsPrinted() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(printJob(format: "application/octet-stream"), data: Self.pdfBytes)
        let id = try #require(response.jobID)
        let job = try #require(harness.ended(id))
        #expect(job.state == .completed)
        #expect(job.documents.first?.detectedFormat == "application/pdf")
    }

    @Test func mislabelledDataIsRecordedWithTheDetectedFormat() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(printJob(format: "application/pdf"), data: Self.jpegBytes)
        let id = try #require(response.jobID)
        #expect(harness.ended(id)?.state == .completed)
        let document = try #require((try harness.record(id)["documents"] as? [[String: Any]])?.first)
        #expect(document["document-format"] as? String == "application/pdf")
        #expect(document["document-format-detected"] as? String == "image/jpeg")
        #expect(document["file"] as? String == "document-1.jpg")
    }

    @Test func anUnsupportedDocumentFormatIsRefusedBeforeAJobExists() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(printJob(format: "application/vnd.ms-excel"), data: Self.pdfBytes)
        #expect(response.status == .clientErrorDocumentFormatNotSupported)
        #expect(response.jobID == nil)
        #expect(harness.printer.jobs.isEmpty)
        #expect(
            response.attribute("document-format", in: .unsupportedAttributes)?.value
                == .mimeMediaType("application/vnd.ms-excel"))
    }

    @Test func anUnsupportedCompressionIsRefused() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(printJob(format: "application/pdf", compression: "compress"), data: [])
        #expect(response.status == .clientErrorCompressionNotSupported)
        #expect(harness.printer.jobs.isEmpty)
    }

    @Test func unsupportedJobAttributesAreIgnoredUnlessFidelityIsAsked() throws {
        let harness = try PrinterHarness()
        let ticket = [IPPAttribute("copies", .integer(1000))]
        let lenient = try harness.send(printJob(format: "application/pdf", job: ticket), data: Self.pdfBytes)
        #expect(lenient.status == .successfulOKIgnoredOrSubstitutedAttributes)
        #expect(lenient.attribute("copies", in: .unsupportedAttributes)?.value == .integer(1000))
        #expect(harness.ended(try #require(lenient.jobID))?.templateAttributes.isEmpty == true)

        var strict = printJob(format: "application/pdf", job: ticket)
        strict.groups[0].append(IPPAttribute("ipp-attribute-fidelity", .boolean(true)))
        let refused = try harness.send(strict, data: Self.pdfBytes)
        #expect(refused.status == .clientErrorAttributesOrValuesNotSupported)
        #expect(harness.printer.jobs.count == 1)
    }
}
