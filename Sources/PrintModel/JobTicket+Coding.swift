/// The ticket in the render request (docs/render-protocol.md): IPP attribute names, media in hundredths of a
/// millimetre, every key optional on reading (a missing one keeps its default).
extension JobTicket: Codable {
    enum CodingKeys: String, CodingKey {
        case mediaFromDocument = "media-from-document"
        case mediaWidth = "media-width", mediaHeight = "media-height"
        case topMargin = "media-top-margin", bottomMargin = "media-bottom-margin"
        case leftMargin = "media-left-margin", rightMargin = "media-right-margin"
        case sides, numberUp = "number-up", presentationDirection = "presentation-direction-number-up"
        case copies, colorMode = "print-color-mode", scaling = "print-scaling"
        case orientation = "orientation-requested", pageRanges = "page-ranges", resolution = "dpi"
        case rasterMaximumResolution = "raster-max-dpi", password = "document-password"
        case sheetBack = "sheet-back", multipleDocumentHandling = "multiple-document-handling"
        case overrides
    }

    /// print-color-mode values that print as one of the three rendered modes (PWG 5100.13 section 6.2.3): the
    /// auto and process- modes print like their plain counterparts.
    public static let colorModeAliases: [String: ColorMode] = [
        "auto": .color, "auto-monochrome": .monochrome, "process-monochrome": .monochrome,
        "process-bi-level": .biLevel, "highlight": .color,
    ]

    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ current: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? current
        }
        mediaFromDocument = try value(.mediaFromDocument, mediaFromDocument)
        mediaWidth = try value(.mediaWidth, mediaWidth)
        mediaHeight = try value(.mediaHeight, mediaHeight)
        topMargin = try value(.topMargin, topMargin)
        bottomMargin = try value(.bottomMargin, bottomMargin)
        leftMargin = try value(.leftMargin, leftMargin)
        rightMargin = try value(.rightMargin, rightMargin)
        sides = try value(.sides, sides)
        numberUp = try value(.numberUp, numberUp)
        presentationDirection = try value(.presentationDirection, presentationDirection)
        copies = try value(.copies, copies)
        if let text = try c.decodeIfPresent(String.self, forKey: .colorMode) {
            guard let mode = ColorMode(rawValue: text) ?? Self.colorModeAliases[text] else {
                throw DecodingError.dataCorruptedError(
                    forKey: .colorMode, in: c, debugDescription: "unknown value \(text)")
            }
            colorMode = mode
        }
        scaling = try value(.scaling, scaling)
        // orientation-requested "none" (RFC 8011 section 5.2.10, value 7) leaves pages to turn automatically.
        if try c.decodeIfPresent(String.self, forKey: .orientation) != "none" {
            orientation = try c.decodeIfPresent(Orientation.self, forKey: .orientation)
        }
        pageRanges = try value(.pageRanges, pageRanges)
        resolution = try value(.resolution, resolution)
        rasterMaximumResolution = try c.decodeIfPresent(Int.self, forKey: .rasterMaximumResolution)
        password = try c.decodeIfPresent(String.self, forKey: .password)
        sheetBack = try value(.sheetBack, sheetBack)
        multipleDocumentHandling = try value(.multipleDocumentHandling, multipleDocumentHandling)
        overrides = try value(.overrides, overrides)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if mediaFromDocument { try c.encode(true, forKey: .mediaFromDocument) }
        try c.encode(mediaWidth, forKey: .mediaWidth)
        try c.encode(mediaHeight, forKey: .mediaHeight)
        try c.encode(topMargin, forKey: .topMargin)
        try c.encode(bottomMargin, forKey: .bottomMargin)
        try c.encode(leftMargin, forKey: .leftMargin)
        try c.encode(rightMargin, forKey: .rightMargin)
        try c.encode(sides, forKey: .sides)
        try c.encode(numberUp, forKey: .numberUp)
        try c.encode(presentationDirection, forKey: .presentationDirection)
        try c.encode(copies, forKey: .copies)
        try c.encode(colorMode, forKey: .colorMode)
        try c.encode(scaling, forKey: .scaling)
        try c.encodeIfPresent(orientation, forKey: .orientation)
        if !pageRanges.isEmpty { try c.encode(pageRanges, forKey: .pageRanges) }
        try c.encode(resolution, forKey: .resolution)
        try c.encodeIfPresent(rasterMaximumResolution, forKey: .rasterMaximumResolution)
        try c.encodeIfPresent(password, forKey: .password)
        try c.encode(sheetBack, forKey: .sheetBack)
        try c.encode(multipleDocumentHandling, forKey: .multipleDocumentHandling)
        if !overrides.isEmpty { try c.encode(overrides, forKey: .overrides) }
    }
}
