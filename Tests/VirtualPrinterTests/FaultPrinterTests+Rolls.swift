import Foundation
import HTTPServer
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles

/// The trays API on roll-fed printers, as PWG's IPP Everywhere self-certification test I-20 (media-needed) uses it
/// unattended: `{"level": 0}` runs the roll out, a job being printed then stops with media-needed until `{}` reloads
/// it; the same mechanism, and the same answers, as for an empty sheet tray.
extension FaultPrinterTests {
    /// A renderer that prints one gray side on sheet 1 of every job, without writing anything.
    struct OneSideRenderer: JobRenderer {
        func render(
            _ job: RenderJob, password: String?, onImpression: @Sendable (PrintedSide) -> Void,
            onWarning: @Sendable (JobWarning) -> Void, isCanceled: @escaping @Sendable () -> Bool
        ) -> RenderOutcome {
            onImpression(
                PrintedSide(
                    number: 1, file: PrintedSide.fileName(1), sheet: 1, side: .front, width: 10, height: 10, dpi: 72,
                    color: false))
            return .completed(pages: job.documents.map { _ in 1 })
        }
    }

    /// How many times `eventually` looks, `Printer.deviceWaitInterval` apart (10 s in all).
    static let eventuallyTries = 100

    /// True once `condition` holds, looking for at most 10 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<Self.eventuallyTries {
            if condition() { return true }
            Thread.sleep(forTimeInterval: Printer.deviceWaitInterval)
        }
        return condition()
    }

    /// The printer attributes of a shipped profile, changed by `change` first.
    func profileAttributes(_ name: String, change: (inout [String: Any]) -> Void = { _ in }) throws -> [IPPAttribute] {
        var object = try shippedProfileJSON(name)
        change(&object)
        let profile = try PrinterProfile.decode(
            JSONSerialization.data(withJSONObject: object), file: "\(name).json",
            searchDirectories: [shippedProfilesDirectory])
        return profile.printerAttributes(context: ProfileAttributeContext(printerName: "t"))
    }

    /// Prints one JPEG; returns its job-id.
    func printJPEG(_ harness: PrinterHarness) throws -> Int {
        let request = ippRequest(.printJob, [IPPAttribute("document-format", .mimeMediaType("image/jpeg"))])
        return try #require(try harness.send(request, data: DocumentWriterTests.jpegBytes).jobID)
    }

    @Test(arguments: [
        ("receipt-printer", "main-roll"), ("label-printer", "main-roll"), ("wide-format", "main-roll"),
        ("duplex-laser", "main"),
    ])
    func emptySourceStopsAJobWithMediaNeededUntilItIsRefilled(profile: String, source: String) throws {
        let harness = try PrinterHarness(attributes: profileAttributes(profile), renderer: OneSideRenderer())
        #expect(api(harness, "POST", "/api/v1/printers/t/trays", #"{"level": 0}"#).status == 200)
        #expect(harness.printer.trays.first { $0.name == source }?.level == 0)
        #expect(harness.printer.status.withLock { $0.reasons } == ["media-empty-report"])

        let jobID = try printJPEG(harness)
        #expect(eventually { harness.printer.job(jobID)?.state == .processingStopped })
        let (state, reasons) = harness.printer.status.withLock { ($0.state, $0.reasons) }
        #expect(state == .stopped)
        #expect(reasons == ["media-empty-error", "media-needed-error"])
        #expect(harness.printer.job(jobID)?.reasons.contains("printer-stopped") == true)
        // It stays stopped: the worker looks again every deviceWaitInterval and still finds no media.
        Thread.sleep(forTimeInterval: 3 * Printer.deviceWaitInterval)
        #expect(harness.printer.job(jobID)?.state == .processingStopped)
        #expect(harness.printer.job(jobID)?.impressionsCompleted == 0)

        #expect(api(harness, "POST", "/api/v1/printers/t/trays", "{}").status == 200)
        #expect(harness.ended(jobID)?.state == .completed)
        #expect(harness.printer.job(jobID)?.impressionsCompleted == 1)
        #expect(harness.printer.status.withLock { $0.reasons }.isEmpty)
    }

    @Test func aRollIsEmptiedAndReloadedByName() throws {
        let harness = try PrinterHarness(attributes: profileAttributes("receipt-printer"))
        let trays = "/api/v1/printers/t/trays"
        #expect(api(harness, "POST", trays, #"{"source": "main-roll", "level": 0}"#).status == 200)
        #expect(harness.printer.trays.map(\.level) == [0])
        // Its length is not counted: any level but 0 reloads it, to the level the profile gave (unknown).
        #expect(api(harness, "POST", trays, #"{"source": "main-roll", "level": 80}"#).status == 200)
        #expect(harness.printer.trays.map(\.level) == [-2])
        let listed = try JSONSerialization.jsonObject(with: Data(text(api(harness, "GET", "/api/v1/printers/t")).utf8))
        let tray = try #require(((listed as? [String: Any])?["trays"] as? [[String: Any]])?.first)
        #expect(tray["roll"] as? Bool == true)
        #expect(tray["level"] as? Int == -2)
    }

    @Test func aPrinterWithNoTrayOrRollAnswers404WithTheReason() throws {
        let attributes = try profileAttributes("receipt-printer") { object in
            object["mediaSources"] = ["auto"]
            object["mediaReady"] = [Any]()
        }
        let harness = try PrinterHarness(attributes: attributes)
        let trays = "/api/v1/printers/t/trays"
        let all = api(harness, "POST", trays, #"{"level": 0}"#)
        #expect(all.status == 404)
        #expect(text(all).contains("this printer has no tray or roll whose level can be set"))
        let named = api(harness, "POST", trays, #"{"source": "main-roll", "level": 0}"#)
        #expect(named.status == 404)
        #expect(text(named).contains("no tray or roll 'main-roll' whose level can be set"))
        #expect(api(harness, "POST", trays, #"{"source": "auto"}"#).status == 404)
    }
}
