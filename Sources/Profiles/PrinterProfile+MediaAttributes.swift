import IPP

extension PrinterProfile {
    /// The media-col members this printer understands (PWG 5100.7 section 6.3).
    static let mediaColMembers = [
        "media-bottom-margin", "media-left-margin", "media-right-margin", "media-size", "media-source",
        "media-top-margin", "media-type",
    ]

    /// media, media-col and their -default, -ready, -supported and -database attributes, media-size-supported,
    /// the margin lists, media-source/-type-supported and printer-input-tray (PWG 5100.7, 5100.13, 5100.14).
    func mediaAttributes() -> [IPPAttribute] {
        let database = mediaColDatabase()
        func supportedMargins(_ member: String) -> [Int32] {
            Set(
                database.compactMap { entry in
                    entry.collectionValue?.first { $0.name == member }?.value?.integerValue
                }
            ).sorted()
        }
        let sized = media.filter { $0.size.className != "custom" && !$0.size.isRangeBound }
        let customSizes = customSizeRanges()
        let defaultType = mediaTypeDefault
        return [
            keywords("media-default", [mediaDefault.name]),
            keywords("media-supported", media.map(\.size.name)),
            keywords("media-ready", mediaReady.map(\.size.name)),
            IPPAttribute(
                "media-col-default",
                mediaCol(
                    size: mediaDefault, margins: margins(for: mediaDefault, type: defaultType),
                    source: mediaSourceDefault, type: defaultType)),
            IPPAttribute(
                name: "media-col-ready",
                values: mediaReady.map {
                    mediaCol(
                        size: $0.size, margins: margins(for: $0.size, type: $0.type), source: $0.source, type: $0.type)
                }),
            keywords("media-col-supported", Self.mediaColMembers),
            IPPAttribute(name: "media-col-database", values: database),
            IPPAttribute(
                name: "media-size-supported",
                values: sized.map { mediaSizeValue($0.size) } + customSizes),
            integers("media-bottom-margin-supported", supportedMargins("media-bottom-margin")),
            integers("media-left-margin-supported", supportedMargins("media-left-margin")),
            integers("media-right-margin-supported", supportedMargins("media-right-margin")),
            integers("media-top-margin-supported", supportedMargins("media-top-margin")),
            keywords("media-source-supported", mediaSources),
            keywords("media-type-supported", mediaTypes),
            IPPAttribute(
                name: "printer-input-tray", values: mediaSources.map { .octetString(Array(inputTray($0).utf8)) }),
        ]
    }

    /// One media-col per size with its margins, plus a zero-margin one for each borderless size, plus a custom
    /// size range when the profile has custom_min_ and custom_max_ sizes.
    func mediaColDatabase() -> [IPPValue] {
        var database: [IPPValue] = []
        for entry in media where entry.size.className != "custom" && !entry.size.isRangeBound {
            database.append(mediaCol(sizeValue: mediaSizeValue(entry.size), margins: entry.margins ?? margins))
            if entry.borderless { database.append(mediaCol(sizeValue: mediaSizeValue(entry.size), margins: .zero)) }
        }
        for rangeClass in ["custom", "roll"] {
            guard let range = customSizeRange(of: rangeClass) else { continue }
            let entry = media.first { $0.size.className == rangeClass && $0.size.isCustomMinimum }
            database.append(mediaCol(sizeValue: range, margins: entry?.margins ?? margins))
            if entry?.borderless == true { database.append(mediaCol(sizeValue: range, margins: .zero)) }
        }
        return database
    }

    /// The margins media of a size and type is printed with: none for borderless sizes on photographic media.
    func margins(for size: MediaSize, type: String) -> ProfileMargins {
        guard let entry = media.first(where: { $0.size == size }) else { return margins }
        if entry.borderless && type.hasPrefix("photographic") { return .zero }
        return entry.margins ?? margins
    }

    /// A media-col value naming size, margins and optionally source and type.
    func mediaCol(size: MediaSize, margins: ProfileMargins, source: String? = nil, type: String? = nil) -> IPPValue {
        mediaCol(sizeValue: mediaSizeValue(size), margins: margins, source: source, type: type)
    }

    private func mediaCol(
        sizeValue: IPPValue, margins: ProfileMargins, source: String? = nil, type: String? = nil
    ) -> IPPValue {
        var members = [
            IPPAttribute("media-bottom-margin", .integer(margins.bottom)),
            IPPAttribute("media-left-margin", .integer(margins.left)),
            IPPAttribute("media-right-margin", .integer(margins.right)),
            IPPAttribute(name: "media-size", values: [sizeValue]),
        ]
        if let source { members.append(keywords("media-source", [source])) }
        members.append(IPPAttribute("media-top-margin", .integer(margins.top)))
        if let type { members.append(keywords("media-type", [type])) }
        return .collection(members)
    }

    /// A media-size collection: x-dimension and y-dimension in hundredths of millimetres.
    func mediaSizeValue(_ size: MediaSize) -> IPPValue {
        .collection([
            IPPAttribute("x-dimension", .integer(size.width)), IPPAttribute("y-dimension", .integer(size.height)),
        ])
    }

    /// The media-size ranges of custom and roll-fed sizes, for media-size-supported.
    private func customSizeRanges() -> [IPPValue] {
        ["custom", "roll"].compactMap { customSizeRange(of: $0) }
    }

    /// The media-size of a size range, from custom_min_ and custom_max_ (or roll_min_ and roll_max_)
    /// (PWG 5100.7 section 6.3.x).
    private func customSizeRange(of rangeClass: String) -> IPPValue? {
        guard let minimum = media.first(where: { $0.size.className == rangeClass && $0.size.isCustomMinimum })?.size,
            let maximum = media.first(where: { $0.size.className == rangeClass && $0.size.isCustomMaximum })?.size,
            minimum.width <= maximum.width, minimum.height <= maximum.height
        else { return nil }
        return .collection([
            IPPAttribute("x-dimension", .rangeOfInteger(minimum.width...maximum.width)),
            IPPAttribute("y-dimension", .rangeOfInteger(minimum.height...maximum.height)),
        ])
    }

    /// True for a media-source keyword that names a roll (`main-roll`, `alternate-roll`, `roll-1` ... `roll-10`,
    /// PWG 5100.7 section 6.3.4; and a vendor's own `...roll...` name).
    public static func isRoll(source: String) -> Bool { source.contains("roll") }

    /// A printer-input-tray value (PWG 5100.13 section 6.5.x, RFC 3805 prtInputTable), e.g.
    /// `type=sheetFeedAutoRemovableTray;mediafeed=0;mediaxfeed=0;maxcapacity=250;level=250;status=0;name=main;`.
    /// Capacity: 1 for manual and by-pass-tray, 20 for photo, unknown (-2) for auto and rolls, else 250.
    func inputTray(_ source: String) -> String {
        let type: String
        let capacity: Int
        switch source {
        case "auto": (type, capacity) = ("other", -2)
        case "manual", "by-pass-tray": (type, capacity) = ("sheetFeedManual", 1)
        case "photo": (type, capacity) = ("sheetFeedAutoRemovableTray", 20)
        case _ where Self.isRoll(source: source): (type, capacity) = ("continuousRoll", -2)
        default: (type, capacity) = ("sheetFeedAutoRemovableTray", 250)
        }
        let loaded = mediaReady.contains { $0.source == source }
        let level = loaded ? capacity : (capacity > 0 ? 0 : -2)
        return "type=\(type);mediafeed=0;mediaxfeed=0;maxcapacity=\(capacity);level=\(level);status=0;name=\(source);"
    }
}
