import Foundation
import PrintModel
import PrinterCore
import Profiles

/// The viewer's sheets: front and back side by side at a readable size, the page numbers on each side, and the
/// text of each side beside them.
extension JobPage {
    /// Every sheet of one copy, in order.
    static func sheets(_ job: Job, printer: Printer) -> String {
        guard !job.impressions.isEmpty else {
            let why =
                job.state.isTerminal
                ? "This job printed no side (\(HTML.escape(job.reasons.joined(separator: ", "))))."
                : "No side is printed yet; they appear here as they are rendered."
            return "<p id=\"no-sides\">\(why)</p>"
        }
        let layout = SideLayout(job: job, printer: printer)
        let folder = printer.recorder.folder(of: job.id)
        let bySheet = Dictionary(grouping: job.impressions, by: \.sheet)
        var html = ""
        for sheet in bySheet.keys.sorted() {
            let sides = bySheet[sheet] ?? []
            let front = sides.first { $0.side != .back }
            let back = sides.first { $0.side == .back }
            html += "<section class=\"sheet\" id=\"sheet-\(sheet)\" aria-label=\"Sheet \(sheet)\">"
            html += "<h3>Sheet \(sheet)</h3><div class=\"pair\">"
            html += front.map { side($0, job: job, layout: layout) } ?? "<div class=\"side none\">No front side.</div>"
            if let back {
                html += side(back, job: job, layout: layout)
            } else {
                html += "<div class=\"side none\" aria-hidden=\"true\"><p>One-sided: nothing on the back.</p></div>"
            }
            html += "<div class=\"texts\">"
            for impression in [front, back].compactMap({ $0 }) {
                html += text(of: impression, job: job, printer: printer, folder: folder)
            }
            html += "</div></div></section>"
        }
        return html
    }

    /// How the pages lie on this job's sides: number-up, its direction, and the margins.
    struct SideLayout {
        var numberUp: Int
        var direction: String
        /// Margins in hundredths of a millimetre.
        var margins: (top: Int, left: Int, right: Int, bottom: Int)

        init(job: Job, printer: Printer) {
            numberUp = Int(job.template("number-up")?.value?.integerValue ?? 1)
            direction = job.template("presentation-direction-number-up")?.value?.stringValue ?? "toright-tobottom"
            let col = job.template("media-col")
            func margin(_ name: String) -> Int? { col?.member(name)?.value?.integerValue.map(Int.init) }
            if let top = margin("media-top-margin"), let left = margin("media-left-margin"),
                let right = margin("media-right-margin"), let bottom = margin("media-bottom-margin")
            {
                margins = (top, left, right, bottom)
            } else {
                let media = job.actual?.media ?? printer.cache["media-default"]?.value?.stringValue ?? ""
                if let size = MediaSize(pwgName: media) {
                    let found = Printer.margins(of: size, in: printer.cache)
                    margins = (Int(found.top), Int(found.left), Int(found.right), Int(found.bottom))
                } else {
                    margins = (0, 0, 0, 0)
                }
            }
        }

        /// The cells of a side, in percent.
        func cells(_ impression: PrintedSide) -> [NumberUpLayout.Cell] {
            let px = { (value: Int) in NumberUpLayout.pixels(value, dpi: impression.dpi) }
            let printable = (
                x: px(margins.left), y: px(margins.top),
                width: impression.width - px(margins.left) - px(margins.right),
                height: impression.height - px(margins.top) - px(margins.bottom)
            )
            return NumberUpLayout.cells(
                count: numberUp, direction: direction, width: impression.width, height: impression.height,
                printable: printable.width > 0 && printable.height > 0
                    ? printable : (0, 0, impression.width, impression.height))
        }
    }

    /// One side: its image (linking to the PNG), the page number on each number-up cell, and its facts.
    static func side(_ impression: PrintedSide, job: Job, layout: SideLayout) -> String {
        let e = HTML.escape
        let url = "/api/v1/jobs/\(job.id)/files/\(e(impression.file))"
        let pages = impression.pages ?? []
        let multiDocument = Set(pages.map(\.document)).count > 1 || job.documents.count > 1
        func pageLabel(_ page: PlacedPage) -> String {
            multiDocument ? "doc \(page.document) p. \(page.page)" : "p. \(page.page)"
        }
        let pageList = pages.isEmpty ? "no document page" : pages.map(pageLabel).joined(separator: ", ")
        let label = "Sheet \(impression.sheet) \(impression.side), side \(impression.number): \(pageList)"
        var html = "<figure class=\"side\" id=\"side-\(impression.number)\" tabindex=\"-1\" "
        html += "data-side=\"\(impression.number)\" aria-label=\"\(e(label))\">"
        html +=
            "<div class=\"frame\"><div class=\"canvas\"><a href=\"\(url)\" class=\"image\"><img src=\"\(url)\" alt=\"\(e(label))\" "
        html += "width=\"\(impression.width)\" height=\"\(impression.height)\" loading=\"lazy\" decoding=\"async\"></a>"
        if !pages.isEmpty {
            let cells = layout.cells(impression)
            html += "<ol class=\"cells\" aria-hidden=\"true\">"
            for (index, page) in pages.enumerated() {
                let cell =
                    index < cells.count ? cells[index] : NumberUpLayout.Cell(left: 0, top: 0, width: 100, height: 100)
                html += "<li style=\"left:\(percent(cell.left));top:\(percent(cell.top));"
                html +=
                    "width:\(percent(cell.width));height:\(percent(cell.height))\"><span>\(pageLabel(page))</span></li>"
            }
            html += "</ol>"
        }
        html +=
            "</div></div><figcaption><b>\(impression.side == .back ? "Back" : "Front")</b> · side \(impression.number)"
        html += " · \(e(pageList)) · \(impression.width) × \(impression.height) px at \(impression.dpi) dpi"
        html += facts(impression)
        return html + "</figcaption></figure>"
    }

    /// Blank, color, ink coverage and ink cut off, as the render worker measured them.
    static func facts(_ impression: PrintedSide) -> String {
        guard let facts = impression.facts else { return "" }
        var parts: [String] = []
        if facts.blank { parts.append("<b>blank</b>") }
        parts.append(facts.hasColor ? "color" : "no color")
        let coverage = facts.inkCoverage.channels.map { "\($0.name) \(String(format: "%.1f", $0.percent)) %" }
        if !coverage.isEmpty { parts.append("ink: " + coverage.joined(separator: ", ")) }
        if facts.outsidePrintableArea { parts.append("<b class=\"warn\">ink cut off at the margins</b>") }
        return " · " + parts.joined(separator: " · ")
    }

    /// The text printed on a side, as far as it is known without OCR; OCR sides are filled in by the script
    /// from `GET /api/v1/jobs/<id>/text`.
    static func text(of impression: PrintedSide, job: Job, printer: Printer, folder: String) -> String {
        let e = HTML.escape
        let source = impression.textSource ?? .pdf
        var html = "<div class=\"side-text\" id=\"side-text-\(impression.number)\" "
        html += "data-side=\"\(impression.number)\"><h4>Side \(impression.number) "
        html += "(\(impression.side.rawValue)) text <small>\(source == .ocr ? "by OCR" : "from the PDF")</small></h4>"
        if let text = storedText(impression, job: job, printer: printer, folder: folder) {
            let shown = text.replacingOccurrences(of: "\u{0C}", with: "\n— next page —\n")
            let trimmed = shown.trimmingCharacters(in: .whitespacesAndNewlines)
            html += trimmed.isEmpty ? "<p class=\"muted\">No text on this side.</p>" : "<pre>\(e(trimmed))</pre>"
        } else if source == .ocr {
            html += "<p class=\"muted\" data-ocr-side=\"\(impression.number)\">Not read yet: this side is read by "
            html += "OCR on the first request. <a href=\"/api/v1/jobs/\(job.id)/text\">Read it</a>.</p>"
        } else {
            html += "<p class=\"muted\">No text was recorded for this side.</p>"
        }
        return html + "</div>"
    }

    /// The side's text from the printer's text store or its `page-NNNN.txt`, without running OCR.
    static func storedText(_ impression: PrintedSide, job: Job, printer: Printer, folder: String) -> String? {
        if let text = printer.textStore.text(jobID: job.id, number: impression.number) { return text }
        guard let file = PrintedSide.textFileName(forImage: impression.file),
            let data = FileManager.default.contents(atPath: "\(folder)/\(file)")
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func percent(_ value: Double) -> String {
        String(format: "%.2f%%", value)
    }
}
