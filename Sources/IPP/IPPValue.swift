/// One value of an IPP attribute, with its syntax.
///
/// RFC 8010 section 3.9 lists the encodings; RFC 8011 section 5.1 the syntaxes.
public enum IPPValue: Hashable, Sendable {
    /// `integer` (0x21): a signed 32-bit number.
    case integer(Int32)
    /// `boolean` (0x22).
    case boolean(Bool)
    /// `enum` (0x23): a 32-bit code; `IPPEnumNames` maps codes to keywords.
    case enumValue(Int32)
    /// `octetString` (0x30): opaque bytes.
    case octetString([UInt8])
    /// `dateTime` (0x31), RFC 2579 DateAndTime.
    case dateTime(IPPDateTime)
    /// `resolution` (0x32): cross-feed and feed resolution with units.
    case resolution(IPPResolution)
    /// `rangeOfInteger` (0x33).
    case rangeOfInteger(ClosedRange<Int32>)
    /// `collection` (0x34 ... 0x37): member attributes in order.
    case collection([IPPAttribute])
    /// `textWithLanguage` (0x35).
    case textWithLanguage(language: String, text: String)
    /// `nameWithLanguage` (0x36).
    case nameWithLanguage(language: String, name: String)
    /// `textWithoutLanguage` (0x41).
    case text(String)
    /// `nameWithoutLanguage` (0x42).
    case name(String)
    /// `keyword` (0x44).
    case keyword(String)
    /// `uri` (0x45).
    case uri(String)
    /// `uriScheme` (0x46).
    case uriScheme(String)
    /// `charset` (0x47).
    case charset(String)
    /// `naturalLanguage` (0x48).
    case naturalLanguage(String)
    /// `mimeMediaType` (0x49).
    case mimeMediaType(String)
    /// An out-of-band value (0x10-0x1F): unsupported, unknown, no-value, not-settable, delete-attribute...
    case outOfBand(IPPTag)
    /// A value of a tag this codec does not model (including 0x7F extension), kept as raw bytes.
    case other(tag: IPPTag, bytes: [UInt8])

    /// The tag this value is encoded with.
    public var tag: IPPTag {
        switch self {
        case .integer: .integer
        case .boolean: .boolean
        case .enumValue: .enum
        case .octetString: .octetString
        case .dateTime: .dateTime
        case .resolution: .resolution
        case .rangeOfInteger: .rangeOfInteger
        case .collection: .beginCollection
        case .textWithLanguage: .textWithLanguage
        case .nameWithLanguage: .nameWithLanguage
        case .text: .textWithoutLanguage
        case .name: .nameWithoutLanguage
        case .keyword: .keyword
        case .uri: .uri
        case .uriScheme: .uriScheme
        case .charset: .charset
        case .naturalLanguage: .naturalLanguage
        case .mimeMediaType: .mimeMediaType
        case .outOfBand(let tag): tag
        case .other(let tag, _): tag
        }
    }

    /// The string of any character-string syntax (text, name, keyword, uri, ... and the WithLanguage forms).
    public var stringValue: String? {
        switch self {
        case .text(let s), .name(let s), .keyword(let s), .uri(let s), .uriScheme(let s), .charset(let s),
            .naturalLanguage(let s), .mimeMediaType(let s):
            s
        case .textWithLanguage(_, let s), .nameWithLanguage(_, let s):
            s
        default:
            nil
        }
    }

    /// The number of an integer or enum value.
    public var integerValue: Int32? {
        switch self {
        case .integer(let v), .enumValue(let v): v
        default: nil
        }
    }

    /// The members of a collection value.
    public var collectionValue: [IPPAttribute]? {
        if case .collection(let members) = self { return members }
        return nil
    }

    /// The Boolean of a boolean value.
    public var booleanValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }
}

/// A `resolution` value (RFC 8010 section 3.9): units 3 = dots per inch, 4 = dots per centimetre.
public struct IPPResolution: Hashable, Sendable {
    public var crossFeed: Int32
    public var feed: Int32
    public var units: Units

    public init(crossFeed: Int32, feed: Int32, units: Units = .dotsPerInch) {
        self.crossFeed = crossFeed
        self.feed = feed
        self.units = units
    }

    /// Resolution units; open set.
    public struct Units: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let dotsPerInch = Self(rawValue: 3)
        public static let dotsPerCentimeter = Self(rawValue: 4)
    }
}
