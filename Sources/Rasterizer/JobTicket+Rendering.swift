import PrintModel

extension JobTicket {
    /// Throws when the values cannot describe a sheet.
    func validate(limits: RenderLimits) throws(RasterError) {
        guard mediaWidth > 0, mediaHeight > 0 else { throw .badTicket("media size must be positive") }
        guard [topMargin, bottomMargin, leftMargin, rightMargin].allSatisfy({ $0 >= 0 }),
            leftMargin + rightMargin < mediaWidth, topMargin + bottomMargin < mediaHeight
        else { throw .badTicket("margins leave no printable area") }
        guard [1, 2, 4, 6, 9, 16].contains(numberUp) else { throw .badTicket("number-up \(numberUp) is not supported") }
        guard copies >= 1 else { throw .badTicket("copies must be at least 1") }
        guard resolution >= 1 else { throw .badTicket("resolution must be positive") }
        try RenderLimits.check("maximum resolution", resolution, limits.maximumResolution)
        for range in pageRanges where range.lower < 1 || range.upper < range.lower {
            throw .badTicket("page range \(range.lower)-\(range.upper) is invalid")
        }
    }

    /// True when `page` (1-based) is selected by ``pageRanges``.
    func selects(page: Int) -> Bool {
        pageRanges.isEmpty || pageRanges.contains { $0.lower <= page && page <= $0.upper }
    }
}

extension Orientation {
    /// Clockwise turn of the content on the sheet.
    var rotation: Int {
        switch self {
        case .portrait: 0
        case .landscape: 270
        case .reverseLandscape: 90
        case .reversePortrait: 180
        }
    }
}

extension SheetBack {
    /// The CrossFeedTransform and FeedTransform a back side is written with, for long-edge or short-edge
    /// (tumble) binding.
    func transforms(tumble: Bool) -> (crossFeed: Int, feed: Int) {
        switch (self, tumble) {
        case (.normal, _), (.rotated, true), (.manualTumble, false): (1, 1)
        case (.flipped, false): (1, -1)
        case (.flipped, true): (-1, 1)
        case (.rotated, false), (.manualTumble, true): (-1, -1)
        }
    }
}
