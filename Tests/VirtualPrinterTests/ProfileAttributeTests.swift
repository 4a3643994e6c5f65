import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// What CUPS's ipp-1.1.test, ipp-2.0.test and ipp-everywhere.test EXPECT of a printer's static attributes:
/// the attribute, the tags its values may have, and whether it must have exactly one value.
private let expectations: [(name: String, tags: Set<IPPTag>, single: Bool)] = [
    ("charset-configured", [.charset], true), ("charset-supported", [.charset], false),
    ("compression-supported", [.keyword], false), ("document-format-default", [.mimeMediaType], true),
    ("document-format-supported", [.mimeMediaType], false),
    ("generated-natural-language-supported", [.naturalLanguage], false),
    ("ipp-versions-supported", [.keyword], false), ("natural-language-configured", [.naturalLanguage], true),
    ("pdl-override-supported", [.keyword], true), ("operations-supported", [.enum], false),
    ("color-supported", [.boolean], true), ("copies-default", [.integer], true),
    ("copies-supported", [.rangeOfInteger], false), ("finishings-default", [.enum], false),
    ("finishings-supported", [.enum], false), ("media-default", [.keyword, .nameWithoutLanguage], true),
    ("media-ready", [.keyword, .nameWithoutLanguage], false), ("media-supported", [.keyword], false),
    ("orientation-requested-default", [.enum], true), ("orientation-requested-supported", [.enum], false),
    ("output-bin-default", [.keyword], true), ("output-bin-supported", [.keyword], false),
    ("print-quality-default", [.enum], true), ("print-quality-supported", [.enum], false),
    ("printer-resolution-default", [.resolution], true), ("printer-resolution-supported", [.resolution], false),
    ("sides-default", [.keyword], true), ("sides-supported", [.keyword], false),
    ("media-col-default", [.beginCollection], true), ("media-col-ready", [.beginCollection], false),
    ("media-col-supported", [.keyword], false), ("media-col-database", [.beginCollection], false),
    ("media-size-supported", [.beginCollection], false), ("media-source-supported", [.keyword], false),
    ("media-type-supported", [.keyword], false), ("pages-per-minute", [.integer], true),
    ("printer-info", [.textWithoutLanguage], true), ("printer-location", [.textWithoutLanguage], true),
    ("printer-make-and-model", [.textWithoutLanguage], true),
    ("identify-actions-default", [.keyword], false), ("identify-actions-supported", [.keyword], false),
    ("ipp-features-supported", [.keyword], false), ("job-creation-attributes-supported", [.keyword], false),
    ("job-ids-supported", [.boolean], true), ("preferred-attributes-supported", [.boolean], true),
    ("media-bottom-margin-supported", [.integer], false), ("media-left-margin-supported", [.integer], false),
    ("media-right-margin-supported", [.integer], false), ("media-top-margin-supported", [.integer], false),
    ("multiple-document-jobs-supported", [.boolean], true), ("multiple-operation-time-out", [.integer], true),
    ("multiple-operation-time-out-action", [.keyword], true), ("overrides-supported", [.keyword], false),
    ("page-ranges-supported", [.boolean], true), ("print-color-mode-default", [.keyword], true),
    ("print-color-mode-supported", [.keyword], false), ("print-content-optimize-default", [.keyword], true),
    ("print-content-optimize-supported", [.keyword], false), ("print-rendering-intent-default", [.keyword], true),
    ("print-rendering-intent-supported", [.keyword], false), ("printer-device-id", [.textWithoutLanguage], true),
    ("printer-geo-location", [.uri, .unknown], true), ("printer-get-attributes-supported", [.keyword], false),
    ("printer-organization", [.textWithoutLanguage], false),
    ("printer-organizational-unit", [.textWithoutLanguage], false), ("printer-supply", [.octetString], false),
    ("printer-supply-description", [.textWithoutLanguage], false),
    ("pwg-raster-document-resolution-supported", [.resolution], false),
    ("pwg-raster-document-sheet-back", [.keyword], true), ("pwg-raster-document-type-supported", [.keyword], false),
    ("which-jobs-supported", [.keyword], false), ("document-password-supported", [.integer], true),
]

private func attributes(_ profile: String) throws -> [IPPAttribute] {
    try shippedProfile(profile).printerAttributes(context: ProfileAttributeContext(printerName: "Test Printer"))
}

@Test(arguments: ["duplex-laser", "color-inkjet"])
func shippedProfileHasEveryAttributeTheConformanceSuitesExpect(profile: String) throws {
    let derived = try attributes(profile)
    for expectation in expectations {
        let attribute = try #require(derived[expectation.name], "\(profile): \(expectation.name) missing or repeated")
        #expect(!attribute.values.isEmpty, "\(expectation.name)")
        #expect(attribute.values.allSatisfy { expectation.tags.contains($0.tag) }, "\(expectation.name) syntax")
        if expectation.single { #expect(attribute.values.count == 1, "\(expectation.name) must have one value") }
    }
    #expect(derived["printer-supply"]?.values.count == derived["printer-supply-description"]?.values.count)
}

@Test(arguments: ["duplex-laser", "color-inkjet"])
func derivedAttributesNeverRepeatANameAndOmitTheDynamicOnes(profile: String) throws {
    let names = try attributes(profile).map(\.name)
    #expect(Set(names).count == names.count)
    for dynamic in ["printer-name", "printer-uuid", "printer-state", "printer-uri-supported", "printer-up-time"] {
        #expect(!names.contains(dynamic))
    }
}

@Test func everyIPPEverywhereOperationIsListed() throws {
    let operations = try #require(try attributes("duplex-laser")["operations-supported"]).values
    for code: Int32 in [0x02, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0B, 0x39, 0x3B, 0x3C] {
        #expect(operations.contains(.enumValue(code)))
    }
}

@Test func monochromePrinterHasNoColorSpeedAndColorPrinterHasOne() throws {
    let laser = try attributes("duplex-laser")
    let inkjet = try attributes("color-inkjet")
    #expect(laser["color-supported"]?.value == .boolean(false))
    #expect(laser["pages-per-minute-color"] == nil)
    #expect(inkjet["color-supported"]?.value == .boolean(true))
    #expect(inkjet["pages-per-minute-color"]?.value == .integer(15))
    #expect(inkjet["document-format-supported"]?.values.contains(.mimeMediaType("image/jpeg")) == true)
    #expect(laser["document-format-supported"]?.values.contains(.mimeMediaType("image/jpeg")) == true)
}

@Test func mediaNamesMatchTheSelfDescribingForm() throws {
    for profile in ["duplex-laser", "color-inkjet"] {
        let derived = try attributes(profile)
        for name in ["media-default", "media-supported", "media-ready"] {
            for value in derived[name]?.values ?? [] {
                #expect(MediaSize(pwgName: value.stringValue ?? "") != nil, "\(profile) \(name) \(value)")
            }
        }
    }
}

@Test func borderlessSizesAddAZeroMarginDatabaseEntry() throws {
    let derived = try attributes("color-inkjet")
    let database = try #require(derived["media-col-database"]).values
    let fourBySix = database.filter { entry in
        let size = entry.collectionValue?.first { $0.name == "media-size" }?.value?.collectionValue
        return size?.first { $0.name == "x-dimension" }?.value == .integer(10160)
    }
    let topMargins = fourBySix.compactMap { $0.collectionValue?.first { $0.name == "media-top-margin" }?.value }
    #expect(Set(topMargins) == [.integer(0), .integer(300)])
    #expect(derived["media-top-margin-supported"]?.values == [.integer(0), .integer(300), .integer(500)])
    let photoTray = try #require(derived["media-col-ready"]?.values.last?.collectionValue)
    #expect(photoTray.first { $0.name == "media-source" }?.value == .keyword("photo"))
    #expect(photoTray.first { $0.name == "media-top-margin" }?.value == .integer(0))
}

@Test func mediaColDefaultNamesSizeSourceAndType() throws {
    let members = try #require(try attributes("duplex-laser")["media-col-default"]?.value?.collectionValue)
    let size = members.first { $0.name == "media-size" }?.value?.collectionValue
    #expect(size == [IPPAttribute("x-dimension", .integer(21590)), IPPAttribute("y-dimension", .integer(27940))])
    #expect(members.first { $0.name == "media-source" }?.value == .keyword("auto"))
    #expect(members.first { $0.name == "media-type" }?.value == .keyword("stationery"))
}

@Test func urfSupportedTokensFollowTheProfile() throws {
    #expect(
        try shippedProfile("duplex-laser").urfSupported == [
            "V1.4", "CP99", "DM1", "IS0-1-4", "MT1-6-4-5-2", "PQ3-4-5", "RS300-600", "W8",
        ])
    #expect(
        try shippedProfile("color-inkjet").urfSupported == [
            "V1.4", "CP99", "DM1", "IS0-1-7", "MT1-11-8-3", "PQ3-4-5", "RS300-600", "SRGB24", "W8",
        ])
}

@Test func deviceIDListsMakeModelAndCommandSets() throws {
    #expect(try shippedProfile("duplex-laser").deviceID == "MFG:vprinter;MDL:Duplex Laser;CMD:PWG,URF,PDF,JPEG;")
    #expect(try shippedProfile("color-inkjet").deviceID == "MFG:vprinter;MDL:Color Inkjet;CMD:PWG,URF,PDF,JPEG,PNG;")
}

@Test func supplyValuesFollowThePWGForm() throws {
    let derived = try attributes("duplex-laser")
    #expect(
        derived["printer-supply"]?.values == [
            .octetString(
                Array(
                    "index=1;class=supplyThatIsConsumed;type=toner;unit=percent;maxcapacity=100;level=80;colorantname=black;"
                        .utf8))
        ])
    #expect(derived["marker-types"]?.values == [.keyword("toner")])
    #expect(try attributes("color-inkjet")["marker-types"]?.value == .keyword("ink-cartridge"))
    #expect(try attributes("color-inkjet")["printer-supply-description"]?.value == .text("Cyan Ink Cartridge"))
}

@Test func profileAttributesReplaceAddAndDeleteDerivedOnes() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["attributes"] = [
        "printer-location": "Lab 2", "printer-geo-location": "geo:46.5,6.6", "x-vendor-flag": true,
        "urf-supported": ["out-of-band": "delete-attribute"],
    ]
    let data = try JSONSerialization.data(withJSONObject: object)
    let derived = try PrinterProfile.decode(data, file: "test.json")
        .printerAttributes(context: ProfileAttributeContext(printerName: "p"))
    #expect(derived["printer-location"]?.value == .text("Lab 2"))
    #expect(derived["printer-geo-location"]?.value == .uri("geo:46.5,6.6"))
    #expect(derived["x-vendor-flag"]?.value == .boolean(true))
    #expect(!derived.contains { $0.name == "urf-supported" })
}

@Test func contextDecidesOperationsTimeOutAndPrinterInfo() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["info"] = nil
    let profile = try PrinterProfile.decode(JSONSerialization.data(withJSONObject: object), file: "t.json")
    let context = ProfileAttributeContext(
        printerName: "Front Desk", operations: [.printJob, .getPrinterAttributes], multipleOperationTimeOut: 30)
    let derived = profile.printerAttributes(context: context)
    #expect(derived["printer-info"]?.value == .text("Front Desk"))
    #expect(derived["operations-supported"]?.values == [.enumValue(2), .enumValue(11)])
    #expect(derived["multiple-operation-time-out"]?.value == .integer(30))
}

@Test func customSizeRangeAndFinishingsAppearWhenTheProfileHasThem() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["media"] = ["na_letter_8.5x11in", "custom_min_3x5in", "custom_max_8.5x14in"]
    object["finishings"] = ["staple-top-left", "punch-dual-left"]
    let profile = try PrinterProfile.decode(JSONSerialization.data(withJSONObject: object), file: "t.json")
    let derived = profile.printerAttributes(context: ProfileAttributeContext(printerName: "p"))
    let range = IPPValue.collection([
        IPPAttribute("x-dimension", .rangeOfInteger(7620...21590)),
        IPPAttribute("y-dimension", .rangeOfInteger(12700...35560)),
    ])
    #expect(derived["media-size-supported"]?.values.last == range)
    #expect(derived["media-supported"]?.values.contains(.keyword("custom_min_3x5in")) == true)
    #expect(derived["finishings-supported"]?.values == [.enumValue(3), .enumValue(20), .enumValue(74)])
    #expect(derived["finishing-template-supported"]?.values.contains(.keyword("staple-top-left")) == true)
    #expect(derived["finishings-col-supported"]?.value == .keyword("finishing-template"))
    #expect(profile.urfSupported.contains("FN20-74"))
}

@Test func pageRangesAreOfferedOnlyWithPDF() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["documentFormats"] = ["image/pwg-raster", "image/jpeg"]
    let profile = try PrinterProfile.decode(JSONSerialization.data(withJSONObject: object), file: "t.json")
    let derived = profile.printerAttributes(context: ProfileAttributeContext(printerName: "p"))
    #expect(derived["page-ranges-supported"]?.value == .boolean(false))
    #expect(derived["job-creation-attributes-supported"]?.values.contains(.keyword("page-ranges")) == false)
    #expect(derived["document-password-supported"] == nil)
    #expect(
        try attributes("duplex-laser")["job-creation-attributes-supported"]?.values.contains(.keyword("page-ranges"))
            == true)
}

@Test func customSizeNeedsBothLimits() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["media"] = ["na_letter_8.5x11in", "custom_min_3x5in"]
    #expect(profileError(object)?.keyPath == "media")
}

@Test func inputTraysDescribeEachSource() throws {
    let trays = try #require(try attributes("duplex-laser")["printer-input-tray"]).values
    #expect(
        trays
            == [
                "type=other;mediafeed=0;mediaxfeed=0;maxcapacity=-2;level=-2;status=0;name=auto;",
                "type=sheetFeedAutoRemovableTray;mediafeed=0;mediaxfeed=0;maxcapacity=250;level=250;status=0;name=main;",
                "type=sheetFeedManual;mediafeed=0;mediaxfeed=0;maxcapacity=1;level=0;status=0;name=manual;",
            ].map { .octetString(Array($0.utf8)) })
}
