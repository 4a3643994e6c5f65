import Foundation
import IPP
import Testing
import VirtualPrinterKit

/// What was printed, read through the library product: the text of printed sides, job queries, and snapshot
/// comparison of printed sides, as a Swift test suite would use them on an embedded printer.
@Suite struct LibraryPrintedTests {
    private func print(_ printer: EmbeddedPrinter, name: String, job: [IPPAttribute] = []) throws {
        let pdf = try #require(samplePDF)
        _ = try IPPClient(uri: printer.uri).send(
            ippRequest(
                .printJob, uri: printer.uri,
                [
                    IPPAttribute("job-name", .name(name)),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ], job: job),
            data: pdf)
    }

    /// One format detector for the printer and the worker: a PDF whose header follows other bytes (as readers
    /// accept, ISO 32000-1 annex H.3), sent as application/octet-stream, is stored as PDF and printed, where the
    /// printer once refused what its worker would have rendered.
    @Test func anOctetStreamPDFWithLeadingBytesPrints() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(profile: "duplex-laser", outputDirectory: scratch.path + "/out")
        defer { printer.stop() }
        let pdf = try #require(samplePDF)
        let answer = try IPPClient(uri: printer.uri).send(
            ippRequest(
                .printJob, uri: printer.uri,
                [
                    IPPAttribute("job-name", .name("leading-bytes")),
                    IPPAttribute("document-format", .mimeMediaType("application/octet-stream")),
                ]),
            data: Array("\u{1B}%-12345X@PJL JOB\r\n".utf8) + pdf)
        #expect(answer.status == .successfulOK)
        let ended = try await printer.waitForJobs(count: 1, timeout: waitLimit)
        let record = try #require(ended.first)
        #expect(record.jobState == .completed, "\(record.jobStateMessage)")
        #expect(record.documents.first?.documentFormatDetected == .pdf)
        #expect(record.documents.first?.file == "document-1.pdf")
        #expect(record.impressions.count == 1)
    }

    /// An embedded printer is built where every printer is, so it has a printer-id (PWG 5100.22) as those of a
    /// fleet have.
    @Test func anEmbeddedPrinterHasAPrinterID() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(
            profile: "simplex-laser", outputDirectory: scratch.path + "/out", render: false)
        defer { printer.stop() }
        let answer = try IPPClient(uri: printer.uri).send(
            ippRequest(.getPrinterAttributes, uri: printer.uri, requestID: 2))
        #expect(answer.attribute("printer-id", in: .printerAttributes)?.value == .integer(1))
    }

    @Test func textQueriesAndAFilteredResetOfAnEmbeddedPrinter() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(profile: "duplex-laser", outputDirectory: scratch.path + "/out")
        defer { printer.stop() }
        try print(printer, name: "one-sided")
        try print(printer, name: "two-sided", job: [IPPAttribute("sides", .keyword("two-sided-long-edge"))])
        var twoSided = JobQuery()
        twoSided.sides = ["two-sided"]
        let ended = try await printer.waitForJobs(count: 1, matching: twoSided, timeout: waitLimit)
        #expect(ended.map(\.jobName) == ["two-sided"])
        _ = try await printer.waitForJobs(count: 2, timeout: waitLimit)

        let sides = try printer.text(jobID: 1)
        #expect(sides.count == 1 && sides[0].source == .pdf)
        #expect(sides[0].text == "vprinter\n", "\(sides)")
        #expect(throws: EmbeddedPrinterError.noSuchJob(99)) { try printer.text(jobID: 99) }

        let query = try JobQuery(parameters: [("text", "VPRINTER"), ("since", "1")])
        #expect(try printer.jobs(matching: query).map(\.jobID) == [2])
        let record = try #require(try printer.jobs().first)
        #expect(record.mediaActual == "na_letter_8.5x11in" && record.sidesActual == "one-sided")
        // The test PDF sets its text in Helvetica without embedding it: vprinter's fonts/fonts.conf prints URW's clone.
        #expect(record.ignoredAttributes == [] && record.warnings.map(\.kind) == [.fontSubstituted])
        #expect(record.warnings.first?.message.contains("(NimbusSans-Regular.otf)") == true, "\(record.warnings)")
        #expect(record.impressions.first?.facts?.blank == false && record.impressions.first?.textSource == .pdf)
        #expect((record.impressions.first?.facts?.inkCoverage.black ?? 0) > 0)

        #expect(printer.reset(matching: twoSided) == 1)
        #expect(try printer.jobs().map(\.jobName) == ["one-sided"])
    }

    @Test func snapshotsOfTwoJobsOfTheSameDocumentMatchAndUpdateMakesTheExpectedSides() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(profile: "duplex-laser", outputDirectory: scratch.path + "/out")
        defer { printer.stop() }
        try print(printer, name: "first")
        try print(printer, name: "second")
        try print(printer, name: "a4", job: [IPPAttribute("media", .keyword("iso_a4_210x297mm"))])
        _ = try await printer.waitForJobs(count: 3, timeout: waitLimit)
        let jobs = printer.outputDirectory + "/jobs"

        let same = try Snapshot.compare(actual: jobs + "/2", expected: jobs + "/1")
        #expect(same.passed && same.sides.count == 1 && same.sides[0].psnr == .infinity)

        let other = try Snapshot.compare(actual: jobs + "/3", expected: jobs + "/1")
        #expect(!other.passed && other.failures.map(\.status) == [.sizeMismatch])

        let golden = scratch.path + "/golden"
        #expect(try Snapshot.compare(actual: jobs + "/3", expected: golden).failures.map(\.status) == [.extra])
        #expect(try Snapshot.update(actual: jobs + "/3", expected: golden) == [golden + "/page-0001.png"])
        #expect(try Snapshot.compare(actual: jobs + "/3", expected: golden).passed)
        #expect(throws: SnapshotError.notFound(scratch.path + "/none")) {
            try Snapshot.compare(actual: scratch.path + "/none", expected: golden)
        }
    }
}
