import Foundation
import IPP
import Testing
import VirtualPrinterKit

/// The library product in use, as a Swift test suite would use it: start a printer in-process on port 0, print to
/// it with a plain IPP request, wait for the job and assert on its typed record, reset, stop.
@Suite(.timeLimit(.minutes(1))) struct LibraryExampleTests {
    @Test func aJobPrintedToAnEmbeddedPrinterComesBackAsATypedRecord() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(profile: "duplex-laser", outputDirectory: scratch.path + "/out")
        defer { printer.stop() }
        let pdf = try #require(samplePDF)

        let response = try IPPClient(uri: printer.uri).send(
            ippRequest(
                .printJob, uri: printer.uri,
                [
                    IPPAttribute("job-name", .name("library example")),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ], job: [IPPAttribute("copies", .integer(2))]),
            data: pdf)
        #expect(response.jobID == 1)

        let records = try await printer.waitForJobs(count: 1, timeout: waitLimit)
        let record = try #require(records.first)
        #expect(record.jobState == .completed)
        #expect(record.jobName == "library example")
        #expect(record.jobOriginatingUserName == "e2e")
        #expect(record.attributes["copies"]?.intValue == 2)
        #expect(record.documents.first?.documentFormatDetected == "application/pdf")
        #expect(record.documents.first?.size == pdf.count)
        #expect(record.impressions.count == 1)
        #expect(record.jobImpressions == 2)
        let page = try #require(record.impressions.first)
        #expect(FileManager.default.fileExists(atPath: "\(printer.outputDirectory)/jobs/1/\(page.file)"))

        #expect(printer.reset() == 1)
        #expect(try printer.jobs().isEmpty)
    }

    @Test func waitingForMoreJobsThanEndTimesOutWithTheEndedOnes() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(outputDirectory: scratch.path + "/out", render: false)
        defer { printer.stop() }
        await #expect(throws: EmbeddedPrinterError.timedOut(ended: [], expected: 1)) {
            try await printer.waitForJobs(count: 1, timeout: 0.2)
        }
    }

    @Test(arguments: [-1.0, EmbeddedPrinter.maximumWaitTimeout + 1, .infinity, .nan])
    func aWaitWithATimeoutOutOfRangeIsRefused(timeout: Double) async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(outputDirectory: scratch.path + "/out", render: false)
        defer { printer.stop() }
        await #expect(throws: EmbeddedPrinterError.self) {
            try await printer.waitForJobs(count: 1, timeout: timeout)
        }
    }

    @Test func anUnknownProfileIsATypedError() async throws {
        let scratch = try ScratchFolder()
        await #expect(throws: EmbeddedPrinterError.self) {
            try await EmbeddedPrinter.start(profile: "no-such-profile", outputDirectory: scratch.path + "/out")
        }
    }
}
