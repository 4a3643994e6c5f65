/// Limits the decoder enforces on untrusted messages.
///
/// Value lengths follow RFC 8011 section 5.1 (text 1023, name 255, keyword 255, uri 1023, charset,
/// naturalLanguage and uriScheme 63, mimeMediaType 255, octetString 1023) and RFC 8010 section 3.1.5
/// (no value longer than 32767 octets). The nesting limit follows CUPS.
public struct IPPLimits: Hashable, Sendable {
    /// No value of any syntax may be longer than this (RFC 8010 section 3.1.5).
    public static let maximumValueLength = 32767
    /// textWithoutLanguage, the text of textWithLanguage, uri and octetString (RFC 8011 section 5.1).
    public static let maximumTextLength = 1023
    /// nameWithoutLanguage, keyword, mimeMediaType, memberAttrName and attribute names.
    public static let maximumNameLength = 255
    /// charset, naturalLanguage and uriScheme (RFC 8011 sections 5.1.7-5.1.9).
    public static let maximumShortStringLength = 63
    /// Collections nested deeper than this are refused.
    public static let maximumCollectionDepth = 10

    /// The most values (counting collection members) one message may carry.
    public var maximumValueCount: Int
    /// The most bytes the header and attribute groups of one message may take, before any document data.
    public var maximumMessageBytes: Int

    public init(maximumValueCount: Int = 100_000, maximumMessageBytes: Int = 1 << 20) {
        self.maximumValueCount = maximumValueCount
        self.maximumMessageBytes = maximumMessageBytes
    }

    public static let `default` = IPPLimits()

    /// The longest value, in octets, a tag's syntax allows.
    public static func maximumLength(of tag: IPPTag) -> Int {
        switch tag {
        case .textWithoutLanguage, .uri, .octetString: maximumTextLength
        case .nameWithoutLanguage, .keyword, .mimeMediaType, .memberAttributeName: maximumNameLength
        case .charset, .naturalLanguage, .uriScheme: maximumShortStringLength
        // WithLanguage forms: 2 + language + 2 + text.
        case .textWithLanguage: 4 + maximumShortStringLength + maximumTextLength
        case .nameWithLanguage: 4 + maximumShortStringLength + maximumNameLength
        default: maximumValueLength
        }
    }
}
