import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import Profiles

/// Printer.build, the one place a printer is made: every printer has a printer-id (PWG 5100.22), and the profile's
/// raw attributes win over the ones derived from it, however the printer is made.
@Suite struct PrinterBuildingTests {
    func answer(_ printer: Printer) -> [String: IPPAttribute] {
        Dictionary(printer.answerPrinterAttributes().map { ($0.name, $0) }) { first, _ in first }
    }

    @Test func anOfflinePrinterHasPrinterIDOne() throws {
        let printer = Printer.offline(profile: try shippedProfile("duplex-laser"), name: "alone")
        #expect(answer(printer)["printer-id"]?.value == .integer(1))
    }

    @Test func aFleetPrinterHasTheIDItWasGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("build-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let factory = PrinterFactory(
            settings: .init(outputDirectory: folder, profileDirectories: [shippedProfilesDirectory]),
            jobIDs: JobIDAllocator(outputDirectory: folder), scheduler: JobScheduler(workers: 1), renderer: nil,
            events: EventHub(), log: { _ in })
        var spec = PrinterSpec(profile: "color-inkjet")
        spec.info = "third floor"
        let made = try factory.make(spec, name: "floor 3", resourcePath: "/ipp/print/floor-3", id: 7)
        let attributes = answer(made.printer)
        #expect(attributes["printer-id"]?.value == .integer(7))
        #expect(attributes["printer-info"]?.value == .text("third floor"))
        #expect(made.printer.configuration.resourcePath == "/ipp/print/floor-3")
    }

    @Test func theProfilesRawAttributesWinWhicheverWayThePrinterIsMade() throws {
        var profile = try shippedProfile("duplex-laser")
        profile.attributes.append(IPPAttribute("printer-make-and-model", .text("Raw Model 1")))
        let printer = Printer.build(
            profile: profile, name: "raw", id: 2, outputDirectory: "/nonexistent",
            jobIDs: JobIDAllocator(outputDirectory: "/nonexistent"), scheduler: JobScheduler(workers: 1))
        #expect(answer(printer)["printer-make-and-model"]?.value == .text("Raw Model 1"))
    }
}
