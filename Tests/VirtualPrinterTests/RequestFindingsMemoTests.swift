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

    /// A repeated request is journaled with the groups of the one before (the same buffer, not a copy of its
    /// own); another request keeps its own.
    @Test func aRepeatedRequestSharesTheGroupsOfTheOneBefore() {
        let memo = RequestFindingsMemo()
        let first = ippRequest(.getPrinterAttributes, requestID: 5)
        let again = ippRequest(.getPrinterAttributes, requestID: 6)
        let other = ippRequest(.getJobs, requestID: 7)
        let kept = memo.seen(first, printer: nil) { [] }.groups
        let shared = memo.seen(again, printer: nil) { [] }.groups
        #expect(shared == again.groups)
        #expect(shared.withUnsafeBufferPointer { $0.baseAddress } == kept.withUnsafeBufferPointer { $0.baseAddress })
        #expect(
            again.groups.withUnsafeBufferPointer { $0.baseAddress } != kept.withUnsafeBufferPointer { $0.baseAddress })
        let own = memo.seen(other, printer: nil) { [] }.groups
        #expect(
            own.withUnsafeBufferPointer { $0.baseAddress } == other.groups.withUnsafeBufferPointer { $0.baseAddress })
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

    /// The memo keeps the last request whole: one that holds a secret (a PWG 5100.11 job-password) is never kept,
    /// so that no secret outlives its request there (the journal redacts it: `SecretAttributes`).
    @Test func aRequestWithASecretIsNotKept() {
        let memo = RequestFindingsMemo()
        var checks = 0
        let pin = [IPPAttribute("job-password", .octetString(Array("8642".utf8)))]
        for requestID: Int32 in [5, 6] {
            _ = memo.findings(in: ippRequest(.printJob, requestID: requestID, pin), printer: nil) {
                checks += 1
                return []
            }
        }
        #expect(checks == 2)
    }
}
