import IPP
import Testing

/// Names of operations, status codes, tags and enum values, with hex for codes nobody registered.
struct IPPCodeNameTests {
    @Test func knownOperationsUseTheirStandardNames() {
        #expect(IPPOperation.printJob.description == "Print-Job")
        #expect(IPPOperation.getPrinterAttributes.description == "Get-Printer-Attributes")
        #expect(IPPOperation.validateDocument.description == "Validate-Document")
    }

    @Test(
        arguments: [(0x4001, "0x4001"), (0x0000, "0x0000"), (0x00AB, "0x00ab"), (0xFFFF, "0xffff")]
            as [(UInt16, String)])
    func unknownOperationIsFourHexDigits(code: UInt16, text: String) {
        #expect(IPPOperation(rawValue: code).description == text)
    }

    @Test func knownStatusesUseTheirKeywords() {
        #expect(IPPStatus.successfulOK.description == "successful-ok")
        #expect(IPPStatus.clientErrorNotFound.description == "client-error-not-found")
        #expect(
            IPPStatus.serverErrorMultipleDocumentJobsNotSupported.description
                == "server-error-multiple-document-jobs-not-supported")
    }

    @Test(arguments: [(0x0403 + 0x1000, "0x1403"), (0x0003, "0x0003"), (0x04FF, "0x04ff")] as [(UInt16, String)])
    func unknownStatusIsFourHexDigits(code: UInt16, text: String) {
        #expect(IPPStatus(rawValue: code).description == text)
    }

    @Test func statusKeywordsAndCodesMapBothWays() {
        #expect(IPPStatus(keyword: "client-error-bad-request") == .clientErrorBadRequest)
        #expect(IPPStatus(keyword: "server-error-busy")?.rawValue == 0x0507)
        #expect(IPPStatus(keyword: "client-error-made-up") == nil)
        #expect(IPPStatus(keyword: "0x0400") == nil)
    }

    @Test func successIsTheRangeBelow0x0100() {
        #expect(IPPStatus.successfulOKEventsComplete.isSuccess)
        #expect(IPPStatus(rawValue: 0x00FF).isSuccess)
        #expect(!IPPStatus(rawValue: 0x0100).isSuccess)
        #expect(!IPPStatus.clientErrorBadRequest.isSuccess)
    }

    @Test func messageReadsItsCodeAsOperationOrStatus() {
        let message = IPPMessage(version: .v2_0, code: 0x000B, requestID: 1)
        #expect(message.operation == .getPrinterAttributes)
        #expect(message.status.description == "0x000b")
    }

    @Test func tagsUseRFCNamesAndHexOtherwise() {
        #expect(IPPTag.beginCollection.description == "collection")
        #expect(IPPTag.memberAttributeName.description == "memberAttrName")
        #expect(IPPTag.printerAttributes.description == "printer-attributes-tag")
        #expect(IPPTag(rawValue: 0x38).description == "0x38")
    }

    @Test func tagClassesFollowRFC8010() {
        #expect(IPPTag(rawValue: 0x00).isDelimiter && !IPPTag(rawValue: 0x00).isGroup)
        #expect(IPPTag.endOfAttributes.isDelimiter && !IPPTag.endOfAttributes.isGroup)
        #expect(IPPTag(rawValue: 0x0F).isGroup)
        #expect(!IPPTag.unsupported.isDelimiter && IPPTag.unsupported.isOutOfBand)
        #expect(IPPTag(rawValue: 0x1F).isOutOfBand && !IPPTag.integer.isOutOfBand)
    }

    @Test func versionPrintsMajorDotMinor() {
        #expect(IPPVersion.v2_0.description == "2.0")
        #expect(IPPVersion(major: 1, minor: 1) == .v1_1)
    }

    @Test(arguments: [
        "orientation-requested", "orientation-requested-default", "orientation-requested-supported",
        "orientation-requested-actual",
    ])
    func enumNamesIgnoreTheDefaultSupportedAndActualSuffixes(attribute: String) {
        #expect(IPPEnumNames.keyword(attribute: attribute, value: 4) == "landscape")
        #expect(IPPEnumNames.value(attribute: attribute, keyword: "reverse-portrait") == 6)
        #expect(IPPEnumNames.hasNames(attribute: attribute))
    }

    @Test func enumNamesOfReadyAttributesShareTheBaseNames() {
        #expect(IPPEnumNames.keyword(attribute: "finishings-ready", value: 4) == "staple")
        #expect(IPPEnumNames.keyword(attribute: "print-quality-supported", value: 5) == "high")
    }

    @Test func enumNamesOfStatesAndOperations() {
        #expect(IPPEnumNames.keyword(attribute: "printer-state", value: 3) == "idle")
        #expect(IPPEnumNames.keyword(attribute: "job-state", value: 9) == "completed")
        #expect(IPPEnumNames.keyword(attribute: "document-state", value: 7) == "canceled")
        #expect(IPPEnumNames.keyword(attribute: "operations-supported", value: 0x0B) == "Get-Printer-Attributes")
        #expect(IPPEnumNames.value(attribute: "operations-supported", keyword: "Print-Job") == 2)
    }

    @Test func enumNamesOfUnknownValuesAndAttributesAreNil() {
        #expect(IPPEnumNames.keyword(attribute: "orientation-requested", value: 99) == nil)
        #expect(IPPEnumNames.keyword(attribute: "operations-supported", value: 0x0001) == nil)
        #expect(IPPEnumNames.value(attribute: "print-quality", keyword: "best") == nil)
        #expect(!IPPEnumNames.hasNames(attribute: "printer-state-reasons"))
        #expect(!IPPEnumNames.hasNames(attribute: "copies-default"))
        #expect(IPPEnumNames.keyword(attribute: "-default", value: 3) == nil)
    }

    @Test func onlyOneSuffixIsRemoved() {
        #expect(!IPPEnumNames.hasNames(attribute: "print-quality-default-supported"))
    }
}
