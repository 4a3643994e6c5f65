import IPP
import Testing

/// Every limit of `IPPLimits`, crossed by one byte or one value (RFC 8010 section 3.1.5, RFC 8011 section 5.1).
struct IPPLimitsTests {
    private let group = WireBytes().tag(.operationAttributes)

    /// A message with one attribute named "x" whose value has `length` bytes.
    private func single(_ tag: IPPTag, length: Int) -> [UInt8] {
        group.value(tag, "x", [UInt8](repeating: 0x61, count: length)).ended
    }

    /// Offset of the value-length field of the attribute `single` writes (header, group, tag, name).
    private let valueLengthOffset = 8 + 1 + 1 + 2 + 1

    @Test(arguments: [
        (IPPTag.textWithoutLanguage, 1023), (.uri, 1023), (.octetString, 1023),
        (.nameWithoutLanguage, 255), (.keyword, 255), (.mimeMediaType, 255),
        (.charset, 63), (.naturalLanguage, 63), (.uriScheme, 63),
        (IPPTag(rawValue: 0x38), 32767), (.extension, 32767),
    ])
    func valueAtItsSyntaxLimitPassesAndOneMoreByteFails(tag: IPPTag, limit: Int) {
        #expect(IPPLimits.maximumLength(of: tag) == limit)
        #expect(decodingError(single(tag, length: limit)) == nil)
        #expect(
            decodingError(single(tag, length: limit + 1))
                == .valueTooLong(tag: tag, length: limit + 1, limit: limit, offset: valueLengthOffset))
    }

    @Test func namedLimitsHaveTheirRFCValues() {
        #expect(IPPLimits.maximumValueLength == 32767)
        #expect(IPPLimits.maximumTextLength == 1023)
        #expect(IPPLimits.maximumNameLength == 255)
        #expect(IPPLimits.maximumShortStringLength == 63)
        #expect(IPPLimits.maximumCollectionDepth == 10)
    }

    @Test func attributeNameOf255BytesPassesAnd256Fails() {
        let ok = group.value(.integer, String(repeating: "n", count: 255), be32(1)).ended
        let long = group.value(.integer, String(repeating: "n", count: 256), be32(1)).ended
        #expect(decodingError(ok) == nil)
        #expect(decodingError(long) == .nameTooLong(length: 256, offset: 10))
    }

    @Test func memberNameOf255BytesPassesAnd256Fails() {
        func collection(memberNameLength: Int) -> [UInt8] {
            group.beginCollection("c").member(String(repeating: "m", count: memberNameLength))
                .value(.integer, "", be32(1)).endCollection().ended
        }
        #expect(decodingError(collection(memberNameLength: 255)) == nil)
        #expect(
            decodingError(collection(memberNameLength: 256))
                == .valueTooLong(tag: .memberAttributeName, length: 256, limit: 255, offset: 18))
    }

    /// A textWithLanguage or nameWithLanguage value with the given language and text lengths.
    private func withLanguage(_ tag: IPPTag, languageLength: Int, textLength: Int) -> [UInt8] {
        let value =
            [UInt8(languageLength >> 8), UInt8(languageLength & 0xFF)] + [UInt8](repeating: 0x65, count: languageLength)
            + [UInt8(textLength >> 8), UInt8(textLength & 0xFF)] + [UInt8](repeating: 0x74, count: textLength)
        return group.value(tag, "x", value).ended
    }

    @Test(arguments: [(IPPTag.textWithLanguage, 1023), (.nameWithLanguage, 255)])
    func withLanguageTextAtItsLimitPassesAndOneMoreFails(tag: IPPTag, limit: Int) {
        #expect(decodingError(withLanguage(tag, languageLength: 63, textLength: limit)) == nil)
        #expect(
            decodingError(withLanguage(tag, languageLength: 2, textLength: limit + 1))
                == .valueTooLong(tag: tag, length: limit + 1, limit: limit, offset: valueLengthOffset + 2))
    }

    @Test(arguments: [IPPTag.textWithLanguage, .nameWithLanguage])
    func withLanguageLanguageOf64BytesFails(tag: IPPTag) {
        #expect(
            decodingError(withLanguage(tag, languageLength: 64, textLength: 1))
                == .badLanguageValue(tag: tag, offset: valueLengthOffset + 2))
    }

    /// A collection attribute with `depth` collections, each the only member of the one outside it.
    private func nested(depth: Int) -> [UInt8] {
        var bytes = group.beginCollection("c")
        for _ in 1..<depth {
            bytes = bytes.member("inner").beginCollection()
        }
        bytes = bytes.member("leaf").value(.integer, "", be32(1))
        for _ in 0..<depth {
            bytes = bytes.endCollection()
        }
        return bytes.ended
    }

    @Test func collectionsNestedTenDeepPassAndElevenFail() throws {
        let message = try #require(decoded(nested(depth: 10)))
        var value = message.attribute("c", in: .operationAttributes)?.value
        var depth = 0
        while let members = value?.collectionValue {
            depth += 1
            value = members.first?.value
        }
        #expect(depth == 10)
        #expect(value == .integer(1))
        guard case .collectionTooDeep = decodingError(nested(depth: 11)) else {
            Issue.record("eleven nested collections were not refused as too deep")
            return
        }
    }

    @Test(arguments: [
        (IPPTag.integer, 4), (.enum, 4), (.boolean, 1), (.dateTime, 11), (.resolution, 9), (.rangeOfInteger, 8),
    ])
    func fixedSizeValueOfOneByteLessOrMoreFails(tag: IPPTag, size: Int) {
        #expect(decodingError(single(tag, length: size)) == nil)
        for wrong in [size - 1, size + 1] {
            #expect(
                decodingError(single(tag, length: wrong))
                    == .badValueLength(tag: tag, expected: size, got: wrong, offset: valueLengthOffset))
        }
    }

    @Test func valueCountAtTheLimitPassesAndOneMoreFails() {
        let limits = IPPLimits(maximumValueCount: 4)
        // A collection counts as one value and each member value as one more.
        let four = group.value(.integer, "a", be32(1)).value(.integer, "", be32(2))
            .beginCollection("c").member("m").value(.integer, "", be32(3))
        #expect(decodingError(four.endCollection().ended, limits: limits) == nil)
        let five = four.value(.integer, "", be32(4)).endCollection()
        #expect(decodingError(five.ended, limits: limits) == .tooManyValues(limit: 4, offset: five.bytes.count - 14))
    }

    @Test func defaultValueCountLimitIsCrossedByOneMoreValue() {
        var bytes = WireBytes().tag(.operationAttributes).value(.integer, "a", be32(0)).bytes
        let extra: [UInt8] = [IPPTag.integer.rawValue, 0, 0, 0, 4, 0, 0, 0, 1]
        bytes.reserveCapacity(bytes.count + extra.count * 100_000)
        for _ in 1..<IPPLimits.default.maximumValueCount {
            bytes += extra
        }
        #expect(decodingError(bytes + [0x03]) == nil)
        let over = bytes.count
        #expect(decodingError(bytes + extra + [0x03]) == .tooManyValues(limit: 100_000, offset: over))
    }

    @Test func messageOfExactlyTheByteLimitPassesAndOneByteMoreFails() {
        let bytes = group.value(.keyword, "sides", "one-sided").ended
        #expect(decodingError(bytes, limits: IPPLimits(maximumMessageBytes: bytes.count)) == nil)
        #expect(
            decodingError(bytes, limits: IPPLimits(maximumMessageBytes: bytes.count - 1))
                == .messageTooLarge(limit: bytes.count - 1))
    }

    @Test func documentDataDoesNotCountTowardsTheByteLimit() {
        let bytes = group.value(.keyword, "sides", "one-sided").ended
        let withData = bytes + [UInt8](repeating: 0x25, count: 10_000)
        #expect(decodingError(withData, limits: IPPLimits(maximumMessageBytes: bytes.count)) == nil)
    }

    @Test func truncatedValueThatWouldCrossTheByteLimitIsTooLargeRatherThanTruncated() {
        let bytes = group.value(.textWithoutLanguage, name: Array("t".utf8), value: [0x61], declaredLength: 1000).bytes
        #expect(decodingError(bytes) == .truncated(offset: bytes.count))
        #expect(decodingError(bytes, limits: IPPLimits(maximumMessageBytes: 100)) == .messageTooLarge(limit: 100))
    }

    @Test func defaultByteLimitOfOneMebibyteIsCrossed() {
        let text = [UInt8](repeating: 0x61, count: 1000)
        var bytes = group.value(.textWithoutLanguage, "t", text).bytes
        let extra = WireBytes(raw: []).value(.textWithoutLanguage, "", text).bytes
        while bytes.count <= IPPLimits.default.maximumMessageBytes {
            bytes += extra
        }
        #expect(IPPLimits.default.maximumMessageBytes == 1 << 20)
        #expect(decodingError(bytes + [0x03]) == .messageTooLarge(limit: 1 << 20))
    }
}
