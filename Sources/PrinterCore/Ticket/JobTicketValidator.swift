import IPP
import PrintModel

/// Checks job template attributes against the printer's -supported values (RFC 8011 sections 4.1.7, 5.2).
///
/// An attribute the printer does not support comes back with the out-of-band value `unsupported`; a supported
/// attribute with an unsupported value comes back with that value. Whether the job is refused for them is the
/// caller's decision (ipp-attribute-fidelity).
struct JobTicketValidator {
    let printer: PrinterAttributeCache

    /// The outcome: the attributes kept for the job and those to report as unsupported.
    struct Result: Sendable {
        var accepted: [IPPAttribute] = []
        var unsupported: [IPPAttribute] = []
    }

    /// Attributes that may carry several values (1setOf); every other template attribute takes one.
    static let multiValued: Set<String> = ["finishings", "finishings-col", "page-ranges", "overrides"]

    /// The members of an `overrides` value that name pages and documents, each a 1setOf rangeOfInteger.
    static let overrideRanges: Set<String> = ["pages", "document-numbers", "document-number"]

    func validate(_ group: IPPAttributeGroup?) -> Result {
        var result = Result()
        var seen: Set<String> = []
        for attribute in group?.attributes ?? [] {
            guard !seen.contains(attribute.name) else {
                // A repeated attribute is ignored after its first occurrence.
                result.unsupported.append(attribute)
                continue
            }
            seen.insert(attribute.name)
            if isSupported(attribute) {
                result.accepted.append(attribute)
            } else if printer["\(attribute.name)-supported"] == nil {
                result.unsupported.append(IPPAttribute(name: attribute.name, values: [.outOfBand(.unsupported)]))
            } else {
                result.unsupported.append(attribute)
            }
        }
        return result
    }

    /// True when every value of the attribute is one the printer supports.
    func isSupported(_ attribute: IPPAttribute) -> Bool {
        guard let supported = printer["\(attribute.name)-supported"], !attribute.values.isEmpty else { return false }
        if attribute.values.count > 1 && !Self.multiValued.contains(attribute.name) { return false }
        return attribute.values.allSatisfy { value in
            isSupported(value, of: attribute.name, by: supported)
        }
    }

    func isSupported(_ value: IPPValue, of name: String, by supported: IPPAttribute) -> Bool {
        switch value {
        case .collection(let members):
            return isSupportedCollection(members, of: name, memberNames: supported)
        case .rangeOfInteger(let range):
            // page-ranges: page-ranges-supported is a boolean; ranges start at page 1.
            if case .boolean(let ok)? = supported.value { return ok && range.lowerBound >= 1 }
            return supported.values.contains(value)
        case .integer(let number):
            if case .boolean(let ok)? = supported.value { return ok }
            return supported.values.contains { candidate in
                switch candidate {
                case .rangeOfInteger(let range): range.contains(number)
                case .integer(let n): n == number
                default: false
                }
            }
        case .boolean:
            if case .boolean(let ok)? = supported.value { return ok }
            return supported.values.contains(value)
        case .keyword(let word), .name(let word), .nameWithLanguage(_, let word):
            // media accepts keyword or name; compare the strings whatever the tag.
            return supported.values.contains { $0.stringValue == word && $0.integerValue == nil }
        case .enumValue, .resolution, .mimeMediaType:
            return supported.values.contains(value)
        default:
            return false
        }
    }

    /// A collection's members must be listed in `<name>-supported`, and each member's value supported by
    /// `<member>-supported` (media-size by media-size-supported dimensions).
    func isSupportedCollection(_ members: [IPPAttribute], of name: String, memberNames: IPPAttribute) -> Bool {
        let allowed = Set(memberNames.values.compactMap(\.stringValue))
        guard !members.isEmpty else { return false }
        if name == "finishings-col" { return isSupportedFinishing(members, allowed: allowed) }
        for member in members {
            if name == "overrides", Self.overrideRanges.contains(member.name) {
                // 1setOf rangeOfInteger, counted from 1 (PWG 5100.6 section 6.1.1, 6.1.2).
                let ranges = member.values.compactMap { value -> ClosedRange<Int32>? in
                    guard case .rangeOfInteger(let range) = value else { return nil }
                    return range
                }
                guard allowed.contains(member.name), !ranges.isEmpty, ranges.count == member.values.count,
                    ranges.allSatisfy({ $0.lowerBound >= 1 })
                else { return false }
                continue
            }
            guard allowed.contains(member.name), let value = member.value, member.values.count == 1 else {
                return false
            }
            if member.name == "media-size" {
                guard isSupportedMediaSize(value) else { return false }
                continue
            }
            if let memberSupported = printer["\(member.name)-supported"] {
                guard isSupported(value, of: member.name, by: memberSupported) else { return false }
            } else if case .collection = value {
                return false
            }
        }
        return true
    }

    /// True when x-dimension and y-dimension match an entry of media-size-supported (a number or a range).
    func isSupportedMediaSize(_ value: IPPValue) -> Bool {
        guard case .collection(let members) = value,
            case .integer(let x)? = members.first(where: { $0.name == "x-dimension" })?.value,
            case .integer(let y)? = members.first(where: { $0.name == "y-dimension" })?.value,
            members.count == 2
        else { return false }
        guard let sizes = printer["media-size-supported"] else { return false }
        func matches(_ dimension: IPPValue?, _ number: Int32) -> Bool {
            switch dimension {
            case .integer(let n)?: abs(n - number) <= Self.mediaSizeTolerance
            case .rangeOfInteger(let range)?: range.contains(number)
            default: false
            }
        }
        return sizes.values.contains { size in
            guard case .collection(let dims) = size else { return false }
            return matches(dims.first { $0.name == "x-dimension" }?.value, x)
                && matches(dims.first { $0.name == "y-dimension" }?.value, y)
        }
    }

    /// Media sizes within this many hundredths of a millimetre match (rounding between inches and mm).
    static let mediaSizeTolerance: Int32 = 100

    /// A finishings-col value (PWG 5100.1): its finishing-template is one of finishing-template-supported, and each
    /// detail collection (stitching, punching, folding, binding, trimming...) holds only members whose values the
    /// printer lists in `<member>-supported` (keywords in the list, integers in its ranges).
    func isSupportedFinishing(_ members: [IPPAttribute], allowed: Set<String>) -> Bool {
        for member in members {
            guard allowed.contains(member.name), !member.values.isEmpty else { return false }
            if member.name == "finishing-template" {
                guard member.values.count == 1, let template = member.value?.stringValue,
                    printer["finishing-template-supported"]?.values.contains(where: { $0.stringValue == template })
                        == true
                else { return false }
                continue
            }
            for value in member.values {
                guard case .collection(let details) = value, !details.isEmpty else { return false }
                for detail in details {
                    guard let supported = printer["\(detail.name)-supported"], !detail.values.isEmpty,
                        detail.values.allSatisfy({ isSupported($0, of: detail.name, by: supported) })
                    else { return false }
                }
            }
        }
        return true
    }
}
