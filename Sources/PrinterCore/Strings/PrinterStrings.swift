import IPP

/// The printer's strings files (PWG 5100.13 section 6.6: printer-strings-languages-supported, printer-strings-uri):
/// what a client shows for the printer's attribute names and values in the user's language, as iOS and the Mopria
/// app fetch them. One file per language, in the strings format of PWG 5100.13 (`"key" = "value";` lines, UTF-8):
/// keys are attribute names (`media-type`), keyword values (`media-type.stationery`) and enum values by number
/// (`finishings.4`). A file holds every value the printer lists in the `-supported` attributes below, so that no
/// choice of a print dialog shows a bare keyword.
package enum PrinterStrings {
    /// printer-strings-languages-supported; the first is the fallback.
    package static let languages = ["en", "de", "fr", "ja"]

    /// The attributes whose names and `-supported` values a strings file names.
    static let localizedAttributes = [
        "copies", "finishings", "job-hold-until", "job-sheets", "media", "media-source", "media-type",
        "multiple-document-handling", "number-up", "orientation-requested", "output-bin", "page-ranges",
        "presentation-direction-number-up", "print-color-mode", "print-content-optimize", "print-quality",
        "print-rendering-intent", "print-scaling", "printer-resolution", "sides",
    ]

    /// The language of printer-strings-languages-supported closest to a request's attributes-natural-language:
    /// the same, the same without its region (de-CH: de), else English.
    package static func language(for requested: String) -> String {
        let lowered = requested.lowercased()
        if languages.contains(lowered) { return lowered }
        let base = String(lowered.prefix { $0 != "-" && $0 != "_" })
        return languages.contains(base) ? base : languages[0]
    }

    /// The path of a language's file below the printer's resource path.
    package static func path(resourcePath: String, language: String) -> String {
        "\(resourcePath)/strings/\(language).strings"
    }

    /// The language a path names (`<resource>/strings/<language>.strings`), if it is one of `languages`.
    package static func language(atPath path: String, resourcePath: String) -> String? {
        let prefix = "\(resourcePath)/strings/"
        guard path.hasPrefix(prefix), path.hasSuffix(".strings") else { return nil }
        let language = String(path.dropFirst(prefix.count).dropLast(".strings".count))
        return languages.contains(language) ? language : nil
    }

    /// The entries of a language's file for these printer attributes: key and text, in file order.
    package static func entries(of attributes: PrinterAttributeCache, language: String) -> [(key: String, text: String)]
    {
        let index = languages.firstIndex(of: language) ?? 0
        var entries: [(key: String, text: String)] = []
        for name in localizedAttributes {
            entries.append((name, StringsVocabulary.text(name, index) ?? StringsVocabulary.readable(name)))
            for value in attributes["\(name)-supported"]?.values ?? [] {
                guard let (key, word) = key(of: value, in: name) else { continue }
                entries.append((key, text(of: word, in: name, language: index)))
            }
        }
        var seen: Set<String> = []
        return entries.filter { seen.insert($0.key).inserted }
    }

    /// The file: one `"key" = "text";` line per entry.
    package static func file(of attributes: PrinterAttributeCache, language: String) -> String {
        entries(of: attributes, language: language).map { "\"\(escaped($0.key))\" = \"\(escaped($0.text))\";\n" }
            .joined()
    }

    /// The key of a -supported value: `name.keyword`, `name.N` for an enum; nil for ranges and numbers.
    static func key(of value: IPPValue, in name: String) -> (key: String, word: String)? {
        switch value {
        case .keyword(let word), .name(let word), .nameWithLanguage(_, let word):
            return ("\(name).\(word)", word)
        case .enumValue(let number):
            return ("\(name).\(number)", IPPEnumNames.keyword(attribute: name, value: number) ?? "\(number)")
        default:
            return nil
        }
    }

    /// A value's text: the vocabulary's, a media size's name, or its keyword made readable.
    static func text(of word: String, in name: String, language: Int) -> String {
        if let text = StringsVocabulary.text("\(name).\(word)", language) { return text }
        if name == "media", let size = MediaSizeName(word) { return size.text(language: language) }
        if let text = StringsVocabulary.numbered(name: name, word: word, language: language) { return text }
        return StringsVocabulary.readable(word)
    }

    /// A string with `"` and `\` escaped and line breaks as `\n`, as the strings format writes them.
    static func escaped(_ text: String) -> String { text.quotedEscaped }
}
