/// Decoding of the media part of a profile: sizes, sources, types, what is loaded, margins.
extension PrinterProfile {
    /// The media fields of a profile, decoded and checked together because they refer to each other.
    struct MediaFields {
        var media: [ProfileMedia]
        var mediaDefault: MediaSize
        var sources: [String]
        var sourceDefault: String
        var types: [String]
        var typeDefault: String
        var ready: [ProfileReadyMedia]
        var margins: ProfileMargins
    }

    /// Decodes `media`, `mediaDefault`, `mediaSources`, `mediaTypes`, their defaults, `mediaReady` and `margins`.
    static func decodeMedia(_ c: KeyedDecodingContainer<CodingKeys>) throws -> MediaFields {
        let media = try c.decodeNonEmpty([ProfileMedia].self, forKey: .media)
        let sizes = media.map(\.size)
        for (index, size) in sizes.enumerated() where sizes[..<index].contains(size) {
            throw ProfileIssue(c.path(.media, index), .invalid("'\(size.name)' is listed twice"))
        }
        for rangeClass in ["custom", "roll"] {
            let bounds = sizes.filter { $0.className == rangeClass && $0.isRangeBound }
            guard bounds.isEmpty || (bounds.count == 2 && bounds.contains(where: \.isCustomMinimum)) else {
                throw ProfileIssue(
                    c.path(.media), .invalid("\(rangeClass)_min_... and \(rangeClass)_max_... come as a pair"))
            }
            if let low = bounds.first(where: \.isCustomMinimum), let high = bounds.first(where: \.isCustomMaximum),
                low.width > high.width || low.height > high.height
            {
                throw ProfileIssue(
                    c.path(.media), .invalid("\(rangeClass)_min_... is larger than \(rangeClass)_max_..."))
            }
        }
        let defaultName = try c.decode(String.self, forKey: .mediaDefault)
        guard let mediaDefault = MediaSize(pwgName: defaultName) else {
            throw ProfileIssue(c.path(.mediaDefault), .invalid(badMediaName(defaultName)))
        }
        try c.requireMember(
            mediaDefault, of: sizes.filter { $0.className != "custom" && !$0.isRangeBound }, key: .mediaDefault)

        let sources = try c.decodeNonEmpty([String].self, forKey: .mediaSources, default: ["main"])
        try c.requireKeywords(sources, key: .mediaSources)
        let sourceDefault = try c.decode(String.self, forKey: .mediaSourceDefault, default: sources[0])
        try c.requireMember(sourceDefault, of: sources, key: .mediaSourceDefault)
        let types = try c.decodeNonEmpty([String].self, forKey: .mediaTypes, default: ["stationery"])
        try c.requireKeywords(types, key: .mediaTypes)
        let typeDefault = try c.decode(String.self, forKey: .mediaTypeDefault, default: types[0])
        try c.requireMember(typeDefault, of: types, key: .mediaTypeDefault)

        var ready: [ProfileReadyMedia]
        if c.present(.mediaReady) {
            ready = try c.decode([ProfileReadyMedia].self, forKey: .mediaReady)
            for (index, loaded) in ready.enumerated() {
                let path = c.path(.mediaReady, index)
                guard sources.contains(loaded.source) else {
                    throw ProfileIssue(path + [ProfileKey(stringValue: "source")], .invalid("not in mediaSources"))
                }
                guard sizes.contains(loaded.size) else {
                    throw ProfileIssue(path + [ProfileKey(stringValue: "size")], .invalid("not in media"))
                }
                guard types.contains(loaded.type) else {
                    throw ProfileIssue(path + [ProfileKey(stringValue: "type")], .invalid("not in mediaTypes"))
                }
            }
        } else {
            ready = sources.filter { $0 != "auto" }.map {
                ProfileReadyMedia(source: $0, size: mediaDefault, type: typeDefault)
            }
        }
        let margins = try c.decode(
            ProfileMargins.self, forKey: .margins, default: ProfileMargins(top: 423, bottom: 423, left: 423, right: 423)
        )
        return MediaFields(
            media: media, mediaDefault: mediaDefault, sources: sources, sourceDefault: sourceDefault, types: types,
            typeDefault: typeDefault, ready: ready, margins: margins)
    }

    /// The message for a string that is not a PWG self-describing media name.
    static func badMediaName(_ name: String) -> String {
        "'\(name)' is not a PWG 5101.1 media name like na_letter_8.5x11in or iso_a4_210x297mm"
    }
}

extension ProfileMargins: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case top, bottom, left, right }

    /// The largest margin accepted: 5 cm.
    public static let maximumMargin: Int32 = 5000

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        top = try c.decode(Int32.self, forKey: .top)
        bottom = try c.decode(Int32.self, forKey: .bottom)
        left = try c.decode(Int32.self, forKey: .left)
        right = try c.decode(Int32.self, forKey: .right)
        for (key, value) in [(CodingKeys.top, top), (.bottom, bottom), (.left, left), (.right, right)] {
            try c.requireRange(value, 0...Self.maximumMargin, key: key)
        }
    }
}

extension ProfileMedia: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case size, margins, borderless }

    /// Either a PWG media name, or an object with `size`, optional `margins` and optional `borderless`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let size = MediaSize(pwgName: name) else {
                throw ProfileIssue(decoder.codingPath, .invalid(PrinterProfile.badMediaName(name)))
            }
            self.init(size: size, margins: nil, borderless: false)
            return
        }
        guard (try? decoder.container(keyedBy: CodingKeys.self)) != nil else {
            throw ProfileIssue(decoder.codingPath, .invalid("expected a PWG media name or an object with a size"))
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .size)
        guard let size = MediaSize(pwgName: name) else {
            throw ProfileIssue(c.path(.size), .invalid(PrinterProfile.badMediaName(name)))
        }
        let margins = try c.decodeIfPresent(ProfileMargins.self, forKey: .margins)
        let borderless = try c.decode(Bool.self, forKey: .borderless, default: false)
        self.init(size: size, margins: margins, borderless: borderless)
    }
}

extension ProfileReadyMedia: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case source, size, type }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .size)
        guard let size = MediaSize(pwgName: name) else {
            throw ProfileIssue(c.path(.size), .invalid(PrinterProfile.badMediaName(name)))
        }
        self.init(
            source: try c.decode(String.self, forKey: .source), size: size,
            type: try c.decode(String.self, forKey: .type))
    }
}

extension ProfileSupply: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, color, level, description, supplyClass = "class", lowLevel, highLevel
    }

    /// RFC 3805 PrtMarkerSuppliesClassTC names.
    static let classes: Set<String> = ["supplyThatIsConsumed", "receptacleThatIsFilled", "other"]

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        color = try c.decode(String.self, forKey: .color)
        for (key, value) in [(CodingKeys.type, type), (.color, color)]
        where value.isEmpty || value.contains(";") || value.contains("=") {
            throw ProfileIssue(c.path(key), .invalid("must be non-empty and hold no ';' or '='"))
        }
        level = try c.decode(Int32.self, forKey: .level)
        lowLevel = try c.decode(Int32.self, forKey: .lowLevel, default: 10)
        highLevel = try c.decode(Int32.self, forKey: .highLevel, default: 100)
        for (key, value) in [(CodingKeys.level, level), (.lowLevel, lowLevel), (.highLevel, highLevel)] {
            try c.requireRange(value, 0...100, key: key)
        }
        supplyClass = try c.decode(String.self, forKey: .supplyClass, default: "supplyThatIsConsumed")
        try c.requireAllowed([supplyClass], Self.classes, key: .supplyClass)
        description = try c.decode(String.self, forKey: .description, default: Self.describe(type: type, color: color))
    }

    /// "Black Toner" from black and toner; "Waste Toner" from none and wasteToner.
    static func describe(type: String, color: String) -> String {
        var words: [String] = []
        if color != "none" { words.append(color.prefix(1).uppercased() + color.dropFirst()) }
        var current = ""
        for character in type {
            if character.isUppercase && !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(current.isEmpty ? Character(character.uppercased()) : character)
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ")
    }
}
