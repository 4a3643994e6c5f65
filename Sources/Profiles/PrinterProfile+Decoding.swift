import IPP

extension PrinterProfile: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, make, model, makeAndModel, info, location, organization, organizationalUnit, geoLocation
        case color, duplex, sheetBack, sidesDefault
        case media, mediaDefault, mediaSources, mediaSourceDefault, mediaTypes, mediaTypeDefault, mediaReady, margins
        case resolutions, resolutionDefault, documentFormats, documentFormatDefault, copiesMax, finishings
        case outputBins, outputBinDefault, pagesPerMinute, pagesPerMinuteColor, supplies, kind
        case printQualities, printQualityDefault, identifyActions, identifyActionDefault, multipleDocumentJobs
        case numberUp, firmwareName, firmwareVersion, attributes, txt
        case extends, pageRanges, printScaling, printScalingDefault, jobPassword, jobStorage, proofPrint, documentURI,
            scanner
        case serialNumber
    }

    /// The longest `printer-info`, `printer-location` and `printer-make-and-model` (ipp-2.0.test).
    public static let maximumDescriptionLength = 127
    /// Resolutions a profile may state, in dots per inch.
    public static let resolutionRange: ClosedRange<Int32> = 72...4800
    /// Values `copiesMax` may take.
    public static let copiesMaxRange: ClosedRange<Int32> = 1...9999
    /// Values `pagesPerMinute` and `pagesPerMinuteColor` may take.
    public static let pagesPerMinuteRange: ClosedRange<Int32> = 1...1000
    /// Values `numberUp` may list.
    public static let numberUpRange: ClosedRange<Int32> = 1...100
    /// The number-up layouts the renderer imposes (a printer must print what it advertises).
    public static let numberUpLayouts: Set<Int32> = [1, 2, 4, 6, 9, 16]

    /// Decodes and checks a profile; problems are thrown as `ProfileIssue` with their key path.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)

        name = try c.decode(String.self, forKey: .name)
        guard !name.isEmpty, !name.contains("/") else {
            throw ProfileIssue(c.path(.name), .invalid("must be non-empty and hold no '/'"))
        }
        make = try Self.deviceIDPart(c, .make)
        model = try Self.deviceIDPart(c, .model)
        makeAndModel = try Self.description(c, .makeAndModel) ?? "\(make) \(model)"
        info = try Self.description(c, .info)
        location = try Self.description(c, .location) ?? ""
        organization = try c.decode(String.self, forKey: .organization, default: "")
        organizationalUnit = try c.decode(String.self, forKey: .organizationalUnit, default: "")
        geoLocation = try c.decodeIfPresent(String.self, forKey: .geoLocation)
        if let geoLocation, !geoLocation.hasPrefix("geo:") {
            throw ProfileIssue(c.path(.geoLocation), .invalid("must be a geo: URI (RFC 5870), e.g. geo:46.5,6.6"))
        }

        color = try c.decode(Bool.self, forKey: .color)
        duplex = try c.decode(Bool.self, forKey: .duplex)
        sheetBack = try c.decode(String.self, forKey: .sheetBack, default: "normal")
        try c.requireAllowed([sheetBack], ["normal", "flipped", "rotated", "manual-tumble"], key: .sheetBack)
        sidesDefault = try c.decode(String.self, forKey: .sidesDefault, default: "one-sided")
        try c.requireMember(sidesDefault, of: Self.sides(duplex: duplex), key: .sidesDefault)

        let mediaFields = try Self.decodeMedia(c)
        media = mediaFields.media
        mediaDefault = mediaFields.mediaDefault
        mediaSources = mediaFields.sources
        mediaSourceDefault = mediaFields.sourceDefault
        mediaTypes = mediaFields.types
        mediaTypeDefault = mediaFields.typeDefault
        mediaReady = mediaFields.ready
        margins = mediaFields.margins

        resolutions = try c.decodeNonEmpty([Int32].self, forKey: .resolutions)
        for (index, dpi) in resolutions.enumerated() {
            try c.requireRange(dpi, Self.resolutionRange, key: .resolutions, index: index)
        }
        resolutionDefault = try c.decode(Int32.self, forKey: .resolutionDefault, default: resolutions[0])
        try c.requireMember(resolutionDefault, of: resolutions, key: .resolutionDefault)

        documentFormats = try c.decodeNonEmpty([String].self, forKey: .documentFormats)
        for (index, format) in documentFormats.enumerated() where !Self.isMIMEType(format) {
            throw ProfileIssue(c.path(.documentFormats, index), .invalid("'\(format)' is not a MIME type"))
        }
        if !documentFormats.contains("application/octet-stream") { documentFormats.append("application/octet-stream") }
        documentFormatDefault = try c.decode(
            String.self, forKey: .documentFormatDefault, default: "application/octet-stream")
        try c.requireMember(documentFormatDefault, of: documentFormats, key: .documentFormatDefault)

        copiesMax = try c.decode(Int32.self, forKey: .copiesMax, default: 99)
        try c.requireRange(copiesMax, Self.copiesMaxRange, key: .copiesMax)
        finishings = try c.decodeNonEmpty([String].self, forKey: .finishings, default: ["none"])
        for (index, finishing) in finishings.enumerated()
        where IPPEnumNames.value(attribute: "finishings", keyword: finishing) == nil {
            throw ProfileIssue(c.path(.finishings, index), .invalid("'\(finishing)' is not a finishings keyword"))
        }
        if !finishings.contains("none") { finishings.insert("none", at: 0) }
        outputBins = try c.decodeNonEmpty([String].self, forKey: .outputBins, default: ["face-down"])
        try c.requireKeywords(outputBins, key: .outputBins)
        outputBinDefault = try c.decode(String.self, forKey: .outputBinDefault, default: outputBins[0])
        try c.requireMember(outputBinDefault, of: outputBins, key: .outputBinDefault)

        pagesPerMinute = try c.decode(Int32.self, forKey: .pagesPerMinute)
        try c.requireRange(pagesPerMinute, Self.pagesPerMinuteRange, key: .pagesPerMinute)
        pagesPerMinuteColor = try c.decodeIfPresent(Int32.self, forKey: .pagesPerMinuteColor)
        if let pagesPerMinuteColor {
            guard color else {
                throw ProfileIssue(c.path(.pagesPerMinuteColor), .invalid("only a color printer has a color speed"))
            }
            try c.requireRange(pagesPerMinuteColor, Self.pagesPerMinuteRange, key: .pagesPerMinuteColor)
        } else if color {
            throw ProfileIssue(c.path(.pagesPerMinuteColor), .invalid("a color printer needs a color speed"))
        }

        supplies = try c.decodeNonEmpty([ProfileSupply].self, forKey: .supplies)
        kind = try c.decodeNonEmpty([String].self, forKey: .kind, default: ["document"])
        try c.requireAllowed(kind, Self.printerKinds, key: .kind)
        printQualities = try c.decodeNonEmpty(
            [String].self, forKey: .printQualities, default: ["draft", "normal", "high"])
        try c.requireAllowed(printQualities, ["draft", "normal", "high"], key: .printQualities)
        printQualityDefault = try c.decode(
            String.self, forKey: .printQualityDefault,
            default: printQualities.contains("normal") ? "normal" : printQualities[0])
        try c.requireMember(printQualityDefault, of: printQualities, key: .printQualityDefault)
        identifyActions = try c.decodeNonEmpty([String].self, forKey: .identifyActions, default: ["sound"])
        try c.requireAllowed(identifyActions, ["display", "flash", "sound", "speak"], key: .identifyActions)
        identifyActionDefault = try c.decode(String.self, forKey: .identifyActionDefault, default: identifyActions[0])
        try c.requireMember(identifyActionDefault, of: identifyActions, key: .identifyActionDefault)
        multipleDocumentJobs = try c.decode(Bool.self, forKey: .multipleDocumentJobs, default: true)
        numberUp = try c.decodeNonEmpty([Int32].self, forKey: .numberUp, default: [1, 2, 4, 6, 9, 16])
        for (index, up) in numberUp.enumerated() {
            try c.requireRange(up, Self.numberUpRange, key: .numberUp, index: index)
            guard Self.numberUpLayouts.contains(up) else {
                throw ProfileIssue(
                    c.path(.numberUp, index),
                    .invalid("\(up) pages a side is not a layout the printer makes (1, 2, 4, 6, 9, 16)"))
            }
        }
        firmwareName = try c.decode(String.self, forKey: .firmwareName, default: "vprinter")
        firmwareVersion = try c.decode(String.self, forKey: .firmwareVersion, default: "1.0")
        serialNumber = c.present(.serialNumber) ? try Self.deviceIDPart(c, .serialNumber) : nil
        attributes = try Self.rawAttributes(c)
        txt = try Self.txtOverrides(c)
        features = try Self.decodeFeatures(c, documentFormats: documentFormats)
    }

    /// The longest TXT key a profile may set (RFC 6763 section 6.4 recommends at most 9 characters; a whole
    /// key=value string must fit in 255 bytes).
    public static let maximumTXTKeyLength = 64
    /// The longest TXT value a profile may set, so that `key=value` fits in one 255-byte TXT string
    /// (RFC 6763 section 6.1).
    public static let maximumTXTValueLength = 255 - 1 - maximumTXTKeyLength

    /// The `txt` object: keys of printable ASCII without `=` (RFC 6763 section 6.4), string values or null.
    private static func txtOverrides(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [(key: String, value: String?)]
    {
        guard let object = try c.decodeIfPresent([String: DecodedJSON].self, forKey: .txt) else { return [] }
        var overrides: [(key: String, value: String?)] = []
        for (key, json) in object.sorted(by: { $0.key < $1.key }) {
            let path = c.codingPath + [CodingKeys.txt, ProfileKey(stringValue: key)]
            let printable = key.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value <= 0x7E && $0 != "=" }
            guard !key.isEmpty, key.utf8.count <= maximumTXTKeyLength, printable else {
                throw ProfileIssue(
                    path, .invalid("a TXT key is 1 to \(maximumTXTKeyLength) printable ASCII characters without '='"))
            }
            switch json.value {
            case nil:
                overrides.append((key, nil))
            case let value as String where value.utf8.count <= maximumTXTValueLength:
                overrides.append((key, value))
            default:
                throw ProfileIssue(
                    path, .invalid("expected a string of at most \(maximumTXTValueLength) bytes, or null to remove it"))
            }
        }
        return overrides
    }

    /// The `sides-supported` keywords of a simplex or duplex printer.
    static func sides(duplex: Bool) -> [String] {
        duplex ? ["one-sided", "two-sided-long-edge", "two-sided-short-edge"] : ["one-sided"]
    }

    /// `printer-kind` keywords (PWG 5100.13 section 6.5.x).
    static let printerKinds: Set<String> = [
        "disc", "document", "envelope", "label", "large-format", "photo", "postcard", "receipt", "roll",
    ]

    /// A make or model: non-empty, no `;` (it would break `printer-device-id`).
    private static func deviceIDPart(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> String {
        let value = try c.decode(String.self, forKey: key)
        guard !value.isEmpty, !value.contains(";") else {
            throw ProfileIssue(c.path(key), .invalid("must be non-empty and hold no ';'"))
        }
        return value
    }

    /// An optional description string of at most 127 characters.
    private static func description(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> String? {
        guard let value = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard value.count <= maximumDescriptionLength else {
            throw ProfileIssue(c.path(key), .invalid("longer than \(maximumDescriptionLength) characters"))
        }
        return value
    }

    /// `type/subtype` with no spaces (RFC 2045 section 5.1, loosely).
    private static func isMIMEType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty } && !text.contains(" ") && text.utf8.count <= 255
    }

    /// The `attributes` object, each member converted with `IPPJSON.attribute(name:json:)`, sorted by name.
    private static func rawAttributes(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [IPPAttribute] {
        guard let object = try c.decodeIfPresent([String: DecodedJSON].self, forKey: .attributes) else { return [] }
        var attributes: [IPPAttribute] = []
        for (name, json) in object.sorted(by: { $0.key < $1.key }) {
            do throws(IPPJSONError) {
                attributes.append(try IPPJSON.attribute(name: name, json: json.value))
            } catch {
                let path = c.codingPath + [CodingKeys.attributes, ProfileKey(stringValue: name)]
                throw ProfileIssue(path, .invalid(error.description))
            }
        }
        return attributes
    }
}
