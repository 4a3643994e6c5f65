import HTTPServer
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

    /// The values of one attribute in a Get-Printer-Attributes answer asking for it alone.
    func asked(_ name: String, of harness: PrinterHarness) throws -> [IPPValue] {
        let answer = try harness.send(
            ippRequest(.getPrinterAttributes, [IPPAttribute("requested-attributes", .keyword(name))]))
        return answer[group: .printerAttributes]?[name]?.values ?? []
    }

    /// Answers are kept for reuse within a tenth of a second: each change, made between two requests of the same
    /// tenth most of the time, must show in the second (the status's revision, not the clock, retires them).
    @Test func eachChangeOfTheStatusShowsInTheNextAnswer() throws {
        let harness = try PrinterHarness()
        for round in 1...20 {
            _ = try asked("printer-message-from-operator", of: harness)
            harness.printer.updatePrinter { $0.messageFromOperator = "round \(round)" }
            #expect(try asked("printer-message-from-operator", of: harness) == [.text("round \(round)")])
            // A level deep inside the device state, changed in place.
            _ = try asked("printer-input-tray", of: harness)
            harness.printer.setTrayLevel(source: nil, level: round)
            let trays = try asked("printer-input-tray", of: harness).compactMap { value -> String? in
                guard case .octetString(let bytes) = value else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
            #expect(trays.contains { $0.contains("level=\(round);") }, "round \(round): \(trays)")
        }
    }

    @Test func answersDependOnTheHostTheClientUsed() throws {
        let harness = try PrinterHarness()
        func uris(host: String) throws -> [IPPValue] {
            let body = IPPEncoder.encode(
                ippRequest(
                    .getPrinterAttributes, [IPPAttribute("requested-attributes", .keyword("printer-uri-supported"))]))
            let request = HTTPRequest(
                method: "POST", target: "/ipp/print", path: "/ipp/print",
                headers: ["Content-Type": "application/ipp"], host: host, localPort: 631, contentLength: body.count)
            var stream = HTTPRequestBody(bytes: body)
            let answer = try decodeIPP(harness.service.handle(request, body: &stream))
            return answer[group: .printerAttributes]?["printer-uri-supported"]?.values ?? []
        }
        #expect(try uris(host: "localhost") == [.uri("ipp://localhost:631/ipp/print")])
        #expect(try uris(host: "127.0.0.1") == [.uri("ipp://127.0.0.1:631/ipp/print")])
        #expect(try uris(host: "[::1]") == [.uri("ipp://[::1]:631/ipp/print")])
    }

    @Test func answersOfOneMomentAreKeptAndOfTheNextDropped() {
        let answers = PrinterAttributeAnswers()
        let cache = PrinterAttributeCache(attributes: [], excluding: [])
        let question = PrinterAttributeAnswers.Question(
            requested: ["all"], authority: "h:1", isEncrypted: false, language: "en")
        let moment = PrinterAttributeAnswers.Moment(revision: 3, attributes: cache, tenth: 10, upTime: 1)
        answers.store([1, 2], to: question, at: moment)
        #expect(answers.answer(to: question, at: moment) == [1, 2])
        var other = question
        other.isEncrypted = true
        #expect(answers.answer(to: other, at: moment) == nil)
        var later = moment
        later.tenth = 11
        #expect(answers.answer(to: question, at: later) == nil)
        var changed = moment
        changed.revision = 4
        #expect(answers.answer(to: question, at: changed) == nil)
        var replaced = moment
        replaced.attributes = PrinterAttributeCache(attributes: [], excluding: [])
        #expect(answers.answer(to: question, at: replaced) == nil)
        // An answer of an older revision, finished after a newer one was kept, does not replace it.
        answers.store([3], to: question, at: changed)
        answers.store([9], to: question, at: moment)
        #expect(answers.answer(to: question, at: changed) == [3])
        #expect(answers.answer(to: question, at: moment) == nil)
    }
}
