import IPP
import Testing

/// The exact bytes `IPPEncoder` writes (RFC 8010 section 3).
struct IPPEncoderTests {
    /// Bytes of an ASCII string.
    private func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// The media-col-default example of the IPP Everywhere digest, section 1 (captured from ippeveprinter),
    /// with its two first members.
    static let mediaColDefaultBytes: [UInt8] =
        [0x34, 0x00, 0x11] + Array("media-col-default".utf8) + [0x00, 0x00]
        + [0x4A, 0x00, 0x00, 0x00, 0x09] + Array("media-key".utf8)
        + [0x44, 0x00, 0x00, 0x00, 0x22] + Array("na_letter_8.5x11in_main_stationery".utf8)
        + [0x4A, 0x00, 0x00, 0x00, 0x0A] + Array("media-size".utf8)
        + [0x34, 0x00, 0x00, 0x00, 0x00]
        + [0x4A, 0x00, 0x00, 0x00, 0x0B] + Array("x-dimension".utf8)
        + [0x21, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x54, 0x56]
        + [0x4A, 0x00, 0x00, 0x00, 0x0B] + Array("y-dimension".utf8)
        + [0x21, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x6D, 0x24]
        + [0x37, 0x00, 0x00, 0x00, 0x00]
        + [0x37, 0x00, 0x00, 0x00, 0x00]

    static let mediaColDefault = IPPAttribute(
        "media-col-default",
        .collection([
            IPPAttribute("media-key", .keyword("na_letter_8.5x11in_main_stationery")),
            IPPAttribute(
                "media-size",
                .collection([
                    IPPAttribute("x-dimension", .integer(21590)), IPPAttribute("y-dimension", .integer(27940)),
                ])),
        ]))

    @Test func mediaColDefaultEncodesByteForByteAsTheDigestShows() {
        var bytes: [UInt8] = []
        IPPEncoder.append(Self.mediaColDefault, to: &bytes)
        #expect(bytes == Self.mediaColDefaultBytes)
    }

    @Test func mediaColDefaultBytesDecodeToTheSameCollection() throws {
        let message = WireBytes(code: 0).tag(.printerAttributes)
        let bytes = WireBytes(raw: message.bytes + Self.mediaColDefaultBytes).ended
        let decodedMessage = try IPPDecoder().decode(bytes).message
        #expect(decodedMessage.attribute("media-col-default", in: .printerAttributes) == Self.mediaColDefault)
    }

    @Test func headerIsVersionCodeAndRequestIDBigEndian() {
        let message = IPPMessage(version: .v1_1, code: 0x040B, requestID: 0x0102_0304)
        #expect(IPPEncoder.encode(message) == [0x01, 0x01, 0x04, 0x0B, 0x01, 0x02, 0x03, 0x04, 0x03])
    }

    @Test func negativeRequestIDIsWrittenAsItsBitPattern() {
        let message = IPPMessage(version: .v2_0, code: 2, requestID: -2)
        #expect(IPPEncoder.encode(message)[4..<8] == [0xFF, 0xFF, 0xFF, 0xFE])
    }

    @Test func additionalValuesRepeatTheTagWithAnEmptyName() {
        var bytes: [UInt8] = []
        IPPEncoder.append(IPPAttribute("sides", .keyword("one"), .name("x")), to: &bytes)
        let expected: [UInt8] =
            [0x44, 0x00, 0x05] + ascii("sides") + [0x00, 0x03] + ascii("one")
            + [0x42, 0x00, 0x00, 0x00, 0x01] + ascii("x")
        #expect(bytes == expected)
    }

    @Test func attributeWithoutValuesWritesNothing() {
        var bytes: [UInt8] = [0xAA]
        IPPEncoder.append(IPPAttribute(name: "empty", values: []), to: &bytes)
        #expect(bytes == [0xAA])
    }

    @Test func fixedSizeValuesHaveTheirRFCLengths() {
        func encoded(_ value: IPPValue) -> [UInt8] {
            var bytes: [UInt8] = []
            IPPEncoder.append(IPPAttribute("a", value), to: &bytes)
            return Array(bytes.dropFirst(4))  // tag, name-length, "a"
        }
        #expect(encoded(.integer(-1)) == [0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(encoded(.boolean(true)) == [0x00, 0x01, 0x01])
        #expect(encoded(.boolean(false)) == [0x00, 0x01, 0x00])
        #expect(encoded(.enumValue(3)) == [0x00, 0x04, 0x00, 0x00, 0x00, 0x03])
        #expect(
            encoded(.resolution(IPPResolution(crossFeed: 600, feed: 300)))
                == [0x00, 0x09, 0x00, 0x00, 0x02, 0x58, 0x00, 0x00, 0x01, 0x2C, 0x03])
        #expect(encoded(.rangeOfInteger(1...2)) == [0x00, 0x08, 0, 0, 0, 1, 0, 0, 0, 2])
        let date = IPPDateTime(
            year: 2026, month: 11, day: 29, hour: 17, minutes: 1, seconds: 19, deciSeconds: 5,
            utcDirection: UInt8(ascii: "-"), utcHours: 5, utcMinutes: 30)
        #expect(encoded(.dateTime(date)) == [0x00, 0x0B, 0x07, 0xEA, 11, 29, 17, 1, 19, 5, 0x2D, 5, 30])
        #expect(encoded(.outOfBand(.noValue)) == [0x00, 0x00])
    }

    @Test func withLanguageValueNestsTwoLengthPrefixedStrings() {
        var bytes: [UInt8] = []
        IPPEncoder.append(IPPAttribute("t", .textWithLanguage(language: "en", text: "Hi")), to: &bytes)
        #expect(
            bytes == [0x35, 0x00, 0x01] + ascii("t") + [0x00, 0x08, 0x00, 0x02] + ascii("en") + [0x00, 0x02]
                + ascii("Hi"))
    }

    @Test func textIsWrittenAsUTF8() {
        var bytes: [UInt8] = []
        IPPEncoder.append(IPPAttribute("t", .text("é✓")), to: &bytes)
        #expect(bytes == [0x41, 0x00, 0x01, 0x74, 0x00, 0x05, 0xC3, 0xA9, 0xE2, 0x9C, 0x93])
    }

    @Test func oversizedOctetStringIsCutToWhatItsLengthFieldCarries() {
        var bytes: [UInt8] = []
        IPPEncoder.append(IPPAttribute("o", .octetString([UInt8](repeating: 7, count: 70_000))), to: &bytes)
        #expect(bytes[4..<6] == [0xFF, 0xFF])
        #expect(bytes.count == 4 + 2 + 65_535)
    }

    @Test func appendHeaderWritesOnlyTheEightHeaderBytes() {
        var bytes: [UInt8] = []
        IPPEncoder.appendHeader(of: IPPMessage(operation: .printJob, requestID: 1, groups: []), to: &bytes)
        #expect(bytes == [0x02, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01])
    }
}
