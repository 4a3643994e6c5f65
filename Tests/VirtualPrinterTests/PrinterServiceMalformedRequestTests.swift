import HTTPServer
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Malformed IPP bodies: always a well-formed IPP error response with the request-id echoed, never a crash.
@Suite(.timeLimit(.minutes(1))) struct PrinterServiceMalformedRequestTests {
    @Test func aBodyThatIsNotIPPIsABadRequestWithTheRequestIDEchoed() throws {
        let harness = try PrinterHarness()
        // Version 2.0, Get-Printer-Attributes, request-id 0x01020304, then a value length past the end.
        let body: [UInt8] = [0x02, 0x00, 0x00, 0x0B, 0x01, 0x02, 0x03, 0x04, 0x01, 0x47, 0x00, 0x12, 0x61]
        let response = try decodeIPP(harness.post(body))
        #expect(response.status == .clientErrorBadRequest)
        #expect(response.requestID == 0x0102_0304)
        #expect(response.version == .v2_0)
        #expect(response.attribute("attributes-charset", in: .operationAttributes)?.value == .charset("utf-8"))
        #expect(response.statusMessage?.isEmpty == false)
    }

    @Test func anEmptyBodyIsABadRequest() throws {
        let harness = try PrinterHarness()
        let response = try decodeIPP(harness.post([]))
        #expect(response.status == .clientErrorBadRequest)
        #expect(response.requestID == 0)
    }

    @Test func aRequestWithoutIPPContentTypeIsRefusedOverHTTP() throws {
        let harness = try PrinterHarness()
        let request = HTTPRequest(
            method: "POST", target: "/ipp/print", path: "/ipp/print", headers: ["Content-Type": "text/plain"],
            contentLength: 3)
        var body = HTTPRequestBody(bytes: [1, 2, 3])
        #expect(harness.service.handle(request, body: &body).status == 400)
    }

    @Test func aRequestForAnotherPathIsNotFound() throws {
        let harness = try PrinterHarness()
        let message = ippRequest(.getPrinterAttributes, requestID: 5, printerURI: "ipp://localhost/ipp/other")
        let response = try harness.send(message)
        #expect(response.status == .clientErrorNotFound)
        #expect(response.requestID == 5)
    }

    @Test func anUnknownOperationIsNotSupported() throws {
        let harness = try PrinterHarness()
        let response = try harness.send(ippRequest(IPPOperation(rawValue: 0x4001), requestID: 6))
        #expect(response.status == .serverErrorOperationNotSupported)
        #expect(response.requestID == 6)
    }

    @Test func anUnsupportedVersionIsAnsweredWithTheRequestID() throws {
        let harness = try PrinterHarness()
        var message = ippRequest(.getPrinterAttributes, requestID: 77)
        message.version = IPPVersion(major: 9, minor: 0)
        let response = try harness.send(message)
        #expect(response.status == .serverErrorVersionNotSupported)
        #expect(response.requestID == 77)
    }

    @Test func everyPrefixOfAValidRequestGetsAWellFormedErrorResponse() throws {
        let harness = try PrinterHarness()
        let message = ippRequest(
            .printJob, requestID: 1234,
            [
                IPPAttribute("requesting-user-name", .name("alice")),
                IPPAttribute("document-format", .mimeMediaType("application/pdf")),
            ],
            job: [
                IPPAttribute("copies", .integer(2)),
                IPPAttribute(
                    "media-col",
                    .collection([
                        IPPAttribute(
                            "media-size",
                            .collection([
                                IPPAttribute("x-dimension", .integer(21000)),
                                IPPAttribute("y-dimension", .integer(29700)),
                            ]))
                    ])),
            ])
        let bytes = IPPEncoder.encode(message)
        for length in 0..<bytes.count {
            let response = try decodeIPP(harness.post(Array(bytes.prefix(length))))
            #expect(response.status.rawValue >= 0x0400, "prefix \(length) of \(bytes.count) was accepted")
            if length >= 8 { #expect(response.requestID == 1234, "prefix \(length)") }
            #expect(response.groups.first?.attributes.first?.name == "attributes-charset")
        }
        #expect(harness.printer.jobs.isEmpty, "no prefix created a job")
        // The whole request, with no document bytes, is a job with an empty document.
        #expect(try decodeIPP(harness.post(bytes)).status == .successfulOK)
    }

    @Test func everyPrefixOfGetPrinterAttributesIsAnErrorAndTheWholeSucceeds() throws {
        let harness = try PrinterHarness()
        let bytes = IPPEncoder.encode(
            ippRequest(
                .getPrinterAttributes, requestID: 9,
                [
                    IPPAttribute(
                        name: "requested-attributes", values: [.keyword("printer-state"), .keyword("copies-supported")])
                ]))
        for length in 0..<bytes.count {
            let response = try decodeIPP(harness.post(Array(bytes.prefix(length))))
            #expect(response.status.rawValue >= 0x0400, "prefix \(length)")
        }
        let whole = try decodeIPP(harness.post(bytes))
        #expect(whole.status == .successfulOK)
        #expect(whole.attribute("printer-state", in: .printerAttributes)?.value == .enumValue(3))
        #expect(whole.attribute("copies-supported", in: .printerAttributes)?.value == .rangeOfInteger(1...99))
        #expect(whole.attribute("printer-name", in: .printerAttributes) == nil)
    }
}
