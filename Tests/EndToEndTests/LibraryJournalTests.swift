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

    @Test func aClientsMistakesAreFoundAndAStrictPrinterRefusesThem() async throws {
        let scratch = try ScratchFolder()
        let printer = try await EmbeddedPrinter.start(outputDirectory: scratch.path + "/out", render: false)
        defer { printer.stop() }
        let client = try IPPClient(uri: printer.uri)
        let a3 = [IPPAttribute("media", .keyword("iso_a3_297x420mm"))]
        let lenient = try client.send(ippRequest(.validateJob, uri: printer.uri, job: a3))
        #expect(lenient.status == .successfulOKIgnoredOrSubstitutedAttributes)
        let copiesAsText = [IPPAttribute("copies", .keyword("2"))]
        _ = try client.send(ippRequest(.validateJob, uri: printer.uri, job: copiesAsText))
        let found = printer.requests().compactMap(\.findings)
        #expect(found.map { $0.map(\.rule) } == [[.unsupportedValue], [.valueTag]])
        #expect(found.first?.first?.message.hasPrefix("media iso_a3_297x420mm is not in media-supported: ") == true)
        #expect(printer.clients().hasFinding(atLeast: .error))

        printer.isStrict = true
        let refusedValue = try client.send(ippRequest(.validateJob, uri: printer.uri, job: a3))
        #expect(refusedValue.status == .clientErrorAttributesOrValuesNotSupported)
        let refusedTag = try client.send(ippRequest(.validateJob, uri: printer.uri, job: copiesAsText))
        #expect(refusedTag.status == .clientErrorAttributesOrValuesNotSupported)
        #expect(refusedTag[group: .unsupportedAttributes]?["copies"] != nil)
        let careful = try client.send(
            ippRequest(.validateJob, uri: printer.uri, job: [IPPAttribute("media", .keyword("iso_a4_210x297mm"))]))
        #expect(careful.status == .successfulOK)
        #expect(
            printer.requests().suffix(3).map { $0.findings?.map(\.rule) ?? [] } == [
                [.unsupportedValue], [.valueTag], [],
            ])
    }
}
