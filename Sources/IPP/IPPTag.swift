/// A delimiter or value tag of the IPP encoding.
///
/// RFC 8010 section 3.5. Open set: an unknown tag survives a round trip as its raw byte.
public struct IPPTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    // MARK: Delimiter tags (RFC 8010 section 3.5.1)

    public static let operationAttributes = Self(rawValue: 0x01)
    public static let jobAttributes = Self(rawValue: 0x02)
    public static let endOfAttributes = Self(rawValue: 0x03)
    public static let printerAttributes = Self(rawValue: 0x04)
    public static let unsupportedAttributes = Self(rawValue: 0x05)
    public static let subscriptionAttributes = Self(rawValue: 0x06)
    public static let eventNotificationAttributes = Self(rawValue: 0x07)
    public static let resourceAttributes = Self(rawValue: 0x08)
    public static let documentAttributes = Self(rawValue: 0x09)
    public static let systemAttributes = Self(rawValue: 0x0A)

    // MARK: Out-of-band value tags (RFC 8010 section 3.5.2, RFC 3380)

    public static let unsupported = Self(rawValue: 0x10)
    public static let unknown = Self(rawValue: 0x12)
    public static let noValue = Self(rawValue: 0x13)
    public static let notSettable = Self(rawValue: 0x15)
    public static let deleteAttribute = Self(rawValue: 0x16)
    public static let adminDefine = Self(rawValue: 0x17)

    // MARK: Integer value tags

    public static let integer = Self(rawValue: 0x21)
    public static let boolean = Self(rawValue: 0x22)
    public static let `enum` = Self(rawValue: 0x23)

    // MARK: Octet-string value tags

    public static let octetString = Self(rawValue: 0x30)
    public static let dateTime = Self(rawValue: 0x31)
    public static let resolution = Self(rawValue: 0x32)
    public static let rangeOfInteger = Self(rawValue: 0x33)
    public static let beginCollection = Self(rawValue: 0x34)
    public static let textWithLanguage = Self(rawValue: 0x35)
    public static let nameWithLanguage = Self(rawValue: 0x36)
    public static let endCollection = Self(rawValue: 0x37)

    // MARK: Character-string value tags

    public static let textWithoutLanguage = Self(rawValue: 0x41)
    public static let nameWithoutLanguage = Self(rawValue: 0x42)
    public static let keyword = Self(rawValue: 0x44)
    public static let uri = Self(rawValue: 0x45)
    public static let uriScheme = Self(rawValue: 0x46)
    public static let charset = Self(rawValue: 0x47)
    public static let naturalLanguage = Self(rawValue: 0x48)
    public static let mimeMediaType = Self(rawValue: 0x49)
    public static let memberAttributeName = Self(rawValue: 0x4A)

    /// The extension tag: the first four value bytes hold a 32-bit tag (RFC 8010 section 3.5.2).
    public static let `extension` = Self(rawValue: 0x7F)

    /// True for the tags 0x00-0x0F that delimit attribute groups.
    public var isDelimiter: Bool { rawValue <= 0x0F }

    /// True for the out-of-band tags 0x10-0x1F, whose values have no bytes.
    public var isOutOfBand: Bool { rawValue >= 0x10 && rawValue <= 0x1F }

    /// True for a tag that opens an attribute group (every delimiter but 0x00 and end-of-attributes).
    public var isGroup: Bool { isDelimiter && rawValue != 0x00 && self != .endOfAttributes }

    public var description: String {
        Self.names[rawValue] ?? "0x" + String(rawValue, radix: 16)
    }

    private static let names: [UInt8: String] = [
        0x01: "operation-attributes-tag", 0x02: "job-attributes-tag", 0x03: "end-of-attributes-tag",
        0x04: "printer-attributes-tag", 0x05: "unsupported-attributes-tag", 0x06: "subscription-attributes-tag",
        0x07: "event-notification-attributes-tag", 0x08: "resource-attributes-tag",
        0x09: "document-attributes-tag", 0x0A: "system-attributes-tag",
        0x10: "unsupported", 0x12: "unknown", 0x13: "no-value", 0x15: "not-settable", 0x16: "delete-attribute",
        0x17: "admin-define", 0x21: "integer", 0x22: "boolean", 0x23: "enum", 0x30: "octetString",
        0x31: "dateTime", 0x32: "resolution", 0x33: "rangeOfInteger", 0x34: "collection",
        0x35: "textWithLanguage", 0x36: "nameWithLanguage", 0x37: "endCollection", 0x41: "textWithoutLanguage",
        0x42: "nameWithoutLanguage", 0x44: "keyword", 0x45: "uri", 0x46: "uriScheme", 0x47: "charset",
        0x48: "naturalLanguage", 0x49: "mimeMediaType", 0x4A: "memberAttrName", 0x7F: "extension",
    ]
}
