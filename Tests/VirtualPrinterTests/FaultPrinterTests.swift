import Foundation
import HTTPServer
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Faults on a real in-process printer: reasons stop and free the printer, request faults answer IPP requests, and
/// the fault API refuses bad faults with the key path.
@Suite(.timeLimit(.minutes(1))) struct FaultPrinterTests {
    /// Sends a JSON API call to the harness's printer service.
    func api(_ harness: PrinterHarness, _ method: String, _ path: String, _ body: String = "") -> HTTPResponse {
        let bytes = Array(body.utf8)
        let request = HTTPRequest(
            method: method, target: path, path: path, headers: ["Content-Type": "application/json"],
            host: "localhost", localPort: 631, contentLength: bytes.count)
        var stream = HTTPRequestBody(bytes: bytes)
        return harness.service.handle(request, body: &stream)
    }

    /// The text of a response body.
    func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func errorReasonStopsThePrinterAndClearingFreesIt() throws {
        let harness = try PrinterHarness()
        let id = try #require(
            harness.printer.addFault(FaultSpec(trigger: .now, effect: .addReasons(["door-open-error"]))))
        var state = harness.printer.status.withLock { ($0.state, $0.reasons) }
        #expect(state.0 == .stopped)
        #expect(state.1 == ["door-open-error"])
        #expect(harness.printer.clearFaults(id) == 1)
        state = harness.printer.status.withLock { ($0.state, $0.reasons) }
        #expect(state.0 == .idle)
        #expect(state.1.isEmpty)
    }

    @Test func reportReasonDoesNotStopThePrinter() throws {
        let harness = try PrinterHarness()
        harness.printer.addFault(FaultSpec(trigger: .now, effect: .addReasons(["offline-report"])))
        #expect(harness.printer.status.withLock { $0.state } == .idle)
    }

    @Test func statusFaultAnswersTheNextRequestsOfItsOperationOnly() throws {
        let harness = try PrinterHarness()
        let busy = try #require(IPPStatus(keyword: "server-error-busy"))
        harness.printer.addFault(
            FaultSpec(
                trigger: .requests(operation: "Get-Printer-Attributes", count: 1), effect: .status(busy, message: "b")))
        #expect(try harness.send(ippRequest(.getJobs)).status == .successfulOK)
        #expect(try harness.send(ippRequest(.getPrinterAttributes)).status == busy)
        #expect(try harness.send(ippRequest(.getPrinterAttributes)).status == .successfulOK)
    }

    @Test func unknownTrayOrSupplyIsReported() throws {
        let harness = try PrinterHarness()
        #expect(!harness.printer.setTrayLevel(source: "tray-9", level: 0))
        #expect(!harness.printer.setSupplyLevel(index: 9, level: 0))
        #expect(harness.printer.setTrayLevel(source: "main", level: 0))
        #expect(harness.printer.status.withLock { $0.reasons } == ["media-empty-report"])
        #expect(harness.printer.setTrayLevel(source: "main", level: nil))
        #expect(harness.printer.status.withLock { $0.reasons }.isEmpty)
    }

    @Test func faultAPIAddsListsAndClears() throws {
        let harness = try PrinterHarness()
        let added = api(
            harness, "POST", "/api/v1/printers/t/faults",
            #"{"trigger": {"page": 3}, "effect": {"add-reasons": ["media-jam-error"]}}"#)
        #expect(added.status == 201)
        #expect(text(api(harness, "GET", "/api/v1/printers/t/faults")).contains("atPage(3)"))
        #expect(api(harness, "DELETE", "/api/v1/printers/t/faults/99").status == 404)
        #expect(api(harness, "DELETE", "/api/v1/printers/t/faults").status == 200)
        #expect(harness.printer.faultList.isEmpty)
    }

    @Test func faultAPIRefusesABadFaultWithItsKeyPath() throws {
        let harness = try PrinterHarness()
        let refused = api(
            harness, "POST", "/api/v1/printers/t/faults", #"{"trigger": {"page": 0}, "effect": {"add-reasons": ["x"]}}"#
        )
        #expect(refused.status == 400)
        #expect(text(refused).contains("fault.trigger.page"))
        let second = api(
            harness, "POST", "/api/v1/printers/t/faults",
            #"{"faults": [{"effect": {"add-reasons": ["x"]}}, {"effect": {"tray": {}}}]}"#)
        #expect(second.status == 400)
        #expect(text(second).contains("faults[1].effect.tray.level"))
        #expect(api(harness, "POST", "/api/v1/printers/nobody/faults", "{}").status == 404)
    }
}
