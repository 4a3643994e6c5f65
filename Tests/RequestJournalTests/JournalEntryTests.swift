import Foundation
import IPP
import PrintModel
import RequestJournal
import Testing

/// Entries built from IPP messages: every value keeps its tag, and the JSON form reads back the same.
@Suite struct JournalEntryTests {
    static func printJob(media: String = "iso_a4_210x297mm", copies: Int32 = 1) -> IPPMessage {
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("attributes-natural-language", .naturalLanguage("en"))
        operation.append("printer-uri", .uri("ipp://localhost/ipp/print"))
        operation.append("requesting-user-name", .name("alice"))
        operation.append("job-name", .nameWithLanguage(language: "en", name: "invoice 7"))
        var job = IPPAttributeGroup(tag: .jobAttributes)
        job.append("media", .keyword(media))
        job.append("copies", .integer(copies))
        job.append("orientation-requested", .enumValue(4))
        job.append("page-ranges", .rangeOfInteger(1...3))
        job.append("printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 600)))
        job.append("job-password", .octetString([0xFF, 0x01]))
        job.append("media-col", .collection([IPPAttribute("media-type", .keyword("stationery"))]))
        job.append("job-hold-until", .outOfBand(.noValue))
        return IPPMessage(operation: .printJob, requestID: 7, groups: [operation, job])
    }

    static func entry(
        id: Int = 1, request: IPPMessage = printJob(), status: IPPStatus = .successfulOK, printer: String = "office",
        user: String? = nil, address: String = "127.0.0.1", agent: String? = "CUPS/2.4.2"
    ) -> JournalEntry {
        var answer = IPPMessage(version: .v2_0, status: status, requestID: request.requestID)
        if status != .successfulOK {
            answer.groups = [
                IPPAttributeGroup(
                    tag: .unsupportedAttributes, attributes: [IPPAttribute("media", .keyword("iso_a4_210x297mm"))])
            ]
        }
        return JournalEntry(
            id: id, time: JournalClock.text(secondsSince1970: 1_764_581_400 + Double(id)), durationMilliseconds: 1.5,
            kind: .ipp, connection: 3, client: .init(address: address, port: 50_000, userAgent: agent), tls: false,
            user: user, printer: printer, http: .init(method: "POST", path: "/ipp/print", status: 200),
            ipp: .init(
                request: request, answer: answer,
                document: .init(format: "application/pdf", detectedFormat: "application/pdf", size: 10, sha256: "ab"),
                jobID: 4))
    }

    @Test func everyValueKeepsItsTagAndReadsAsText() throws {
        let ipp = try #require(Self.entry().ipp)
        #expect(ipp.operation == "Print-Job")
        #expect(ipp.groups.map(\.tag) == ["operation-attributes-tag", "job-attributes-tag"])
        let value = { (name: String) in ipp.attribute(name)?.values.first }
        #expect(value("attributes-charset")?.tag == "charset")
        #expect(value("job-name")?.tag == "nameWithLanguage")
        #expect(value("job-name")?.language == "en")
        #expect(value("job-name")?.matchText == "invoice 7")
        #expect(value("copies")?.matchText == "1")
        #expect(value("orientation-requested")?.keyword == "landscape")
        #expect(value("orientation-requested")?.matchText == "landscape")
        #expect(value("page-ranges")?.matchText == "1-3")
        #expect(value("printer-resolution")?.matchText == "600x600dpi")
        // A secret keeps its tag and its length only (SecretAttributesTests).
        #expect(value("job-password")?.tag == "octetString")
        #expect(value("job-password")?.value == .string("(redacted, 2 bytes)"))
        #expect(value("media-col")?.members?.first?.name == "media-type")
        #expect(value("job-hold-until")?.tag == "no-value")
        #expect(value("job-hold-until")?.value == nil)
    }

    @Test func theJSONFormReadsBackTheSameEntry() throws {
        let entry = Self.entry(status: .clientErrorAttributesOrValuesNotSupported)
        let data = try JSONEncoder().encode(entry)
        #expect(try JSONDecoder().decode(JournalEntry.self, from: data) == entry)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""duration-ms""#) && text.contains(#""status-code":1035"#))
        #expect(entry.ipp?.unsupported.map(\.name) == ["media"])
    }

    @Test func theFileLineIsTheCodableFormOnOneLine() throws {
        for entry in [
            Self.entry(status: .clientErrorAttributesOrValuesNotSupported, user: "al\"ice", agent: nil),
            Self.entry(),
            JournalEntry(
                id: 9, time: "t", durationMilliseconds: 0.25, kind: .http, connection: 1,
                client: .init(address: "::1", port: nil, userAgent: "tab\there"), tls: true, user: nil, printer: nil,
                http: .init(method: "GET", path: "/a?b=\u{1}", status: 0), ipp: nil, problem: "no IPP"),
        ] {
            let line = entry.jsonLine()
            #expect(line.last == 0x0A && line.dropLast().firstIndex(of: 0x0A) == nil)
            #expect(try JSONDecoder().decode(JournalEntry.self, from: Data(line)) == entry)
            let written = try JSONSerialization.jsonObject(with: Data(line)) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)) as? NSDictionary
            #expect(written == encoded)
        }
    }

    @Test func anArrayOfEntriesIsWhatTheEncoderWrites() throws {
        let entries = [Self.entry(), Self.entry(status: .clientErrorNotFound, user: "bob", agent: nil), Self.entry()]
        let written = try JSONSerialization.jsonObject(with: Data(JournalEntry.jsonArray(entries))) as? NSArray
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(entries)) as? NSArray
        #expect(written == encoded)
        #expect(try JSONDecoder().decode([JournalEntry].self, from: Data(JournalEntry.jsonArray(entries))) == entries)
        #expect(JournalEntry.jsonArray([]) == Array("[\n]\n".utf8))
    }

    @Test func clockTextIsUTCWithMilliseconds() {
        #expect(JournalClock.text(secondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(JournalClock.text(secondsSince1970: 1_709_208_000.25) == "2024-02-29T12:00:00.250Z")
        #expect(JournalClock.text(secondsSince1970: 1_764_581_400.999) == "2025-12-01T09:30:00.999Z")
    }

    @Test func clockReadsWhatAPersonWrites() {
        #expect(JournalClock.normalized("2026-12-01T09:30:00Z") == "2026-12-01T09:30:00.000Z")
        #expect(JournalClock.normalized("2026-12-01T09:30:00.5Z") == "2026-12-01T09:30:00.500Z")
        #expect(JournalClock.normalized("2026-12-01T09:30:00.123456Z") == "2026-12-01T09:30:00.123Z")
        for bad in ["2026-12-01", "2026-12-01T09:30:00", "2026-12-01T09:30:00+01:00", "2026-12-01T09:30:00.Z", "x"] {
            #expect(JournalClock.normalized(bad) == nil, "\(bad)")
        }
    }
}
