import Foundation
import IPP
import Testing
import VirtualPrinterKit

/// The request journal from a Swift test: what the client sent, and verification with its near misses.
@Suite(.timeLimit(.minutes(1))) struct LibraryJournalTests {
    @Test func aSwiftTestSeesWhatItsClientSentAndVerifiesIt() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(outputDirectory: scratch.path + "/out", render: false)
        defer { printer.stop() }
        let client = try IPPClient(uri: printer.uri)
        _ = try client.send(ippRequest(.getPrinterAttributes, uri: printer.uri, []))
        let response = try client.send(
            ippRequest(
                .printJob, uri: printer.uri,
                [
                    IPPAttribute("job-name", .name("journal")),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ], job: [IPPAttribute("media", .keyword("iso_a4_210x297mm"))]),
            data: try #require(samplePDF))

        let printJobs = printer.requests(matching: try RequestFilter(parameters: [("operation", "Print-Job")]))
        #expect(printJobs.count == 1)
        #expect(printJobs.first?.ipp?.jobID == Int(try #require(response.jobID)))
        #expect(printJobs.first?.ipp?.document?.sha256.count == 64)
        let inOrder = printer.verify(
            try Verification(
                json: .object([
                    "sequence": .array([
                        .object(["operation": .string("Get-Printer-Attributes")]),
                        .object(["operation": .string("Print-Job")]),
                    ])
                ])))
        #expect(inOrder.pass)
        let letter = printer.verify(
            Verification(
                question: .count(
                    RequestMatcher(
                        operation: "Print-Job",
                        attributes: [.init(name: "media", test: .equals("na_letter_8.5x11in"))]),
                    atLeast: 1, atMost: nil)))
        #expect(!letter.pass)
        #expect(letter.nearMisses.first?.missed == ["attribute media: iso_a4_210x297mm, not na_letter_8.5x11in"])
    }
}
