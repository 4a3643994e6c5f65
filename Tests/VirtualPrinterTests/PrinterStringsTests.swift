import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import VirtualPrinterKit

/// The strings files of printer-strings-uri (PWG 5100.13): a line for every value a shipped profile lists, in
/// English, German, French and Japanese, each from the vocabulary rather than the keyword made readable.
@Suite struct PrinterStringsTests {
    static let profiles =
        (try? FileManager.default.contentsOfDirectory(atPath: shippedProfilesDirectory))?
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted() ?? []

    @Test(arguments: profiles) func everyListedValueHasItsWordsInEveryLanguage(profile: String) throws {
        let printer = Printer.offline(profile: try shippedProfile(profile), name: "s")
        let english = Dictionary(
            PrinterStrings.entries(of: printer.cache, language: "en").map { ($0.key, $0.text) },
            uniquingKeysWith: { first, _ in first })
        for name in PrinterStrings.localizedAttributes {
            for value in printer.cache["\(name)-supported"]?.values ?? [] {
                guard let (key, word) = PrinterStrings.key(of: value, in: name) else { continue }
                #expect(english[key] != nil, "\(profile): no line for \(key)")
                // Media sizes are named from their self-describing names; the rest come from the vocabulary.
                if name != "media" {
                    let known =
                        StringsVocabulary.text("\(name).\(word)", 0) != nil
                        || StringsVocabulary.numbered(name: name, word: word, language: 0) != nil
                    #expect(known, "\(profile): \(key) is not in the vocabulary")
                }
            }
        }
        for language in PrinterStrings.languages.dropFirst() {
            let entries = PrinterStrings.entries(of: printer.cache, language: language)
            #expect(Set(entries.map(\.key)) == Set(english.keys), "\(profile): \(language) has other keys")
            let translated = entries.filter { english[$0.key] != $0.text }
            #expect(translated.count * 2 > entries.count, "\(profile): most \(language) texts are the English ones")
        }
    }

    @Test func theFileIsTheStringsFormat() {
        let printer = Printer.offline(profile: try! shippedProfile("office-mfp"), name: "s")
        let file = PrinterStrings.file(of: printer.cache, language: "de")
        #expect(file.contains("\"media-type.stationery\" = \"Normalpapier\";\n"))
        #expect(file.contains("\"finishings.4\" = \"Heften\";\n"), "enum values by number")
        #expect(file.contains("\"media.iso_a4_210x297mm\" = \"A4 (210 x 297 mm)\";\n"))
        #expect(PrinterStrings.escaped("a \"b\" \\ c\nd") == "a \\\"b\\\" \\\\ c\\nd")
    }

    @Test func theLanguageIsTheClosestListed() {
        #expect(PrinterStrings.language(for: "de") == "de")
        #expect(PrinterStrings.language(for: "de-CH") == "de")
        #expect(PrinterStrings.language(for: "JA") == "ja")
        #expect(PrinterStrings.language(for: "zh-Hans") == "en")
        #expect(PrinterStrings.language(atPath: "/ipp/print/strings/fr.strings", resourcePath: "/ipp/print") == "fr")
        #expect(PrinterStrings.language(atPath: "/ipp/print/strings/xx.strings", resourcePath: "/ipp/print") == nil)
        #expect(PrinterStrings.language(atPath: "/ipp/print/strings/../fr.strings", resourcePath: "/ipp/print") == nil)
    }

    @Test func mediaSizesAreNamedFromTheirSelfDescribingNames() throws {
        func name(_ keyword: String, _ language: Int = 0) -> String? {
            MediaSizeName(keyword)?.text(language: language)
        }
        #expect(name("na_letter_8.5x11in") == "Letter (8.5 x 11 in)")
        #expect(name("na_number-10_4.125x9.5in", 1) == "Umschlag Nr. 10 (4.125 x 9.5 in)")
        #expect(name("custom_min_3x5in", 2) == "Personnalisé minimum (3 x 5 in)")
        #expect(name("oe_unknown-thing_2x3in") == "2 x 3 in")
        #expect(MediaSizeName("stationery") == nil)
    }
}
