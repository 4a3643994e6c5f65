import Foundation
import PrintModel
import Rasterizer
import Synchronization
import Testing

/// OCR of rendered sides with Tesseract (the lazy text of raster pages).
@Suite struct TextRecognitionTests {
    @Test func theWordsOfARasterPageAreRead() throws {
        let harness = try RenderHarness()
        let source = harness.folder.file("words.ps")
        try """
        %!PS
        << /PageSize [612 792] >> setpagedevice
        /Helvetica findfont 28 scalefont setfont
        72 700 moveto (Invoice 42 for Jane Smith) show
        72 650 moveto (Total due 99.00 EUR) show
        showpage
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let pwg = harness.folder.file("words.pwg")
        try ExternalTool.ghostscript(["-sDEVICE=pwgraster", "-r300", "-sOutputFile=\(pwg)", source])
        var ticket = JobTicket()
        ticket.resolution = 300
        let (impressions, _) = try harness.render([pwg], ticket: ticket)
        #expect(impressions.map(\.textSource) == [.ocr])
        let outcomes = Mutex<[SideTextRecognition.Outcome]>([])
        try SideTextRecognition(folder: harness.output, threads: 2).run(
            [SideTextRecognition.Side(number: 1, file: "page-0001.png", dpi: 300)]
        ) { outcome in outcomes.withLock { $0.append(outcome) } }
        let outcome = try #require(outcomes.withLock { $0.first })
        #expect(outcome.error == nil && outcome.textFile == "page-0001.txt")
        let text = try String(contentsOfFile: harness.output + "/page-0001.txt", encoding: .utf8)
        for word in ["Invoice", "42", "Jane", "Smith", "Total", "99.00", "EUR"] {
            #expect(text.contains(word), "'\(word)' in \(text)")
        }
    }

    @Test func aMissingSideIsAnOutcomeWithAnErrorNotAFailure() throws {
        let harness = try RenderHarness()
        let outcomes = Mutex<[SideTextRecognition.Outcome]>([])
        try SideTextRecognition(folder: harness.output, threads: 1).run(
            [
                SideTextRecognition.Side(number: 1, file: "page-0001.png", dpi: 300),
                SideTextRecognition.Side(number: 2, file: "../escape.png", dpi: 300),
            ]
        ) { outcome in outcomes.withLock { $0.append(outcome) } }
        let all = outcomes.withLock { $0 }.sorted { $0.number < $1.number }
        #expect(all.count == 2 && all.allSatisfy { $0.textFile == nil && $0.error != nil })
    }

    @Test func missingLanguageDataIsAnError() {
        #expect(throws: RasterError.self) {
            try SideTextRecognition(folder: "/nonexistent", languages: "no-such-language", threads: 1).run(
                [SideTextRecognition.Side(number: 1, file: "page-0001.png", dpi: 300)]
            ) { _ in }
        }
    }
}
