/// The name a strings file gives a media size, read from its PWG 5101.1 self-describing name
/// (`class_name_WxHunit`): the size's common name when it has one (A4, Letter, Envelope #10), its dimensions after
/// it, in a language of `PrinterStrings.languages`; `custom_min_` and `custom_max_` (and `roll_`) sizes as the
/// smallest and largest custom size.
struct MediaSizeName {
    let className: String
    let name: String
    /// The dimensions as written in the name (`210x297`) and their unit (`mm`, `in`).
    let dimensions: String
    let unit: String

    /// Reads a self-describing media name; nil for anything else.
    init?(_ keyword: String) {
        let parts = keyword.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, let last = parts.last, last.hasSuffix("mm") || last.hasSuffix("in") else { return nil }
        className = parts[0]
        name = parts[1..<(parts.count - 1)].joined(separator: "_")
        unit = String(last.suffix(2))
        dimensions = String(last.dropLast(2))
        guard dimensions.contains("x") else { return nil }
    }

    /// The size's text in the language at `index` of `PrinterStrings.languages`.
    func text(language index: Int) -> String {
        let size = dimensions.split(separator: "x").joined(separator: " x ") + " " + unit
        if className == "custom" || className == "roll", let bound = Self.bounds[name] {
            let kind = className == "roll" ? Self.roll[index] : Self.custom[index]
            return "\(kind) \(bound[index]) (\(size))"
        }
        guard var common = Self.common(name, language: index) else { return size }
        if className == "jis" { common = "JIS " + common }
        return "\(common) (\(size))"
    }

    /// A size's common name: ISO and JIS series, North American names, envelopes, labels, photo and receipt sizes.
    static func common(_ name: String, language index: Int) -> String? {
        if let exact = names[name] { return exact[index] }
        for (prefix, templates) in kinds where name.hasPrefix(prefix) && name.count > prefix.count {
            let rest = String(name.dropFirst(prefix.count))
            return templates[index].split(separator: "%s", omittingEmptySubsequences: false).joined(separator: rest)
        }
        // iso_a4, jis_b5, na_arch-a: the series letter and number as the standards write them.
        if let first = name.first, "abc".contains(first), name.dropFirst().allSatisfy(\.isNumber), !name.isEmpty {
            return name.uppercased()
        }
        if name.hasPrefix("arch-") { return "Arch " + name.dropFirst(5).uppercased() }
        return nil
    }

    static let custom = ["Custom", "Benutzerdefiniert", "Personnalisé", "カスタム"]
    static let roll = ["Roll", "Rolle", "Rouleau", "ロール"]
    static let bounds: [String: [String]] = [
        "min": ["minimum", "Minimum", "minimum", "最小"],
        "max": ["maximum", "Maximum", "maximum", "最大"],
    ]

    /// Sizes whose name says a kind of media before a number: envelopes, receipts; `%s` where the number goes.
    static let kinds: [(String, [String])] = [
        ("number-", ["Envelope #%s", "Umschlag Nr. %s", "Enveloppe n° %s", "封筒 No.%s"]),
        ("receipt-", ["Receipt %s", "Beleg %s", "Ticket %s", "レシート %s"]),
    ]

    /// Common names, in the order of `PrinterStrings.languages`.
    static let names: [String: [String]] = [
        "letter": ["Letter", "Letter", "Lettre US", "レター"],
        "legal": ["Legal", "Legal", "Légal US", "リーガル"],
        "executive": ["Executive", "Executive", "Exécutif", "エグゼクティブ"],
        "ledger": ["Tabloid", "Tabloid", "Tabloïd", "タブロイド"],
        "foolscap": ["Foolscap", "Foolscap", "Foolscap", "フールスキャップ"],
        "invoice": ["Statement", "Statement", "Relevé", "ステートメント"],
        "govt-letter": ["Government Letter", "Government Letter", "Lettre administrative US", "ガバメントレター"],
        "monarch": ["Envelope Monarch", "Umschlag Monarch", "Enveloppe Monarch", "封筒 モナーク"],
        "dl": ["Envelope DL", "Umschlag DL", "Enveloppe DL", "封筒 DL"],
        "c5": ["Envelope C5", "Umschlag C5", "Enveloppe C5", "封筒 C5"],
        "index-4x6": ["Index Card", "Karteikarte", "Fiche bristol", "インデックスカード"],
        "5x7": ["Photo 5x7", "Foto 13x18", "Photo 13x18", "写真 2L"],
        "photo-l": ["Photo L", "Foto L", "Photo L", "写真 L判"],
        "small-photo": ["Photo 10x15", "Foto 10x15", "Photo 10x15", "写真 はがき"],
        "square-photo": ["Square Photo", "Quadratisches Foto", "Photo carrée", "正方形写真"],
        "super-b": ["Super B", "Super B", "Super B", "スーパーB"],
        "sra3": ["SRA3", "SRA3", "SRA3", "SRA3"],
        "c": ["ANSI C", "ANSI C", "ANSI C", "ANSI C"],
        "d": ["ANSI D", "ANSI D", "ANSI D", "ANSI D"],
        "e": ["ANSI E", "ANSI E", "ANSI E", "ANSI E"],
        "address-label": ["Address Label", "Adressetikett", "Étiquette d'adresse", "宛名ラベル"],
        "2x1-label": ["Label 2x1", "Etikett 2x1", "Étiquette 2x1", "ラベル 2x1"],
        "4x2-label": ["Label 4x2", "Etikett 4x2", "Étiquette 4x2", "ラベル 4x2"],
        "4x3-label": ["Label 4x3", "Etikett 4x3", "Étiquette 4x3", "ラベル 4x3"],
        "4x8-label": ["Label 4x8", "Etikett 4x8", "Étiquette 4x8", "ラベル 4x8"],
        "100x150-label": ["Shipping Label", "Versandetikett", "Étiquette d'expédition", "配送ラベル"],
    ]
}
