import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// Serializes what IPPJSON produced and reads it back, as a job record does.
private func roundTripThroughJSONText(_ attribute: IPPAttribute) throws -> IPPAttribute {
    let object = IPPJSON.jsonObject(of: [attribute])
    let data = try JSONSerialization.data(withJSONObject: object)
    let back = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try IPPJSON.attribute(name: attribute.name, json: back[attribute.name])
}

@Test(arguments: [
    IPPAttribute("copies", .integer(2)),
    IPPAttribute("sides", .keyword("two-sided-long-edge")),
    IPPAttribute("orientation-requested", .enumValue(4)),
    IPPAttribute("print-quality", .enumValue(5)),
    IPPAttribute("finishings", .enumValue(3)),
    IPPAttribute("job-name", .name("report.pdf")),
    IPPAttribute("printer-info", .text("Front desk")),
    IPPAttribute("job-uuid", .uri("urn:uuid:12345678-1234-1234-1234-123456789abc")),
    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
    IPPAttribute("attributes-charset", .charset("utf-8")),
    IPPAttribute("attributes-natural-language", .naturalLanguage("en")),
    IPPAttribute("ipp-attribute-fidelity", .boolean(true)),
    IPPAttribute("page-ranges", .rangeOfInteger(1...3), .rangeOfInteger(5...5)),
    IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 600))),
    IPPAttribute("date-time-at-creation", .dateTime(IPPDateTime(secondsSince1970: 1_790_000_000))),
    IPPAttribute("printer-supply", .octetString(Array("index=1;type=toner;".utf8))),
    IPPAttribute("job-state-reasons", .keyword("job-completed-successfully")),
    IPPAttribute("job-hold-until", .outOfBand(.noValue)),
    IPPAttribute("printer-geo-location", .outOfBand(.unknown)),
    IPPAttribute(
        "media-col",
        .collection([
            IPPAttribute("media-bottom-margin", .integer(0)),
            IPPAttribute(
                "media-size",
                .collection([
                    IPPAttribute("x-dimension", .integer(21000)), IPPAttribute("y-dimension", .integer(29700)),
                ])),
            IPPAttribute("media-source", .keyword("main")),
            IPPAttribute("media-type", .keyword("photographic-glossy")),
        ])),
])
func attributeSurvivesARoundTripThroughJSONText(attribute: IPPAttribute) throws {
    #expect(try roundTripThroughJSONText(attribute) == attribute)
}

@Test func jobRecordFormsFollowTheDesign() {
    #expect(IPPJSON.jsonValue(of: IPPAttribute("orientation-requested", .enumValue(3))) as? String == "portrait")
    #expect(IPPJSON.jsonValue(of: IPPAttribute("print-quality", .enumValue(5))) as? String == "high")
    #expect(IPPJSON.jsonValue(of: IPPAttribute("copies", .integer(2))) as? Int == 2)
    let reasons = IPPJSON.jsonValue(of: IPPAttribute("job-state-reasons", .keyword("job-completed-successfully")))
    #expect(reasons as? [String] == ["job-completed-successfully"])
    let range = IPPJSON.jsonValue(of: IPPAttribute("copies-supported", .rangeOfInteger(1...99)))
    #expect(range as? [String: Int] == ["lower": 1, "upper": 99])
    let resolution = IPPJSON.jsonValue(
        of: IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 300, feed: 600))))
    #expect((resolution as? [String: Any])?["units"] as? String == "dpi")
    #expect((resolution as? [String: Any])?["y"] as? Int == 600)
    let date = IPPDateTime(year: 2026, month: 11, day: 29, hour: 17, minutes: 1, seconds: 19)
    #expect(
        IPPJSON.jsonValue(of: IPPAttribute("date-time-at-completed", .dateTime(date))) as? String
            == "2026-11-29T17:01:19Z")
    #expect(IPPJSON.jsonValue(of: IPPAttribute("job-hold-until", .outOfBand(.noValue))) is NSNull)
}

@Test func syntaxIsInferredFromTheAttributeName() throws {
    #expect(try IPPJSON.attribute(name: "printer-location", json: "Lab").value == .text("Lab"))
    #expect(try IPPJSON.attribute(name: "printer-more-info", json: "http://h/").value == .uri("http://h/"))
    #expect(
        try IPPJSON.attribute(name: "job-printer-uri", json: "ipp://h/ipp/print").value == .uri("ipp://h/ipp/print"))
    #expect(try IPPJSON.attribute(name: "marker-names", json: ["Black"]).values == [.name("Black")])
    #expect(try IPPJSON.attribute(name: "x-vendor-mode", json: "fast").value == .keyword("fast"))
    #expect(try IPPJSON.attribute(name: "x-vendor-note", json: "Not A Keyword").value == .text("Not A Keyword"))
    #expect(try IPPJSON.attribute(name: "orientation-requested-default", json: "landscape").value == .enumValue(4))
    #expect(try IPPJSON.attribute(name: "landscape-orientation-requested-preferred", json: 5).value == .enumValue(5))
    #expect(
        try IPPJSON.attribute(name: "printer-state-change-date-time", json: "2026-11-29T18:01:19+01:00").value
            == .dateTime(IPPDateTime(year: 2026, month: 11, day: 29, hour: 18, minutes: 1, seconds: 19, utcHours: 1)))
}

@Test func jsonThatNoIPPValueMatchesIsAnError() {
    #expect(throws: IPPJSONError.notAnInteger(path: "copies")) { try IPPJSON.attribute(name: "copies", json: 1.5) }
    #expect(throws: IPPJSONError.notAnInteger(path: "copies")) { try IPPJSON.attribute(name: "copies", json: 1 << 40) }
    #expect(throws: IPPJSONError.emptyArray(path: "sides")) { try IPPJSON.attribute(name: "sides", json: [Any]()) }
    #expect(throws: IPPJSONError.nestedArray(path: "sides")) { try IPPJSON.attribute(name: "sides", json: [["a"]]) }
    #expect(throws: IPPJSONError.unknownEnumKeyword(path: "print-quality", keyword: "best")) {
        try IPPJSON.attribute(name: "print-quality", json: "best")
    }
    #expect(throws: IPPJSONError.badDateTime(path: "date-time-at-creation", text: "yesterday")) {
        try IPPJSON.attribute(name: "date-time-at-creation", json: "yesterday")
    }
    #expect(throws: IPPJSONError.unknownOutOfBand(path: "a", name: "maybe")) {
        try IPPJSON.attribute(name: "a", json: ["out-of-band": "maybe"])
    }
    #expect(throws: IPPJSONError.notAnInteger(path: "media-col.media-size.x-dimension")) {
        try IPPJSON.attribute(name: "media-col", json: ["media-size": ["x-dimension": "wide", "y-dimension": 1]])
    }
}
