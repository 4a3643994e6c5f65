import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// IPPRequestValidator: the common checks of RFC 8011 sections 4.1.1, 4.1.4, 4.1.8 and 4.2.
@Suite struct IPPRequestValidatorTests {
    func failure(_ message: IPPMessage) -> IPPResponseError? {
        if case .failure(let error) = IPPRequestValidator.validate(message) { return error }
        return nil
    }

    func validTarget(_ message: IPPMessage) -> IPPRequestValidator.Target? {
        try? IPPRequestValidator.validate(message).get()
    }

    @Test func aWellFormedRequestNamesItsPrinterPath() throws {
        let target = try #require(
            validTarget(ippRequest(.getPrinterAttributes, printerURI: "ipp://host:631/ipp/print")))
        #expect(target.printerPath == "/ipp/print")
        #expect(target.printerURI == "ipp://host:631/ipp/print")
        #expect(target.jobID == nil)
    }

    /// A uri value that is no URI (RFC 8010 section 3.9: RFC 3986's syntax) is refused before any operation, in
    /// any group and inside a collection: issue 40's document-uri that smuggled a DELETE into the fetch.
    @Test func aURIValueWithAControlCharacterOrSpaceIsABadRequest() throws {
        let smuggled = "http://127.0.0.1:8631/livez HTTP/1.1\r\nHost: x\r\n\r\nDELETE /api/v1/jobs"
        let printURI = ippRequest(.printURI, [IPPAttribute("document-uri", .uri(smuggled))])
        let refused = try #require(failure(printURI))
        #expect(refused.status == .clientErrorBadRequest)
        #expect(refused.message.contains("document-uri is not a URI: byte 28 is a space"))
        #expect(failure(ippRequest(.getPrinterAttributes, printerURI: "ipp://host/ipp/print\n")) != nil)
        var subscription = ippRequest(.createPrinterSubscriptions)
        subscription.groups.append(
            IPPAttributeGroup(
                tag: .subscriptionAttributes,
                attributes: [IPPAttribute("notify-recipient-uri", .uri("ippget://x/\u{7F}"))]))
        #expect(failure(subscription)?.status == .clientErrorBadRequest)
        let nested = ippRequest(
            .printJob, job: [IPPAttribute("media-col", .collection([IPPAttribute("x-uri", .uri("http://a b/"))]))])
        #expect(failure(nested)?.status == .clientErrorBadRequest)
        #expect(failure(ippRequest(.printURI, [IPPAttribute("document-uri", .uri("http://h/a%20b.pdf"))])) == nil)
    }

    @Test(arguments: [IPPVersion.v1_0, .v1_1, .v2_0, .v2_1, .v2_2])
    func versionsOneAndTwoAreAccepted(version: IPPVersion) {
        var message = ippRequest(.getPrinterAttributes)
        message.version = version
        #expect(validTarget(message) != nil)
    }

    @Test(arguments: [IPPVersion(major: 0, minor: 9), IPPVersion(major: 3, minor: 0)])
    func otherVersionsAreNotSupported(version: IPPVersion) {
        var message = ippRequest(.getPrinterAttributes)
        message.version = version
        #expect(failure(message)?.status == .serverErrorVersionNotSupported)
    }

    @Test(arguments: [Int32(0), -1])
    func requestIDMustBePositive(requestID: Int32) {
        #expect(failure(ippRequest(.getPrinterAttributes, requestID: requestID))?.status == .clientErrorBadRequest)
    }

    @Test func charsetMustComeFirstAndLanguageSecond() {
        var swapped = ippRequest(.getPrinterAttributes)
        swapped.groups[0].attributes.swapAt(0, 1)
        #expect(failure(swapped)?.status == .clientErrorBadRequest)

        var missingLanguage = ippRequest(.getPrinterAttributes, printerURI: nil)
        missingLanguage.groups[0].attributes.remove(at: 1)
        #expect(failure(missingLanguage)?.status == .clientErrorBadRequest)

        var wrongSyntax = ippRequest(.getPrinterAttributes)
        wrongSyntax.groups[0].attributes[0] = IPPAttribute("attributes-charset", .keyword("utf-8"))
        #expect(failure(wrongSyntax)?.status == .clientErrorBadRequest)

        var twoCharsets = ippRequest(.getPrinterAttributes)
        twoCharsets.groups[0].attributes[0].values.append(.charset("us-ascii"))
        #expect(failure(twoCharsets)?.status == .clientErrorBadRequest)
    }

    @Test func theFirstGroupMustBeOperationAttributes() {
        var message = ippRequest(.getPrinterAttributes)
        message.groups[0].tag = .jobAttributes
        #expect(failure(message)?.status == .clientErrorBadRequest)
        #expect(failure(IPPMessage(operation: .getPrinterAttributes, requestID: 1))?.status == .clientErrorBadRequest)
    }

    @Test func groupsOutOfOrderAreABadRequest() {
        var message = ippRequest(.printJob, job: [IPPAttribute("copies", .integer(1))])
        message.groups.append(IPPAttributeGroup(tag: .operationAttributes))
        #expect(failure(message)?.status == .clientErrorBadRequest)
        #expect(failure(message)?.message.contains("order") == true)
    }

    @Test func anUnsupportedCharsetIsReportedInTheUnsupportedGroup() throws {
        var message = ippRequest(.getPrinterAttributes)
        message.groups[0].attributes[0] = IPPAttribute("attributes-charset", .charset("iso-8859-1"))
        let error = try #require(failure(message))
        #expect(error.status == .clientErrorCharsetNotSupported)
        #expect(error.unsupported == [IPPAttribute("attributes-charset", .charset("iso-8859-1"))])
        let encoded = error.response.encode(version: .v2_0, requestID: 9)
        let decoded = try IPPDecoder().decode(encoded).message
        #expect(decoded.status == .clientErrorCharsetNotSupported)
        #expect(decoded.requestID == 9)
        #expect(decoded.attribute("attributes-charset", in: .unsupportedAttributes)?.value == .charset("iso-8859-1"))
    }

    @Test func charsetNamesCompareWithoutCase() {
        var message = ippRequest(.getPrinterAttributes)
        message.groups[0].attributes[0] = IPPAttribute("attributes-charset", .charset("UTF-8"))
        #expect(validTarget(message) != nil)
    }

    @Test func aRequestWithoutTargetIsABadRequest() {
        #expect(failure(ippRequest(.getPrinterAttributes, printerURI: nil))?.status == .clientErrorBadRequest)
    }

    @Test(arguments: ["printer", "ftp://host/ipp/print", "mailto:someone"])
    func aPrinterURIThatIsNotAnIPPOrHTTPURIIsABadRequest(uri: String) {
        #expect(failure(ippRequest(.getPrinterAttributes, printerURI: uri))?.status == .clientErrorBadRequest)
    }

    @Test func printerURIPathDropsQueryAndDecodesPercentEscapes() throws {
        let target = try #require(
            validTarget(ippRequest(.getPrinterAttributes, printerURI: "ipps://h/ipp/print%2Fx?y=1")))
        #expect(target.printerPath == "/ipp/print/x")
        #expect(IPPRequestValidator.path(of: "http://host:8631") == "/")
        #expect(IPPRequestValidator.path(of: "ipp://h/a%zz") == "/a%zz")
    }

    @Test func jobURIGivesThePrinterAndTheJobID() throws {
        let message = ippRequest(
            .getJobAttributes, printerURI: nil, [IPPAttribute("job-uri", .uri("ipp://host:631/ipp/print/12"))])
        let target = try #require(validTarget(message))
        #expect(target.jobID == 12)
        #expect(target.printerPath == "/ipp/print")
        #expect(target.printerURI == "ipp://host:631/ipp/print")
    }

    @Test(arguments: ["ipp://host/ipp/print", "ipp://host/ipp/print/0", "ipp://host/ipp/print/x1", "job/3"])
    func aJobURIWithoutAPositiveJobNumberIsABadRequest(uri: String) {
        let message = ippRequest(.getJobAttributes, printerURI: nil, [IPPAttribute("job-uri", .uri(uri))])
        #expect(failure(message)?.status == .clientErrorBadRequest)
    }

    @Test func jobIDWithPrinterURIIsTheTarget() throws {
        let message = ippRequest(.cancelJob, [IPPAttribute("job-id", .integer(5))])
        #expect(validTarget(message)?.jobID == 5)
        let zero = ippRequest(.cancelJob, [IPPAttribute("job-id", .integer(0))])
        #expect(failure(zero)?.status == .clientErrorBadRequest)
        let text = ippRequest(.cancelJob, [IPPAttribute("job-id", .keyword("5"))])
        #expect(failure(text)?.status == .clientErrorBadRequest)
    }
}
