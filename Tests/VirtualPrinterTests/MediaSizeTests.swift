import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

@Test(arguments: [
    ("na_letter_8.5x11in", Int32(21590), Int32(27940)), ("iso_a4_210x297mm", 21000, 29700),
    ("na_legal_8.5x14in", 21590, 35560), ("na_index-4x6_4x6in", 10160, 15240),
    ("na_number-10_4.125x9.5in", 10478, 24130), ("iso_a5_148x210mm", 14800, 21000),
    ("custom_min_3x5in", 7620, 12700), ("jis_b5_182x257mm", 18200, 25700), ("om_small-photo_100x150mm", 10000, 15000),
])
func selfDescribingNameGivesHundredthsOfMillimetres(name: String, width: Int32, height: Int32) throws {
    let size = try #require(MediaSize(pwgName: name))
    #expect(size.width == width)
    #expect(size.height == height)
    #expect(size.name == name)
}

@Test(arguments: [
    "letter", "na_letter", "na_letter_8.5x11", "na_letter_8.5x11cm", "iso_a4_210x297in", "na_a4_210x297mm",
    "na_Letter_8.5x11in", "na_letter_8.50x11in", "na_letter_08.5x11in", "na_letter_0x11in", "na_letter_8.5xin",
    "na__8.5x11in", "na_letter_8.5x11x2in", "na_letter_-8.5x11in", "na_letter_8.5x11in_extra", "",
])
func malformedNameIsRefused(name: String) {
    #expect(MediaSize(pwgName: name) == nil)
}

@Test func customLimitsAreRecognised() throws {
    #expect(try #require(MediaSize(pwgName: "custom_min_3x5in")).isCustomMinimum)
    #expect(try #require(MediaSize(pwgName: "custom_max_8.5x14in")).isCustomMaximum)
    #expect(try #require(MediaSize(pwgName: "na_letter_8.5x11in")).isCustomMinimum == false)
}

@Test func sizeFromPartsWritesTheShortestName() {
    let size = MediaSize(className: "na", sizeName: "foolscap", width: 20320, height: 33020, unit: .inches)
    #expect(size.name == "na_foolscap_8x13in")
    let metric = MediaSize(className: "iso", sizeName: "c5", width: 16200, height: 22900, unit: .millimetres)
    #expect(metric.name == "iso_c5_162x229mm")
}
