import IPP
import Testing

/// Encoding then decoding gives back the same message, for every value syntax (RFC 8010 section 3.9).
struct IPPRoundTripTests {
    /// Encodes a message with one attribute in a job group and decodes it again.
    private func roundTrip(_ attribute: IPPAttribute) throws -> IPPAttribute? {
        let message = request(groups: [IPPAttributeGroup(tag: .jobAttributes, attributes: [attribute])])
        let bytes = IPPEncoder.encode(message)
        let (decodedMessage, dataOffset) = try IPPDecoder().decode(bytes)
        #expect(dataOffset == bytes.count)
        #expect(decodedMessage == message)
        return decodedMessage.attribute(attribute.name, in: .jobAttributes)
    }

    @Test(arguments: SampleMessages.everySyntaxValues.map(\.name))
    func everyValueSyntaxSurvivesARoundTrip(name: String) throws {
        let value = try #require(SampleMessages.everySyntaxValues.first { $0.name == name }?.value)
        let back = try roundTrip(IPPAttribute(name: name, values: [value]))
        #expect(back?.values == [value])
        #expect(back?.value?.tag == value.tag)
    }

    @Test func integersKeepTheirSignAtBothEnds() throws {
        let values: [IPPValue] = [.integer(.min), .integer(-1), .integer(0), .integer(.max), .enumValue(.max)]
        #expect(try roundTrip(IPPAttribute(name: "numbers", values: values))?.values == values)
    }

    @Test func oneSetOfWithMixedTagsKeepsEachValuesTag() throws {
        let values: [IPPValue] = [
            .integer(1), .rangeOfInteger(2...8), .outOfBand(.noValue), .keyword("auto"), .name("custom"),
        ]
        let back = try roundTrip(IPPAttribute(name: "number-up-supported", values: values))
        #expect(back?.values.map(\.tag) == [.integer, .rangeOfInteger, .noValue, .keyword, .nameWithoutLanguage])
    }

    @Test func nestedMediaColKeepsMembersInOrder() throws {
        let back = try #require(try roundTrip(SampleMessages.mediaCol))
        #expect(back.value?.collectionValue?.map(\.name) == ["media-source", "media-size", "media-type"])
        let size = back.member("media-size")?.value?.collectionValue
        #expect(size?.first { $0.name == "x-dimension" }?.value == .integer(21000))
        #expect(back.member("media-type")?.values == [.keyword("stationery"), .keyword("photographic")])
    }

    @Test func oneSetOfCollectionsKeepsEveryCollection() throws {
        let first = IPPValue.collection([IPPAttribute("media-key", .keyword("a"))])
        let second = IPPValue.collection([IPPAttribute("media-key", .keyword("b"))])
        let empty = IPPValue.collection([])
        #expect(
            try roundTrip(IPPAttribute(name: "media-col-ready", values: [first, empty, second]))?.values
                == [first, empty, second])
    }

    @Test(arguments: [IPPTag.unsupported, .unknown, .noValue, .notSettable, .deleteAttribute, .adminDefine])
    func outOfBandValuesKeepTheirTag(tag: IPPTag) throws {
        #expect(try roundTrip(IPPAttribute("oob", .outOfBand(tag)))?.value == .outOfBand(tag))
    }

    @Test func withLanguageFormsKeepLanguageAndText() throws {
        let values: [IPPValue] = [
            .textWithLanguage(language: "en-us", text: "Hello"), .nameWithLanguage(language: "ja", name: "テスト"),
            .textWithLanguage(language: "", text: ""),
        ]
        #expect(try roundTrip(IPPAttribute(name: "mixed-language", values: values))?.values == values)
    }

    @Test func extensionValueKeepsItsFourByteTagAndBytes() throws {
        let value = IPPValue.other(tag: .extension, bytes: [0x00, 0x00, 0x10, 0x00] + Array("payload".utf8))
        #expect(try roundTrip(IPPAttribute("vendor", value))?.value == value)
    }

    @Test(arguments: [0x20, 0x24, 0x38, 0x40, 0x43, 0x4B, 0x60] as [UInt8])
    func unknownValueTagsSurviveAsRawBytes(raw: UInt8) throws {
        let value = IPPValue.other(tag: IPPTag(rawValue: raw), bytes: [raw, 0, 1])
        #expect(try roundTrip(IPPAttribute("vendor", value))?.value == value)
    }

    @Test func dateTimeKeepsEveryField() throws {
        let date = IPPDateTime(
            year: 1999, month: 12, day: 31, hour: 23, minutes: 59, seconds: 60, deciSeconds: 9,
            utcDirection: UInt8(ascii: "-"), utcHours: 11, utcMinutes: 30)
        #expect(try roundTrip(IPPAttribute("date-time-at-creation", .dateTime(date)))?.value == .dateTime(date))
    }

    @Test func unknownResolutionUnitsSurvive() throws {
        let value = IPPValue.resolution(IPPResolution(crossFeed: 300, feed: 300, units: .init(rawValue: 9)))
        #expect(try roundTrip(IPPAttribute("printer-resolution", value))?.value == value)
    }

    @Test func everyGroupTagAndHeaderFieldSurvives() throws {
        let groupTags: [IPPTag] = [
            .operationAttributes, .jobAttributes, .printerAttributes, .unsupportedAttributes,
            .subscriptionAttributes, .eventNotificationAttributes, .resourceAttributes, .documentAttributes,
            .systemAttributes, IPPTag(rawValue: 0x0F),
        ]
        let message = IPPMessage(
            version: IPPVersion(major: 9, minor: 7), code: 0xFFFF, requestID: -1,
            groups: groupTags.map { IPPAttributeGroup(tag: $0, attributes: [IPPAttribute("a", .integer(1))]) })
        #expect(decoded(IPPEncoder.encode(message)) == message)
    }

    @Test func emptyGroupsAndRepeatedGroupsSurvive() throws {
        let message = IPPMessage(
            operation: .getJobs, requestID: 3,
            groups: [
                IPPAttributeGroup(tag: .operationAttributes), IPPAttributeGroup(tag: .jobAttributes),
                IPPAttributeGroup(tag: .jobAttributes, attributes: [IPPAttribute("job-id", .integer(1))]),
            ])
        #expect(decoded(IPPEncoder.encode(message)) == message)
    }

    @Test(arguments: SampleMessages.encodings.map(\.name))
    func sampleMessagesSurviveARoundTrip(name: String) throws {
        let bytes = try #require(SampleMessages.encodings.first { $0.name == name }?.bytes)
        let message = try IPPDecoder().decode(bytes).message
        #expect(IPPEncoder.encode(message) == bytes)
    }
}
