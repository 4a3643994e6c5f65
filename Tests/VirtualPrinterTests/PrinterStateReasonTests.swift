import Testing

@testable import PrinterCore

/// printer-state-reasons keywords and their severity suffixes (RFC 8011 section 5.4.12).
@Suite struct PrinterStateReasonTests {
    @Test func theSuffixStatesTheSeverityAndTheBaseIsTheRest() {
        let jam: PrinterStateReason = "media-jam-error"
        #expect(jam.severity == .error)
        #expect(jam.base == "media-jam")
        #expect(jam.stopsPrinter)
        let low: PrinterStateReason = "toner-low-warning"
        #expect(low.severity == .warning)
        #expect(low.base == "toner-low")
        #expect(!low.stopsPrinter)
        #expect(PrinterStateReason(rawValue: "media-empty-report").severity == .report)
        #expect(PrinterStateReason.paused.severity == .unstated)
        #expect(PrinterStateReason.paused.base == "paused")
        // A keyword that only looks like a suffix is no suffix: "-error" must end the keyword.
        #expect(PrinterStateReason(rawValue: "error-reporting").severity == .unstated)
    }

    @Test func noReasonIsStatedAsNone() {
        #expect(PrinterStateReason.keywords(of: []) == ["none"])
        #expect(PrinterStateReason.keywords(of: ["cover-open-error", .paused]) == ["cover-open-error", "paused"])
    }

    @Test func anErrorReasonStopsThePrinterAndAReportDoesNot() {
        var status = PrinterStatus(now: 0)
        status.faultReasons = ["media-low-report"]
        #expect(status.state == .idle)
        status.faultReasons.append("cover-open-error")
        #expect(status.state == .stopped)
        #expect(status.reasons == ["media-low-report", "cover-open-error"])
    }

    @Test func alertsCarryTheSeverityAndTheMIBCodeOfTheBase() {
        let alerts = PrinterAlerts.alerts(for: ["media-jam-error", "toner-low-warning"])
        #expect(
            alerts.map(\.code) == [
                "code=jam;severity=critical;group=mediaPath;training=untrained",
                "code=markerTonerAlmostEmpty;severity=warning;group=marker;training=untrained",
            ])
        #expect(PrinterAlerts.alerts(for: []).map(\.description) == ["Ready."])
    }
}

extension PrinterStateReasonTests {
    @Test func aFaultsEffectPrintsItsReasonsAsKeywords() {
        #expect("\(FaultEffect.addReasons(["media-jam-error"]))" == #"addReasons(["media-jam-error"])"#)
    }
}
