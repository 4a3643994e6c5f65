import CCairo
import PrintModel

/// The generated test chart that lies on the glass of a scanner with no source file (docs/render-protocol.md,
/// "Scanned images"): a thin border, a ruler in inches along the top and left edges, four lines of large text that
/// say which image of which scan job this is, and five color patches.
///
/// Everything is placed in three-hundredths of an inch from the sheet's top left corner (the unit of eSCL regions),
/// at fixed places, so that a test can look for a patch or a line of text in an image cut from any region. The
/// layout fits an A4 sheet (2480 x 3508); what lies beyond a smaller sheet is cut off.
struct TestChart {
    /// One color patch: its place and its color (sRGB, 0 to 1).
    struct Patch: Sendable, Equatable {
        var name: String
        var x: Int
        var y: Int
        var red: Double
        var green: Double
        var blue: Double
    }

    /// The border's width, drawn inside the sheet's edges.
    static let borderWidth = 6
    /// The ruler: a tick every tenth of an inch (`tickSpacing`), longer every half inch and longest, with its
    /// number, every inch; ticks are `tickWidth` wide and start at the sheet's edge.
    static let tickSpacing = 30
    static let tickWidth = 3
    static let tickLength = 30
    static let halfInchTickLength = 50
    static let inchTickLength = 90
    /// Inch numbers: their size, and where they sit (below the top ruler's inch ticks, right of the left ruler's).
    static let rulerFontSize = 60.0
    static let topNumberBaseline = 150
    static let leftNumberX = 100
    /// The text lines: left edge, font size (0.4 inch, 28.8 points: 59 pixels at 150 dpi) and baselines.
    static let textX = 300
    static let textFontSize = 120.0
    static let textBaselines = [540, 720, 900, 1080]
    /// The patches' size (one inch square) and places: a row under the text.
    static let patchSize = 300
    static let patches = [
        Patch(name: "red", x: 300, y: 1350, red: 1, green: 0, blue: 0),
        Patch(name: "green", x: 700, y: 1350, red: 0, green: 1, blue: 0),
        Patch(name: "blue", x: 1100, y: 1350, red: 0, green: 0, blue: 1),
        Patch(name: "black", x: 1500, y: 1350, red: 0, green: 0, blue: 0),
        Patch(name: "gray", x: 1900, y: 1350, red: 0.5, green: 0.5, blue: 0.5),
    ]

    /// What the chart says.
    let label: ScanPage.ChartLabel
    /// The scan's resolution, printed on the chart.
    let resolution: Int

    /// The text lines, top to bottom.
    var lines: [String] {
        [
            "vprinter scan job \(label.job)", "image \(label.image)", "\(label.source) \(label.side)",
            "\(resolution) dpi",
        ]
    }

    /// Draws the chart on a white sheet of `width` x `height` in a context whose user space is the sheet in
    /// three-hundredths of an inch. Only the ruler ticks within `visible` (the part of the sheet scanned, in the
    /// same unit) are drawn, so that the work is bounded by the image, not by the sheet.
    func draw(in context: OpaquePointer, width: Int, height: Int, visible: ScanPage.Region) {
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_set_source_rgb(context, 0, 0, 0)
        let inset = Double(Self.borderWidth) / 2
        cairo_set_line_width(context, Double(Self.borderWidth))
        cairo_rectangle(context, inset, inset, Double(width) - 2 * inset, Double(height) - 2 * inset)
        cairo_stroke(context)

        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        drawRuler(in: context, along: visible.x..<min(width, visible.x + visible.width), horizontal: true)
        drawRuler(in: context, along: visible.y..<min(height, visible.y + visible.height), horizontal: false)

        cairo_set_font_size(context, Self.textFontSize)
        for (line, baseline) in zip(lines, Self.textBaselines) {
            cairo_move_to(context, Double(Self.textX), Double(baseline))
            cairo_show_text(context, line)
        }

        for patch in Self.patches {
            cairo_set_source_rgb(context, patch.red, patch.green, patch.blue)
            cairo_rectangle(
                context, Double(patch.x), Double(patch.y), Double(Self.patchSize), Double(Self.patchSize))
            cairo_fill(context)
        }
    }

    /// The ticks (and inch numbers) of the top ruler (`horizontal`) or the left one whose position lies in `span`.
    private func drawRuler(in context: OpaquePointer, along span: Range<Int>, horizontal: Bool) {
        guard !span.isEmpty else { return }
        cairo_set_font_size(context, Self.rulerFontSize)
        let spacing = Self.tickSpacing
        let first = max(1, (span.lowerBound - Self.inchTickLength) / spacing)
        let last = (span.upperBound + Self.inchTickLength) / spacing
        guard first <= last else { return }
        let half = Double(Self.tickWidth) / 2
        for tick in first...last {
            let position = Double(tick * spacing)
            let length =
                tick % 10 == 0 ? Self.inchTickLength : tick % 5 == 0 ? Self.halfInchTickLength : Self.tickLength
            if horizontal {
                cairo_rectangle(context, position - half, 0, Double(Self.tickWidth), Double(length))
            } else {
                cairo_rectangle(context, 0, position - half, Double(length), Double(Self.tickWidth))
            }
            cairo_fill(context)
            guard tick % 10 == 0 else { continue }
            let number = String(tick / 10)
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, number, &extents)
            if horizontal {
                cairo_move_to(context, position - extents.width / 2 - extents.x_bearing, Double(Self.topNumberBaseline))
            } else {
                cairo_move_to(context, Double(Self.leftNumberX), position - extents.y_bearing / 2)
            }
            cairo_show_text(context, number)
        }
    }
}
