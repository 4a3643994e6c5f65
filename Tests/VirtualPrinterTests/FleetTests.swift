import Foundation
import HTTPServer
import IPP
import Synchronization
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// A fleet without sockets or DNS-SD: printers made from the shipped profiles into a temporary folder, driven
/// through the service's handler.
final class FleetHarness {
    let folder: TemporaryFolder
    let fleet: PrinterFleet
    let advertiser = RecordingAdvertiser()

    /// Requests may name profile and scenario files in the harness's folder, as with `--profile-dir` there.
    init() throws {
        folder = try TemporaryFolder()
        var settings = PrinterFactory.Settings(
            outputDirectory: folder.path, profileDirectories: [repositoryRoot.appendingPathComponent("profiles").path])
        settings.requestFolders = [folder.path]
        let factory = PrinterFactory(
            settings: settings,
            jobIDs: JobIDAllocator(outputDirectory: folder.path), scheduler: testScheduler, renderer: nil,
            events: EventHub(), log: { _ in })
        fleet = PrinterFleet(
            factory: factory, advertiser: advertiser, serverConfiguration: HTTPServerConfiguration(port: 0),
            log: { _ in })
    }

    var service: PrinterService { fleet.service }

    func request(_ method: String, _ path: String, body: String = "") -> HTTPResponse {
        let bytes = Array(body.utf8)
        let request = HTTPRequest(
            method: method, target: path, path: path,
            headers: bytes.isEmpty ? [:] : ["Content-Type": "application/json"], host: "localhost", localPort: 631,
            contentLength: bytes.count)
        var stream = HTTPRequestBody(bytes: bytes)
        return service.handle(request, body: &stream)
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { throw HarnessError.notBytes }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func ipp(_ message: IPPMessage, path: String) throws -> IPPMessage {
        let body = IPPEncoder.encode(message)
        let request = HTTPRequest(
            method: "POST", target: path, path: path, headers: ["Content-Type": "application/ipp"], host: "localhost",
            localPort: 631, contentLength: body.count)
        var stream = HTTPRequestBody(bytes: body)
        return try decodeIPP(service.handle(request, body: &stream))
    }

    enum HarnessError: Error { case notBytes }
}

/// An advertiser that records what it was asked to do.
final class RecordingAdvertiser: PrinterAdvertising, Sendable {
    private let log = Mutex<[String]>([])

    var calls: [String] { log.withLock { $0 } }

    func advertise(_ printer: HostedPrinter, port: UInt16) { log.withLock { $0.append("advertise \(printer.name)") } }
    func withdraw(_ printer: HostedPrinter) { log.withLock { $0.append("withdraw \(printer.name)") } }
    func isSettled(_ printer: HostedPrinter) -> Bool { calls.contains("advertise \(printer.name)") }
}

@Suite struct FleetTests {
    @Test func postingAPrinterCreatesItAtItsOwnPathAndAdvertisesIt() throws {
        let harness = try FleetHarness()
        let response = harness.request(
            "POST", "/api/v1/printers", body: #"{"name": "desk 1", "profile": "color-inkjet"}"#)
        #expect(response.status == 201)
        #expect(response.headers["Location"] == "/api/v1/printers/desk-1")
        let object = try harness.json(response)
        #expect(object["printer-name"] as? String == "desk 1")
        #expect(object["resource"] as? String == "/ipp/print/desk-1")
        #expect(object["printer-id"] as? Int == 1)
        #expect(object["power"] as? String == "on")
        #expect(harness.advertiser.calls == ["advertise desk 1"])
        let answer = try harness.ipp(
            ippRequest(.getPrinterAttributes, printerURI: "ipp://localhost:631/ipp/print/desk-1"),
            path: "/ipp/print/desk-1")
        #expect(answer.code == IPPStatus.successfulOK.rawValue)
        #expect(answer.attribute("printer-id", in: .printerAttributes)?.value?.integerValue == 1)
    }

    @Test func deletingAPrinterWithdrawsItAndItsPathAnswersNotFound() throws {
        let harness = try FleetHarness()
        _ = harness.request("POST", "/api/v1/printers", body: #"{"name": "gone"}"#)
        #expect(harness.request("DELETE", "/api/v1/printers/gone").status == 200)
        #expect(harness.advertiser.calls == ["advertise gone", "withdraw gone"])
        #expect(harness.request("DELETE", "/api/v1/printers/gone").status == 404)
        let answer = try harness.ipp(
            ippRequest(.getPrinterAttributes, printerURI: "ipp://localhost:631/ipp/print/gone"), path: "/ipp/print/gone"
        )
        #expect(answer.code == IPPStatus.clientErrorNotFound.rawValue)
    }

    @Test func aTakenNameIsAConflictAndABadBodyABadRequest() throws {
        let harness = try FleetHarness()
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "a"}"#).status == 201)
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "a"}"#).status == 409)
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "a!"}"#).status == 201)
        // "a?" has the same path segment as "a!".
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "a?"}"#).status == 409)
        #expect(harness.request("POST", "/api/v1/printers", body: "[1]").status == 400)
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "b", "profile": "none"}"#).status == 400)
        let long = String(repeating: "x", count: PrinterSpec.maximumNameBytes + 1)
        #expect(harness.request("POST", "/api/v1/printers", body: #"{"name": "\#(long)"}"#).status == 400)
        #expect(harness.fleet.registry.count == 2)
    }

    @Test func aSwitchedOffPrinterIsWithdrawnAndItsPathIsSilent() throws {
        let harness = try FleetHarness()
        _ = harness.request("POST", "/api/v1/printers", body: #"{"name": "p"}"#)
        #expect(harness.request("POST", "/api/v1/printers/p/power", body: #"{"on": false}"#).status == 200)
        #expect(harness.advertiser.calls == ["advertise p", "withdraw p"])
        let body = IPPEncoder.encode(ippRequest(.getPrinterAttributes, printerURI: "ipp://localhost:631/ipp/print/p"))
        let request = HTTPRequest(
            method: "POST", target: "/ipp/print/p", path: "/ipp/print/p", headers: ["Content-Type": "application/ipp"],
            host: "localhost", localPort: 631, contentLength: body.count)
        var stream = HTTPRequestBody(bytes: body)
        let silence = harness.service.handle(request, body: &stream)
        #expect(silence.abort == .silence)
        #expect(silence.silenceEnds?() == false)
        #expect(harness.request("GET", "/ipp/print/p").abort == .silence)
        #expect(harness.request("GET", "/api/v1/printers/p").status == 200)
        #expect(try harness.json(harness.request("GET", "/api/v1/printers/p"))["power"] as? String == "off")
        #expect(harness.request("POST", "/api/v1/printers/p/power", body: #"{"on": true}"#).status == 200)
        #expect(harness.advertiser.calls.last == "advertise p")
        #expect(silence.silenceEnds?() == true, "a silence held while off ends once the printer is on")
        #expect(harness.request("GET", "/ipp/print/p").abort == nil)
        #expect(harness.request("POST", "/api/v1/printers/p/power", body: #"{"on": 1}"#).status == 400)
    }

    @Test func readinessWaitsForAdvertisingAndAcceptingButNotForSwitchedOffPrinters() throws {
        let harness = try FleetHarness()
        #expect(harness.request("GET", "/readyz").status == 200)
        _ = harness.request("POST", "/api/v1/printers", body: #"{"name": "r"}"#)
        #expect(harness.request("GET", "/readyz").status == 200)
        let printer = try #require(harness.fleet.registry.printer(named: "r")?.printer)
        printer.updatePrinter { $0.isAcceptingJobs = false }
        let refused = harness.request("GET", "/readyz")
        #expect(refused.status == 503)
        #expect((try harness.json(refused)["problems"] as? [String]) == ["printer 'r' is not accepting jobs"])
        printer.power.set(on: false)
        #expect(harness.request("GET", "/readyz").status == 200)
        #expect(harness.request("GET", "/livez").status == 200)
    }

    @Test func theSystemServiceCreatesListsAndDeletesPrinters() throws {
        let harness = try FleetHarness()
        var create = ippRequest(
            .createPrinter, printerURI: nil,
            [
                IPPAttribute("system-uri", .uri("ipp://localhost:631/ipp/system")),
                IPPAttribute("printer-service-type", .keyword("print")),
            ])
        create.groups.append(
            IPPAttributeGroup(
                tag: .printerAttributes,
                attributes: [
                    IPPAttribute("printer-name", .name("made")),
                    IPPAttribute("vprinter-profile", .name("color-inkjet")),
                ]))
        let created = try harness.ipp(create, path: "/ipp/system")
        #expect(created.code == IPPStatus.successfulOK.rawValue)
        let id = try #require(created.attribute("printer-id", in: .printerAttributes)?.value?.integerValue)
        #expect(created.attribute("printer-xri-supported", in: .printerAttributes) != nil)
        #expect(try harness.ipp(create, path: "/ipp/system").code == IPPStatus.clientErrorNotPossible.rawValue)

        let listed = try harness.ipp(ippRequest(.getPrinters, printerURI: nil), path: "/ipp/system")
        let groups = listed.groups.filter { $0.tag == .printerAttributes }
        #expect(groups.count == 1)
        #expect(groups.first?["printer-name"]?.value?.stringValue == "made")

        let system = try harness.ipp(ippRequest(.getSystemAttributes, printerURI: nil), path: "/ipp/system")
        let configured = system.attribute("system-configured-printers", in: .systemAttributes)
        #expect(configured?.values.count == 1)
        #expect(system.attribute("system-state", in: .systemAttributes)?.value?.integerValue == 3)

        let delete = ippRequest(.deletePrinter, printerURI: nil, [IPPAttribute("printer-id", .integer(id))])
        #expect(try harness.ipp(delete, path: "/ipp/system").code == IPPStatus.successfulOK.rawValue)
        #expect(try harness.ipp(delete, path: "/ipp/system").code == IPPStatus.clientErrorNotFound.rawValue)
        #expect(harness.fleet.registry.count == 0)
    }

    @Test func theSystemServiceRefusesOtherOperationsAndBadHeaders() throws {
        let harness = try FleetHarness()
        let other = try harness.ipp(ippRequest(.printJob, printerURI: nil), path: "/ipp/system")
        #expect(other.code == IPPStatus.serverErrorOperationNotSupported.rawValue)
        var bad = ippRequest(.getSystemAttributes, printerURI: nil)
        bad.groups[0].attributes.removeFirst()
        #expect(try harness.ipp(bad, path: "/ipp/system").code == IPPStatus.clientErrorBadRequest.rawValue)
    }

    @Test func printerIDsAreNotReusedAfterADeletion() throws {
        let harness = try FleetHarness()
        _ = harness.request("POST", "/api/v1/printers", body: #"{"name": "one"}"#)
        _ = harness.request("DELETE", "/api/v1/printers/one")
        let second = try harness.json(harness.request("POST", "/api/v1/printers", body: #"{"name": "two"}"#))
        #expect(second["printer-id"] as? Int == 2)
    }

    @Test func aPowerFaultSwitchesThePrinterOffAndClearingItSwitchesItOn() throws {
        let spec = try FaultSpec(json: ["effect": ["power": "off"]])
        #expect(spec.effect == .power(on: false))
        #expect(throws: FaultSpecError.self) { try FaultSpec(json: ["effect": ["power": "dim"]]) }
        let harness = try FleetHarness()
        _ = harness.request("POST", "/api/v1/printers", body: #"{"name": "f"}"#)
        let printer = try #require(harness.fleet.registry.printer(named: "f")?.printer)
        let id = try #require(printer.addFault(spec))
        #expect(!printer.power.isOn)
        #expect(printer.counters.faultsFired.load(ordering: .relaxed) == 1)
        printer.clearFaults(id)
        #expect(printer.power.isOn)
    }
}
