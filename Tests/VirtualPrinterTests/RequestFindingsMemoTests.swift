import IPP
import RequestJournal
import Testing

@testable import PrinterCore
@testable import PrinterHTTP

/// The journal checks a request a polling client repeats once: the same request (bar its request-id) to the same
/// printer attributes takes the findings of the last one.
@Suite struct RequestFindingsMemoTests {
    let finding = [ClientFinding(.requestID, "found once")]

    @Test func aRequestRepeatedWithAnotherRequestIDIsCheckedOnce() {
        let memo = RequestFindingsMemo()
        var checks = 0
        let check = { () -> [ClientFinding] in
            checks += 1
            return finding
        }
        #expect(
            memo.findings(in: ippRequest(.getPrinterAttributes, requestID: 5), printer: nil, check: check) == finding)
        #expect(
            memo.findings(in: ippRequest(.getPrinterAttributes, requestID: 6), printer: nil, check: check) == finding)
        #expect(checks == 1)
    }

    @Test func anotherRequestOrOtherAttributesOrARequestIDOfZeroAreChecked() throws {
        let memo = RequestFindingsMemo()
        var checks = 0
        let check = { () -> [ClientFinding] in
            checks += 1
            return []
        }
        _ = memo.findings(in: ippRequest(.getPrinterAttributes, requestID: 5), printer: nil, check: check)
        _ = memo.findings(in: ippRequest(.getJobs, requestID: 5), printer: nil, check: check)
        #expect(checks == 2)
        let printer = AdvertisedPrinter(try PrinterHarness().printer)
        _ = memo.findings(in: ippRequest(.getJobs, requestID: 5), printer: printer, check: check)
        #expect(checks == 3)
        _ = memo.findings(in: ippRequest(.getJobs, requestID: 0), printer: printer, check: check)
        _ = memo.findings(in: ippRequest(.getJobs, requestID: 0), printer: printer, check: check)
        #expect(checks == 5)
    }
}
