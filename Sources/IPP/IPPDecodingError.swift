/// Why a sequence of bytes is not a valid IPP message. Every case carries the byte offset where the
/// problem was found, counted from the first byte of the message.
public enum IPPDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes ended before the message did; more data may complete it.
    case truncated(offset: Int)
    /// Tag 0x00 appeared where a delimiter or value tag was expected (RFC 8010 section 3.5.1).
    case invalidTag(IPPTag, offset: Int)
    /// A value appeared before any group tag.
    case valueOutsideGroup(offset: Int)
    /// A value with name-length 0 did not follow an attribute (RFC 8010 section 3.1.5).
    case additionalValueWithoutAttribute(offset: Int)
    /// A fixed-size value had the wrong length (integer 4, boolean 1, dateTime 11, resolution 9, range 8).
    case badValueLength(tag: IPPTag, expected: Int, got: Int, offset: Int)
    /// A value was longer than its syntax allows (RFC 8011 section 5.1).
    case valueTooLong(tag: IPPTag, length: Int, limit: Int, offset: Int)
    /// An attribute name was longer than `IPPLimits.maximumNameLength`.
    case nameTooLong(length: Int, offset: Int)
    /// The lengths inside a textWithLanguage or nameWithLanguage value did not add up.
    case badLanguageValue(tag: IPPTag, offset: Int)
    /// Collections were nested deeper than `IPPLimits.maximumCollectionDepth`.
    case collectionTooDeep(offset: Int)
    /// endCollection or memberAttrName appeared outside a collection.
    case collectionTagOutsideCollection(IPPTag, offset: Int)
    /// Inside a collection, a value came before any memberAttrName, or a member had no value.
    case memberValueMissing(offset: Int)
    /// A delimiter tag appeared inside a collection.
    case unterminatedCollection(offset: Int)
    /// An extension (0x7F) value was shorter than its 4-byte tag.
    case badExtensionValue(offset: Int)
    /// The message carried more values than `IPPLimits.maximumValueCount`.
    case tooManyValues(limit: Int, offset: Int)
    /// The header and attributes were larger than `IPPLimits.maximumMessageBytes`.
    case messageTooLarge(limit: Int)

    /// The byte offset of the problem (the limit for `messageTooLarge`).
    public var offset: Int {
        switch self {
        case .truncated(let o), .invalidTag(_, let o), .valueOutsideGroup(let o),
            .additionalValueWithoutAttribute(let o), .badValueLength(_, _, _, let o), .valueTooLong(_, _, _, let o),
            .nameTooLong(_, let o), .badLanguageValue(_, let o), .collectionTooDeep(let o),
            .collectionTagOutsideCollection(_, let o), .memberValueMissing(let o), .unterminatedCollection(let o),
            .badExtensionValue(let o), .tooManyValues(_, let o):
            o
        case .messageTooLarge(let limit):
            limit
        }
    }

    /// True when the error is only a lack of bytes.
    public var isTruncation: Bool {
        if case .truncated = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .truncated(let o): "message ends early at byte \(o)"
        case .invalidTag(let t, let o): "invalid tag \(t) at byte \(o)"
        case .valueOutsideGroup(let o): "attribute before any group tag at byte \(o)"
        case .additionalValueWithoutAttribute(let o): "additional value without an attribute at byte \(o)"
        case .badValueLength(let t, let e, let g, let o): "\(t) value of \(g) bytes (expected \(e)) at byte \(o)"
        case .valueTooLong(let t, let l, let m, let o): "\(t) value of \(l) bytes exceeds \(m) at byte \(o)"
        case .nameTooLong(let l, let o): "attribute name of \(l) bytes at byte \(o)"
        case .badLanguageValue(let t, let o): "malformed \(t) value at byte \(o)"
        case .collectionTooDeep(let o):
            "collections nested deeper than \(IPPLimits.maximumCollectionDepth) at byte \(o)"
        case .collectionTagOutsideCollection(let t, let o): "\(t) outside a collection at byte \(o)"
        case .memberValueMissing(let o): "collection member without a name or value at byte \(o)"
        case .unterminatedCollection(let o): "collection not terminated at byte \(o)"
        case .badExtensionValue(let o): "extension value shorter than 4 bytes at byte \(o)"
        case .tooManyValues(let l, let o): "more than \(l) values at byte \(o)"
        case .messageTooLarge(let l): "attributes larger than \(l) bytes"
        }
    }
}
