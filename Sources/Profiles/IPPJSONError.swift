/// Why a JSON value could not become an IPP attribute. `path` names the attribute and, inside collections,
/// the member, e.g. `media-col.media-size.x-dimension`.
public enum IPPJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A number with a fraction, or outside the signed 32-bit range of IPP integers (RFC 8010 section 3.9).
    case notAnInteger(path: String)
    /// A string for an enum-valued attribute that IPPEnumNames does not know.
    case unknownEnumKeyword(path: String, keyword: String)
    /// A string for a dateTime attribute that is not ISO 8601 `YYYY-MM-DDTHH:MM:SS[.s](Z|+HH:MM)`.
    case badDateTime(path: String, text: String)
    /// An array inside an array: IPP has no 1setOf of 1setOf.
    case nestedArray(path: String)
    /// An empty array: an IPP attribute has at least one value.
    case emptyArray(path: String)
    /// `{"out-of-band": NAME}` with a NAME other than unsupported, unknown, no-value, not-settable,
    /// delete-attribute, admin-define.
    case unknownOutOfBand(path: String, name: String)
    /// A resolution object whose units are not dpi or dpcm.
    case badResolutionUnits(path: String)
    /// A value of a kind JSON objects do not have here (e.g. a non-JSON Swift type).
    case unsupportedValue(path: String)

    public var description: String {
        switch self {
        case .notAnInteger(let path): "\(path): not a whole number in the 32-bit range"
        case .unknownEnumKeyword(let path, let keyword): "\(path): '\(keyword)' is not a keyword of this enum"
        case .badDateTime(let path, let text): "\(path): '\(text)' is not an ISO 8601 date and time"
        case .nestedArray(let path): "\(path): an array inside an array"
        case .emptyArray(let path): "\(path): an empty array (an attribute needs a value)"
        case .unknownOutOfBand(let path, let name): "\(path): '\(name)' is not an out-of-band value"
        case .badResolutionUnits(let path): "\(path): resolution units must be dpi or dpcm"
        case .unsupportedValue(let path): "\(path): not a JSON value"
        }
    }
}
