import Foundation
import IPP
import Testing

/// A message captured from a CUPS tool (see Fixtures/README.md), read from the Fixtures folder beside this file.
struct WireCapture {
    let name: String
    let bytes: [UInt8]
    /// The document data the capture carries after end-of-attributes.
    let documentData: [UInt8]

    /// The header and attribute groups, without the document data.
    var attributeBytes: [UInt8] { Array(bytes.dropLast(documentData.count)) }

    init(_ name: String, documentData: String = "") {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        self.name = name
        self.bytes = (try? Data(contentsOf: folder.appendingPathComponent(name))).map { Array($0) } ?? []
        self.documentData = Array(documentData.utf8)
    }

    static let getPrinterAttributesRequest = WireCapture("get-printer-attributes-request-ipptool.bin")
    static let printJobRequest = WireCapture("print-job-request-ipptool.bin", documentData: "Hello from ipptool\n")
    static let getPrinterAttributesResponse = WireCapture("get-printer-attributes-response-ippeveprinter.bin")
    static let printJobUnsupportedResponse = WireCapture("print-job-response-ippeveprinter-unsupported.bin")

    static let all = [
        getPrinterAttributesRequest, printJobRequest, getPrinterAttributesResponse, printJobUnsupportedResponse,
    ]
}

/// The decoder against messages CUPS's own encoder wrote: `ipptool` requests and `ippeveprinter` responses.
struct IPPWireCaptureTests {
    private func decode(_ capture: WireCapture) throws -> (message: IPPMessage, dataOffset: Int) {
        try #require(!capture.bytes.isEmpty, "fixture \(capture.name) is missing")
        return try IPPDecoder().decode(capture.bytes)
    }

    @Test(arguments: WireCapture.all.map(\.name))
    func captureDecodesAndReEncodesToTheSameBytes(name: String) throws {
        let capture = try #require(WireCapture.all.first { $0.name == name })
        let (message, dataOffset) = try decode(capture)
        #expect(dataOffset == capture.attributeBytes.count)
        #expect(IPPEncoder.encode(message) == capture.attributeBytes)
    }

    @Test func ipptoolPrintJobCarriesEverySyntaxAndTheDocument() throws {
        let capture = WireCapture.printJobRequest
        let (message, dataOffset) = try decode(capture)
        #expect(message.version == .v2_0)
        #expect(message.operation == .printJob)
        #expect(Array(capture.bytes[dataOffset...]) == Array("Hello from ipptool\n".utf8))

        let operation = try #require(message[group: .operationAttributes])
        #expect(operation.attributes.prefix(2).map(\.name) == ["attributes-charset", "attributes-natural-language"])
        #expect(operation["job-name"]?.value == .name("Ünïcode job"))
        #expect(operation["document-format"]?.value == .mimeMediaType("text/plain"))
        #expect(operation["ipp-attribute-fidelity"]?.value == .boolean(true))
        #expect(operation["document-uri-scheme"]?.value == .uriScheme("ipp"))

        let job = try #require(message[group: .jobAttributes])
        #expect(job["copies"]?.value == .integer(2))
        #expect(job["orientation-requested"]?.value == .enumValue(4))
        #expect(job["page-ranges"]?.values == [.rangeOfInteger(1...3), .rangeOfInteger(5...5)])
        #expect(job["printer-resolution"]?.value == .resolution(IPPResolution(crossFeed: 600, feed: 300)))
        #expect(job["job-password"]?.value == .octetString(Array("secret".utf8)))
        #expect(job["job-message-to-operator"]?.value == .text("Hello, operator"))
        #expect(job["job-sheets-col"]?.value == .outOfBand(.noValue))
        #expect(job["finishings-keywords"]?.values == [.keyword("staple"), .keyword("punch")])
        let mediaCol = try #require(job["media-col"])
        #expect(mediaCol.member("media-source")?.value == .keyword("main"))
        let size = mediaCol.member("media-size")?.value?.collectionValue
        #expect(size == [IPPAttribute("x-dimension", .integer(21000)), IPPAttribute("y-dimension", .integer(29700))])
        #expect(mediaCol.member("media-top-margin")?.value == .integer(0))
    }

    @Test func ipptoolGetPrinterAttributesAsksForTwentyOneAttributes() throws {
        let message = try decode(WireCapture.getPrinterAttributesRequest).message
        #expect(message.operation == .getPrinterAttributes)
        let requested = message.attribute("requested-attributes", in: .operationAttributes)
        #expect(requested?.values.count == 21)
        #expect(requested?.values.first == .keyword("media-col-default"))
        #expect(requested?.values.allSatisfy { $0.tag == .keyword } == true)
    }

    @Test func ippeveprinterResponseHasMediaColDefaultAsTheDigestShows() throws {
        let capture = WireCapture.getPrinterAttributesResponse
        let message = try decode(capture).message
        #expect(message.status == .successfulOK)
        // The digest's example is the start of this attribute's bytes, up to media-size's endCollection.
        let digestPrefix = IPPEncoderTests.mediaColDefaultBytes.dropLast(5)
        #expect(capture.bytes.firstRange(of: digestPrefix) != nil)

        let printer = try #require(message[group: .printerAttributes])
        let mediaCol = try #require(printer["media-col-default"])
        #expect(mediaCol.member("media-size") == IPPEncoderTests.mediaColDefault.member("media-size"))
        #expect(mediaCol.member("media-bottom-margin")?.value == .integer(1168))
        #expect(printer["media-col-ready"]?.values.count == 2)
        #expect(printer["copies-supported"]?.value == .rangeOfInteger(1...999))
        #expect(printer["print-quality-supported"]?.values == [.enumValue(3), .enumValue(4), .enumValue(5)])
        #expect(printer["printer-geo-location"]?.value == .outOfBand(.unknown))
        #expect(printer["printer-is-accepting-jobs"]?.value == .boolean(true))
        #expect(printer["printer-name"]?.value == .name("Fixture Printer"))
        #expect(printer["printer-resolution-supported"]?.value == .resolution(IPPResolution(crossFeed: 600, feed: 600)))
        #expect(printer["printer-input-tray"]?.values.allSatisfy { $0.tag == .octetString } == true)
        #expect(printer["operations-supported"]?.values.contains(.enumValue(0x0B)) == true)
        guard case .dateTime(let time) = printer["printer-current-time"]?.value else {
            Issue.record("printer-current-time is not a dateTime")
            return
        }
        #expect(time.year == 2026 && time.utcDirection == UInt8(ascii: "+"))
    }

    @Test func ippeveprinterRefusalListsTheUnsupportedValue() throws {
        let message = try decode(WireCapture.printJobUnsupportedResponse).message
        #expect(message.status == .clientErrorAttributesOrValuesNotSupported)
        #expect(message.groups.map(\.tag) == [.operationAttributes, .unsupportedAttributes])
        #expect(
            message.attribute("status-message", in: .operationAttributes)?.value
                == .text("Unsupported printer-resolution resolution value."))
        #expect(
            message.attribute("printer-resolution", in: .unsupportedAttributes)?.value
                == .resolution(IPPResolution(crossFeed: 600, feed: 300)))
    }

    @Test func responseRequestIDEchoesTheRequest() throws {
        let request = try decode(WireCapture.printJobRequest).message
        let response = try decode(WireCapture.printJobUnsupportedResponse).message
        #expect(response.requestID == request.requestID)
    }
}
