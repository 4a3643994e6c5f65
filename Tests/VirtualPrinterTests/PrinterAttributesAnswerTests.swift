import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Get-Printer-Attributes answers `all` from one pre-joined block; these tests hold it to what the attribute-by-
/// attribute path answers.
@Suite(.timeLimit(.minutes(1))) struct PrinterAttributesAnswerTests {
    func names(_ response: IPPMessage) -> [String] {
        (response[group: .printerAttributes]?.attributes ?? []).map(\.name).filter { !Self.changing.contains($0) }
    }

    /// Attributes whose values change from one second to the next.
    static let changing: Set<String> = ["printer-up-time", "printer-current-time"]

    func values(_ response: IPPMessage) -> [String: [IPPValue]] {
        var values: [String: [IPPValue]] = [:]
        for attribute in response[group: .printerAttributes]?.attributes ?? []
        where !Self.changing.contains(attribute.name) {
            values[attribute.name] = attribute.values
        }
        return values
    }

    @Test func allAnswersWhatTheTwoGroupsAnswerWithoutMediaColDatabase() throws {
        let harness = try PrinterHarness()
        let all = try harness.send(
            ippRequest(.getPrinterAttributes, [IPPAttribute("requested-attributes", .keyword("all"))]))
        let groups = try harness.send(
            ippRequest(
                .getPrinterAttributes,
                [
                    IPPAttribute(
                        name: "requested-attributes",
                        values: [.keyword("printer-description"), .keyword("job-template")])
                ]))
        #expect(Set(names(all)) == Set(names(groups)))
        #expect(values(all) == values(groups))
        #expect(!names(all).contains("media-col-database"))
        #expect(names(all).count == Set(names(all)).count, "no attribute twice")
    }

    @Test func noRequestedAttributesMeansAll() throws {
        let harness = try PrinterHarness()
        let none = try harness.send(ippRequest(.getPrinterAttributes))
        let all = try harness.send(
            ippRequest(.getPrinterAttributes, [IPPAttribute("requested-attributes", .keyword("all"))]))
        #expect(values(none) == values(all))
    }

    @Test func allAndMediaColDatabaseAddsTheDatabase() throws {
        let harness = try PrinterHarness()
        let both = try harness.send(
            ippRequest(
                .getPrinterAttributes,
                [IPPAttribute(name: "requested-attributes", values: [.keyword("all"), .keyword("media-col-database")])])
        )
        #expect(names(both).contains("media-col-database"))
        #expect(names(both).contains("printer-state"))
    }
}
