import Foundation
import Testing

@testable import VirtualPrinter

/// The job record's own JSON writer against Foundation's, which it replaces for speed: the same bytes.
@Suite struct RecordJSONTests {
    private func foundation(_ value: Any) throws -> [UInt8] {
        Array(
            try JSONSerialization.data(
                withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
    }

    @Test func aRecordIsWrittenByteForByteAsFoundationWritesIt() throws {
        let record: [String: Any] = [
            "schema": 1, "job-name": "Invoice \"42\" / März\n\t\u{01}", "job-id": 7, "copies": 2,
            "attributes": [String: Any](), "warnings": [Any](), "ratio": 0.125, "whole": 25.0, "negative": -3,
            "flags": [true, false], "nothing": NSNull(),
            "impressions": [
                ["number": 1, "ink-coverage": ["black": 11.748, "cyan": 0.0], "blank": false, "pages": [["page": 1]]]
            ],
            "media-col": ["media-size": ["x-dimension": 21000, "y-dimension": 29700]],
            "job-impressions": 3, "job-id-x": 1, "jobs": 2,
        ]
        #expect(RecordJSON.encode(record) == (try foundation(record)))
    }

    @Test func aRealJobRecordIsWrittenAsFoundationWritesIt() throws {
        var job = Job(
            id: 3, uuid: "urn:uuid:00000000-0000-0000-0000-000000000003", printerName: "p",
            printerURI: "ipp://h/ipp/print",
            name: "n", user: "u", templateAttributes: [], client: ClientInfo(address: "127.0.0.1", userAgent: nil),
            now: 1_700_000_000, printerStartTime: 1_700_000_000)
        job.impressions = [
            ImpressionRecord(
                number: 1, file: "page-0001.png", sheet: 1, side: "front", width: 10, height: 20, dpi: 72, color: true,
                pages: [PlacedPage(document: 1, page: 1)],
                facts: ImpressionFacts(
                    blank: false, inkCoverage: ["cyan": 1.5, "magenta": 0, "yellow": 0.001, "black": 12.25],
                    hasColor: true, outsidePrintableArea: false),
                textSource: "pdf")
        ]
        job.warnings = [JobWarning(kind: "pdf", document: 1, message: "Syntax error at position 12: bad")]
        job.actual = ActualSettings(media: "iso_a4_210x297mm", sides: "one-sided", printColorMode: "color")
        let record = JobRecorder.record(of: job)
        #expect(RecordJSON.encode(record) == (try foundation(record)))
    }

    @Test func valuesJSONCannotHoldAreNull() {
        #expect(
            String(decoding: RecordJSON.encode([Double.nan, Double.infinity]), as: UTF8.self) == "[\n  null,\n  null\n]"
        )
    }
}
