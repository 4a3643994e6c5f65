import Foundation
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

@Suite struct JobQueryTests {
    private func subject(
        id: Int = 5, state: String = "completed", formats: [String] = ["application/pdf"],
        media: String = "iso_a4_210x297mm", sides: String = "two-sided-long-edge",
        modes: [String] = ["auto", "color"], created: Double = 1_800_000_000
    ) -> JobQuery.Subject {
        JobQuery.Subject(
            id: id, printer: "office", name: "invoice 42", user: "alice", state: state, formats: formats, media: media,
            sides: sides, colorModes: modes, created: created)
    }

    private func query(_ parameters: [(String, String)]) throws -> JobQuery {
        try JobQuery(parameters: parameters.map { (name: $0.0, value: $0.1) })
    }

    @Test func everyFilterMatchesWhatItNames() throws {
        let job = subject()
        for (name, value) in [
            ("printer", "office"), ("name", "invoice 42"), ("user", "alice"), ("state", "completed"),
            ("state", "ended"), ("state", "pending,completed"), ("format", "pdf"), ("format", "application/pdf"),
            ("media", "iso_a4_210x297mm"), ("media", "a4"), ("media", "iso_a4"), ("media", "custom_x_210x297mm"),
            ("media", "custom_x_297x210mm"), ("sides", "two-sided"), ("sides", "two-sided-long-edge"),
            ("color-mode", "color"), ("color-mode", "auto"), ("since", "4"), ("since", "2027-01-15T08:00:00Z"),
        ] {
            #expect(try query([(name, value)]).matches(job), "\(name)=\(value)")
        }
        for (name, value) in [
            ("printer", "Office"), ("name", "invoice"), ("user", "bob"), ("state", "active"), ("format", "pwg"),
            ("media", "letter"), ("media", "na_letter_8.5x11in"), ("sides", "one-sided"),
            ("sides", "two-sided-short-edge"), ("color-mode", "monochrome"), ("since", "5"),
            ("since", "2027-01-15T09:00:01+01:00"),
        ] {
            #expect(try !query([(name, value)]).matches(job), "\(name)=\(value)")
        }
    }

    @Test func textMatchesAnySideIgnoringCaseAndSpacing() throws {
        let sides = ["Invoice 42\nfor   Jane", "Total\u{0C}99.00 EUR"]
        #expect(try query([("text", "invoice 42 FOR jane")]).matches(text: sides))
        #expect(try query([("text", "total 99.00")]).matches(text: sides))
        #expect(try !query([("text", "jane total")]).matches(text: sides))
        #expect(JobQuery().matches(text: []))
    }

    @Test func badFiltersAreErrorsThatSayWhy() {
        #expect(throws: JobQueryError.unknownFilter("stat")) { try query([("stat", "completed")]) }
        #expect(throws: JobQueryError.repeated("user")) { try query([("user", "a"), ("user", "b")]) }
        for (name, value) in [
            ("state", "sleeping"), ("format", "docx"), ("sides", "three"), ("color-mode", "purple"),
            ("since", "yesterday"), ("media", "a4!"), ("user", ""),
        ] {
            #expect(throws: JobQueryError.self, "\(name)=\(value)") { try query([(name, value)]) }
        }
    }

    @Test func theTextFilterHasALimit() throws {
        let longest = String(repeating: "x", count: JobQuery.maximumTextLength)
        #expect(try query([("text", longest)]).text == longest)
        #expect(throws: JobQueryError.self) { try query([("text", longest + "x")]) }
    }

    @Test func otherParametersOfWaitAreLeftAlone() throws {
        let parsed = try JobQuery(
            parameters: [("count", "2"), ("timeout", "9"), ("user", "carol")], otherNames: ["count", "timeout"])
        #expect(parsed.user == "carol" && !parsed.isEmpty)
        #expect(try JobQuery(parameters: [], otherNames: []).isEmpty)
    }

    @Test func filtersRoundTripAsParameters() throws {
        let parsed = try query([("state", "completed,aborted"), ("format", "pwg"), ("since", "2027-01-15T08:00:00Z")])
        let again = try JobQuery(parameters: parsed.parameters)
        #expect(again == parsed)
        #expect(parsed.formats == ["image/pwg-raster"])
    }

    @Test func aRecordOnDiskGivesTheSameSubject() throws {
        let text = """
            {"schema": 1, "job-id": 5, "printer-name": "office", "job-name": "invoice 42",
             "job-originating-user-name": "alice", "job-uuid": "urn:uuid:5",
             "job-state": "completed", "media-actual": "iso_a4_210x297mm", "sides-actual": "two-sided-long-edge",
             "print-color-mode-actual": "color", "attributes": {"print-color-mode": "auto"},
             "documents": [{"document-number": 1, "file": "document-1.pdf",
                            "document-format": "application/octet-stream", "document-format-detected": "application/pdf"}],
             "times": {"created": "2027-01-15T08:00:00Z"}}
            """
        let record = try JobRecord.decode(Array(text.utf8))
        #expect(JobQuery.Subject(record: record) == subject(created: 1_800_000_000 + 0))
    }
}
