import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// JobTicketValidator against the attributes of the shipped duplex-laser profile (RFC 8011 sections 4.1.7, 5.2).
@Suite struct JobTicketValidatorTests {
    let validator: JobTicketValidator

    init() throws {
        let cache = PrinterAttributeCache(attributes: try duplexLaserAttributes(), excluding: [])
        validator = JobTicketValidator(printer: cache)
    }

    func validate(_ attributes: [IPPAttribute]) -> JobTicketValidator.Result {
        validator.validate(IPPAttributeGroup(tag: .jobAttributes, attributes: attributes))
    }

    /// Expects the single attribute to be accepted as it is.
    func expectAccepted(_ attribute: IPPAttribute, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = validate([attribute])
        #expect(result.accepted == [attribute], sourceLocation: sourceLocation)
        #expect(result.unsupported.isEmpty, sourceLocation: sourceLocation)
    }

    /// Expects the single attribute to come back in the unsupported list with its value.
    func expectRefused(_ attribute: IPPAttribute, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = validate([attribute])
        #expect(result.accepted.isEmpty, sourceLocation: sourceLocation)
        #expect(result.unsupported == [attribute], sourceLocation: sourceLocation)
    }

    func mediaSize(_ x: Int32, _ y: Int32) -> IPPAttribute {
        IPPAttribute(
            "media-size",
            .collection([IPPAttribute("x-dimension", .integer(x)), IPPAttribute("y-dimension", .integer(y))]))
    }

    func mediaCol(_ members: IPPAttribute...) -> IPPAttribute {
        IPPAttribute("media-col", .collection(members))
    }

    @Test func noJobGroupAcceptsNothingAndRefusesNothing() {
        let result = validator.validate(nil)
        #expect(result.accepted.isEmpty && result.unsupported.isEmpty)
    }

    @Test func anAttributeThePrinterDoesNotKnowComesBackAsOutOfBandUnsupported() {
        let result = validate([IPPAttribute("job-sheets-col-x", .keyword("standard"))])
        #expect(result.accepted.isEmpty)
        #expect(result.unsupported == [IPPAttribute("job-sheets-col-x", .outOfBand(.unsupported))])
    }

    @Test func copiesWithinTheSupportedRangeAreAccepted() {
        expectAccepted(IPPAttribute("copies", .integer(1)))
        expectAccepted(IPPAttribute("copies", .integer(99)))
    }

    @Test(arguments: [0, 100, -1])
    func copiesOutsideTheSupportedRangeAreRefused(copies: Int32) {
        expectRefused(IPPAttribute("copies", .integer(copies)))
    }

    @Test func copiesOfTheWrongSyntaxAreRefused() {
        expectRefused(IPPAttribute("copies", .keyword("2")))
    }

    @Test func supportedKeywordsAreAcceptedAndOthersRefused() {
        expectAccepted(IPPAttribute("sides", .keyword("two-sided-long-edge")))
        expectAccepted(IPPAttribute("print-color-mode", .keyword("monochrome")))
        expectRefused(IPPAttribute("print-color-mode", .keyword("color")))
        expectRefused(IPPAttribute("sides", .keyword("three-sided")))
        expectRefused(IPPAttribute("output-bin", .keyword("face-up")))
    }

    @Test func mediaAcceptsASupportedNameAsKeywordOrName() {
        expectAccepted(IPPAttribute("media", .keyword("iso_a4_210x297mm")))
        expectAccepted(IPPAttribute("media", .name("na_letter_8.5x11in")))
        expectRefused(IPPAttribute("media", .keyword("iso_a3_297x420mm")))
    }

    @Test func enumsAreMatchedByValue() {
        expectAccepted(IPPAttribute("print-quality", .enumValue(5)))
        expectAccepted(IPPAttribute("orientation-requested", .enumValue(4)))
        expectRefused(IPPAttribute("orientation-requested", .enumValue(8)))
        expectRefused(IPPAttribute("print-quality", .enumValue(6)))
        expectRefused(IPPAttribute("print-quality", .integer(5)))
    }

    @Test func resolutionsMustMatchExactlyIncludingUnits() {
        expectAccepted(IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 600))))
        expectAccepted(IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 300, feed: 300))))
        expectRefused(IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 1200, feed: 1200))))
        expectRefused(IPPAttribute("printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 300))))
        expectRefused(
            IPPAttribute(
                "printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 600, units: .dotsPerCentimeter))))
    }

    @Test func mediaColWithAnExactSupportedSizeIsAccepted() {
        expectAccepted(mediaCol(mediaSize(21000, 29700)))
        expectAccepted(mediaCol(mediaSize(21590, 27940), IPPAttribute("media-source", .keyword("main"))))
    }

    @Test func mediaColSizeWithinTheToleranceIsAcceptedAndJustOutsideRefused() {
        let tolerance = JobTicketValidator.mediaSizeTolerance
        expectAccepted(mediaCol(mediaSize(21000 + tolerance, 29700 - tolerance)))
        expectRefused(mediaCol(mediaSize(21000 + tolerance + 1, 29700)))
        expectRefused(mediaCol(mediaSize(21000, 29700 - tolerance - 1)))
    }

    @Test func mediaColSizeOfAnUnsupportedPaperIsRefused() {
        expectRefused(mediaCol(mediaSize(29700, 42000)))
    }

    @Test func mediaSizeNeedsExactlyBothDimensions() {
        let onlyX = IPPAttribute("media-size", .collection([IPPAttribute("x-dimension", .integer(21000))]))
        expectRefused(mediaCol(onlyX))
        var extra = mediaSize(21000, 29700)
        extra.values = [.collection(extra.values[0].collectionValue! + [IPPAttribute("z-dimension", .integer(1))])]
        expectRefused(mediaCol(extra))
    }

    @Test func mediaColMemberNotInMediaColSupportedIsRefused() {
        expectRefused(mediaCol(mediaSize(21000, 29700), IPPAttribute("media-color", .keyword("blue"))))
    }

    @Test func mediaColMemberWithAnUnsupportedValueIsRefused() {
        expectRefused(mediaCol(mediaSize(21000, 29700), IPPAttribute("media-source", .keyword("tray-9"))))
        expectRefused(mediaCol(IPPAttribute("media-type", .keyword("photographic-glossy"))))
        expectAccepted(mediaCol(IPPAttribute("media-type", .keyword("cardstock"))))
    }

    @Test func emptyMediaColIsRefused() {
        expectRefused(IPPAttribute("media-col", .collection([])))
    }

    @Test func pageRangesStartingAtOneOrLaterAreAccepted() {
        expectAccepted(IPPAttribute("page-ranges", .rangeOfInteger(1...3)))
        expectAccepted(IPPAttribute(name: "page-ranges", values: [.rangeOfInteger(1...2), .rangeOfInteger(5...9)]))
    }

    @Test func pageRangesStartingBeforePageOneAreRefused() {
        expectRefused(IPPAttribute("page-ranges", .rangeOfInteger(0...3)))
        expectRefused(IPPAttribute(name: "page-ranges", values: [.rangeOfInteger(1...2), .rangeOfInteger(-1...9)]))
    }

    @Test func multipleValuesAreRefusedForSingleValuedAttributes() {
        expectRefused(IPPAttribute(name: "sides", values: [.keyword("one-sided"), .keyword("two-sided-long-edge")]))
        expectRefused(IPPAttribute(name: "copies", values: [.integer(1), .integer(2)]))
    }

    @Test func multipleValuesAreAcceptedForOneSetOfAttributes() {
        #expect(JobTicketValidator.multiValued.contains("finishings"))
        expectAccepted(IPPAttribute(name: "finishings", values: [.enumValue(3), .enumValue(3)]))
    }

    @Test func anAttributeWithoutValuesIsRefused() {
        expectRefused(IPPAttribute(name: "sides", values: []))
    }

    @Test func aRepeatedAttributeIsKeptOnceAndTheRepeatReported() {
        let first = IPPAttribute("copies", .integer(2))
        let second = IPPAttribute("copies", .integer(3))
        let result = validate([first, second])
        #expect(result.accepted == [first])
        #expect(result.unsupported == [second])
    }

    @Test func acceptedAndRefusedAttributesAreSortedOutTogether() {
        let good = [
            IPPAttribute("copies", .integer(2)), IPPAttribute("sides", .keyword("two-sided-short-edge")),
            IPPAttribute("print-scaling", .keyword("fit")),
        ]
        let bad = IPPAttribute("print-scaling-x", .keyword("fit"))
        let result = validate(good + [bad])
        #expect(result.accepted == good)
        #expect(result.unsupported.map(\.name) == ["print-scaling-x"])
    }
}
