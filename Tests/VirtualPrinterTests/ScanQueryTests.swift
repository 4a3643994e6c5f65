import Foundation
import PrintModel
import Scanner
import Testing

@testable import PrinterCore

/// The filters of `GET /api/v1/scans` and its wait, and scan records kept across a restart.
@Suite struct ScanQueryTests {
    let device = ScannerDeviceTests()

    func query(_ parameters: [(String, String)]) throws(JobQueryError) -> ScanQuery {
        try ScanQuery(parameters: parameters.map { (name: $0.0, value: $0.1) })
    }

    @Test func filtersSelectByStateSourceFormatModeClientAndSince() throws {
        let scanner = device.scanner()
        let platen = try scanner.createJob(settingsBody: device.settings("Platen"), client: "10.0.0.1", now: 100).get()
        _ = try scanner.nextImage(job: platen.uuid).get()
        _ = scanner.nextImage(job: platen.uuid)
        let feeder = try scanner.createJob(settingsBody: device.settings("Feeder"), client: "10.0.0.2", now: 200).get()
        let jobs = scanner.jobs
        func numbers(_ parameters: [(String, String)]) throws -> [Int] {
            let query = try query(parameters)
            return jobs.filter(query.matches).map(\.number)
        }
        #expect(try numbers([("state", "completed")]) == [platen.number])
        #expect(try numbers([("state", "active")]) == [feeder.number])
        #expect(try numbers([("state", "ended,processing")]) == [feeder.number, platen.number])
        #expect(try numbers([("source", "feeder")]) == [feeder.number])
        #expect(try numbers([("format", "jpeg"), ("color-mode", "RGB24")]).count == 2, "the defaults")
        #expect(try numbers([("format", "pdf")]).isEmpty)
        #expect(try numbers([("client", "10.0.0.1")]) == [platen.number])
        #expect(try numbers([("since", String(platen.number))]) == [feeder.number])
        #expect(try numbers([("since", "1970-01-01T00:02:30Z")]) == [feeder.number])
        #expect(try numbers([("printer", "mfp")]).count == 2 && numbers([("printer", "other")]).isEmpty)
    }

    @Test func anUnknownRepeatedOrBadFilterIsRefusedWithWhy() {
        #expect(throws: JobQueryError.unknownFilter("user", known: ScanQuery.filterNames)) {
            try query([("user", "alice")])
        }
        #expect(throws: JobQueryError.repeated("state")) { try query([("state", "completed"), ("state", "ended")]) }
        let bad = #expect(throws: JobQueryError.self) { try query([("source", "tray-1")]) }
        #expect(bad?.description == "source=tray-1: expected platen, feeder")
        #expect(throws: JobQueryError.self) { try query([("since", "yesterday")]) }
        #expect(throws: JobQueryError.self) { try query([("client", "")]) }
        #expect((try? ScanQuery(parameters: [(name: "count", value: "2")], otherNames: ["count"])) == ScanQuery())
    }

    @Test func recordsAreKeptAcrossARestartAndAJobCutShortIsAborted() throws {
        let first = device.scanner()
        let done = try first.createJob(settingsBody: device.settings("Platen"), client: nil, now: 1).get()
        _ = try first.nextImage(job: done.uuid).get()
        _ = first.nextImage(job: done.uuid)
        let cut = try first.createJob(settingsBody: device.settings("Feeder"), client: nil, now: 2).get()
        let restarted = device.scanner()
        #expect(restarted.jobs.map(\.number) == [cut.number, done.number])
        #expect(restarted.job(number: done.number)?.state == .completed)
        #expect(restarted.job(number: cut.number)?.state == .aborted)
        #expect(restarted.job(number: cut.number)?.reason == ScannerDevice.interruptedReason)
        let other = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: device.imaging, outputDirectory: device.folder,
            printerName: "another printer")
        #expect(other.jobs.isEmpty, "a printer sees only its own scans")
        let next = try restarted.createJob(settingsBody: device.settings("Platen"), client: nil, now: 3).get()
        #expect(next.number == cut.number + 1)
    }
}
