import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP

/// Issue 40: two Send-Document (or Send-URI) requests for one job at once both took `documents.count + 1`, and
/// the second document overwrote the first's file. Each now takes its number under the job's lock.
@Suite struct DocumentNumberTests {
    @Test func documentsArrivingAtOnceGetNumbersOfTheirOwn() throws {
        let harness = try PrinterHarness()
        let created = try harness.send(
            ippRequest(.createJob, [IPPAttribute("requesting-user-name", .name("alice"))]))
        let id = try #require(created.groups.flatMap(\.attributes).first { $0.name == "job-id" }?.value?.integerValue)
        let jobID = Int(id)
        // Two documents whose requests both arrived before either was stored.
        #expect(try harness.printer.nextDocumentNumber(of: jobID).get() == 1)
        #expect(try harness.printer.nextDocumentNumber(of: jobID).get() == 2)
        // One more, sent whole: it is document 3, and the job lists what was stored.
        let sent = try harness.send(
            ippRequest(
                .sendDocument,
                [
                    IPPAttribute("job-id", .integer(id)), IPPAttribute("requesting-user-name", .name("alice")),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                    IPPAttribute("last-document", .boolean(true)),
                ]), data: EnterpriseJobTests.pdf)
        #expect(sent.status == .successfulOK)
        #expect(harness.printer.job(jobID)?.documents.map(\.number) == [3])
    }
}
