import IPP
import Testing

/// What `IPPDecoder` accepts and what it refuses, with the offset it names (RFC 8010 section 3).
struct IPPDecoderTests {
    private let job = WireBytes().tag(.operationAttributes)

    @Test func documentDataAfterEndOfAttributesIsLeftToTheCaller() throws {
        let bytes = job.value(.integer, "copies", be32(2)).ended + Array("%PDF-1.7".utf8)
        let (message, dataOffset) = try IPPDecoder().decode(bytes)
        #expect(dataOffset == bytes.count - 8)
        #expect(Array(bytes[dataOffset...]) == Array("%PDF-1.7".utf8))
        #expect(message.attribute("copies", in: .operationAttributes)?.value == .integer(2))
    }

    @Test func headerFieldsAreReadBigEndian() throws {
        let bytes = WireBytes(code: 0x0406, requestID: 0x8000_0001).ended
        let message = try IPPDecoder().decode(bytes).message
        #expect(message.version == .v2_0)
        #expect(message.status == .clientErrorNotFound)
        #expect(message.requestID == Int32(bitPattern: 0x8000_0001))
        #expect(message.groups.isEmpty)
    }

    @Test func valuesWithEmptyNamesJoinThePreviousAttribute() throws {
        let bytes = job.value(.keyword, "sides", "one-sided").value(.keyword, "", "two-sided-long-edge")
            .value(.integer, "copies", be32(1)).ended
        let group = try #require(try IPPDecoder().decode(bytes).message[group: .operationAttributes])
        #expect(group.attributes.map(\.name) == ["sides", "copies"])
        #expect(group["sides"]?.values == [.keyword("one-sided"), .keyword("two-sided-long-edge")])
    }

    @Test func reversedRangeIsKeptAsRawBytesForTheCallerToRefuse() throws {
        let raw = be32(5) + be32(1)
        let message = try IPPDecoder().decode(job.value(.rangeOfInteger, "page-ranges", raw).ended).message
        #expect(
            message.attribute("page-ranges", in: .operationAttributes)?.value
                == .other(tag: .rangeOfInteger, bytes: raw))
    }

    @Test func anyNonZeroBooleanByteIsTrue() throws {
        let message = try IPPDecoder().decode(job.value(.boolean, "b", [0x02]).value(.boolean, "c", [0]).ended).message
        #expect(message.attribute("b", in: .operationAttributes)?.value == .boolean(true))
        #expect(message.attribute("c", in: .operationAttributes)?.value == .boolean(false))
    }

    @Test func outOfBandValueBytesAreIgnored() throws {
        let message = try IPPDecoder().decode(job.value(.unknown, "geo", [1, 2, 3]).ended).message
        #expect(message.attribute("geo", in: .operationAttributes)?.value == .outOfBand(.unknown))
    }

    @Test func invalidUTF8TextDecodesWithReplacementCharacters() throws {
        let message = try IPPDecoder().decode(job.value(.textWithoutLanguage, "t", [0x41, 0xFF]).ended).message
        #expect(message.attribute("t", in: .operationAttributes)?.value == .text("A\u{FFFD}"))
    }

    @Test func tagZeroIsInvalidWhereADelimiterOrValueIsExpected() {
        let bytes = job.tag(IPPTag(rawValue: 0x00)).ended
        #expect(decodingError(bytes) == .invalidTag(IPPTag(rawValue: 0), offset: 9))
    }

    @Test func valueBeforeAnyGroupIsRefused() {
        #expect(decodingError(WireBytes().value(.integer, "copies", be32(1)).ended) == .valueOutsideGroup(offset: 8))
    }

    @Test func additionalValueWithoutAttributeIsRefused() {
        #expect(decodingError(job.value(.integer, "", be32(1)).ended) == .additionalValueWithoutAttribute(offset: 9))
    }

    @Test func additionalValueAfterANewGroupTagIsRefused() {
        let bytes = job.value(.integer, "copies", be32(1)).tag(.jobAttributes).value(.integer, "", be32(2)).ended
        #expect(decodingError(bytes) == .additionalValueWithoutAttribute(offset: 25))
    }

    @Test func memberAttrNameOutsideACollectionIsRefused() {
        #expect(
            decodingError(job.member("x-dimension").ended)
                == .collectionTagOutsideCollection(.memberAttributeName, offset: 9))
    }

    @Test func endCollectionOutsideACollectionIsRefused() {
        #expect(decodingError(job.endCollection().ended) == .collectionTagOutsideCollection(.endCollection, offset: 9))
    }

    @Test func memberWithoutValueBeforeTheNextMemberIsRefused() {
        let bytes = job.beginCollection("media-col").member("media-size").member("media-type")
            .value(.keyword, "", "plain").endCollection().ended
        #expect(decodingError(bytes)?.isMemberValueMissing == true)
    }

    @Test func memberWithoutValueAtTheEndOfACollectionIsRefused() {
        let bytes = job.beginCollection("media-col").member("media-size").endCollection().ended
        #expect(decodingError(bytes)?.isMemberValueMissing == true)
    }

    @Test func valueBeforeAnyMemberNameIsRefused() {
        let bytes = job.beginCollection("media-col").value(.keyword, "", "plain").endCollection().ended
        #expect(decodingError(bytes)?.isMemberValueMissing == true)
    }

    @Test func emptyMemberNameIsRefused() {
        let bytes = job.beginCollection("media-col").member("").value(.keyword, "", "x").endCollection().ended
        #expect(decodingError(bytes)?.isMemberValueMissing == true)
    }

    @Test func delimiterInsideACollectionIsRefused() {
        let bytes = job.beginCollection("media-col").member("a").value(.integer, "", be32(1)).tag(.jobAttributes).ended
        #expect(decodingError(bytes) == .unterminatedCollection(offset: 38))
    }

    @Test func emptyCollectionDecodes() throws {
        let message = try IPPDecoder().decode(job.beginCollection("c").endCollection().ended).message
        #expect(message.attribute("c", in: .operationAttributes)?.value == .collection([]))
    }

    @Test(arguments: [0, 1, 2, 3] as [Int])
    func extensionShorterThanFourBytesIsRefused(length: Int) {
        let bytes = job.value(.extension, "x", [UInt8](repeating: 0, count: length)).ended
        #expect(decodingError(bytes) == .badExtensionValue(offset: 13))
    }

    @Test func extensionOfFourBytesDecodes() {
        #expect(decodingError(job.value(.extension, "x", [0, 0, 0, 0x50]).ended) == nil)
    }

    @Test(arguments: [
        [0x00, 0x02, 0x65] as [UInt8],  // shorter than the two length fields
        [0x00, 0x05, 0x65, 0x6E, 0x00, 0x00],  // language runs past the value
        [0x00, 0x02, 0x65, 0x6E, 0x00, 0x03, 0x48, 0x69],  // text shorter than its length
        [0x00, 0x02, 0x65, 0x6E, 0x00, 0x01, 0x48, 0x69],  // bytes left after the text
    ])
    func malformedWithLanguageValueIsRefused(value: [UInt8]) {
        let bytes = job.value(.textWithLanguage, "t", value).ended
        #expect(decodingError(bytes) == .badLanguageValue(tag: .textWithLanguage, offset: 15))
    }

    @Test func errorsDescribeWhatAndWhere() {
        let error = IPPDecodingError.badValueLength(tag: .integer, expected: 4, got: 3, offset: 12)
        #expect(error.description == "integer value of 3 bytes (expected 4) at byte 12")
        #expect(error.offset == 12)
        #expect(!error.isTruncation)
        #expect(IPPDecodingError.truncated(offset: 3).isTruncation)
        #expect(IPPDecodingError.messageTooLarge(limit: 99).offset == 99)
    }
}

extension IPPDecodingError {
    /// True for `memberValueMissing` at any offset.
    var isMemberValueMissing: Bool {
        if case .memberValueMissing = self { return true }
        return false
    }
}
