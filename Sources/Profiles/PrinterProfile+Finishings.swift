import IPP

/// finishings-col-database and the PWG 5100.1 detail attributes of a printer with a finisher.
///
/// Each finishings keyword of the profile becomes a finishing template (PWG 5100.1 section 5.x) whose
/// finishings-col-database entry also says what the finisher does, in the detail collections of PWG 5100.1
/// section 5.2: `stitching` for staples and stitches, `punching` for holes, `folding` for folds, `binding` and
/// `trimming`. Positions are in hundredths of millimetres, as IPP measures media: staples 6.35 mm (1/4 inch)
/// from the edges, holes 12 mm from the edge and 80 mm apart (ISO 838), three holes 108 mm apart (US 3-hole).
extension PrinterProfile {
    /// Staple distance from the reference edge and from the corner (1/4 inch).
    package static let stapleOffset: Int32 = 635
    /// Punch hole distance from the reference edge (ISO 838).
    static let punchOffset: Int32 = 1200
    /// Distance between two punch holes (ISO 838) and between three (the US 3-hole pattern).
    static let punchSpacing: (dual: Int32, triple: Int32) = (8000, 10_795)

    /// One finishings-col-database value per finishings keyword (none included).
    func finishingTemplateDatabase() -> [IPPValue] {
        finishings.map { keyword in
            .collection([keywords("finishing-template", [keyword])] + Self.finishingDetails(keyword))
        }
    }

    /// finishings-col-supported (the members the database uses) and each detail member's -supported values.
    func finishingDetailAttributes() -> [IPPAttribute] {
        var members = ["finishing-template"]
        var values: [String: [IPPValue]] = [:]
        var order: [String] = []
        for keyword in finishings {
            for detail in Self.finishingDetails(keyword) {
                if !members.contains(detail.name) { members.append(detail.name) }
                for value in detail.values {
                    for member in value.collectionValue ?? [] {
                        let name = "\(member.name)-supported"
                        if values[name] == nil { order.append(name) }
                        for item in member.values where !(values[name] ?? []).contains(item) {
                            values[name, default: []].append(item)
                        }
                    }
                }
            }
        }
        var attributes = [keywords("finishings-col-supported", members)]
        for name in order {
            let list = values[name] ?? []
            if name.hasSuffix("-offset-supported") || name.hasSuffix("-locations-supported") {
                // Integers are advertised as the range that holds them (PWG 5100.1 rangeOfInteger syntax).
                let numbers = list.compactMap(\.integerValue)
                if let low = numbers.min(), let high = numbers.max() {
                    attributes.append(IPPAttribute(name, .rangeOfInteger(0...max(low, high))))
                }
            } else {
                attributes.append(IPPAttribute(name: name, values: list))
            }
        }
        return attributes
    }

    /// The PWG 5100.1 detail collections that describe a finishings keyword; empty for those that need none.
    static func finishingDetails(_ finishing: String) -> [IPPAttribute] {
        let parts = finishing.split(separator: "-").map(String.init)
        let edges = ["top", "bottom", "left", "right"]
        func keyword(_ name: String, _ value: String) -> IPPAttribute { IPPAttribute(name, .keyword(value)) }
        func integers(_ name: String, _ values: [Int32]) -> IPPAttribute {
            IPPAttribute(name: name, values: values.map { .integer($0) })
        }
        switch parts.first {
        case "staple" where parts.count >= 2:
            // staple-top-left: one staple at a corner; staple-dual-left: two along an edge.
            let count: Int32 = parts[1] == "dual" ? 2 : parts[1] == "triple" ? 3 : 1
            let edge = count == 1 ? parts[1] : parts.last ?? "left"
            guard edges.contains(edge) else { return [] }
            let locations: [Int32] =
                count == 1 ? [stapleOffset] : (1...count).map { Int32($0) * 7000 }
            return [
                IPPAttribute(
                    "stitching",
                    .collection([
                        integers("stitching-locations", locations), keyword("stitching-method", "auto"),
                        IPPAttribute("stitching-offset", .integer(stapleOffset)),
                        keyword("stitching-reference-edge", edge),
                    ]))
            ]
        case "edge" where parts.count == 3, "saddle" where parts.count == 2:
            let edge = parts.count == 3 ? parts[2] : "left"
            return [
                IPPAttribute(
                    "stitching",
                    .collection([
                        keyword("stitching-method", parts[0] == "saddle" ? "crimp" : "auto"),
                        keyword("stitching-reference-edge", edge),
                    ]))
            ]
        case "punch" where parts.count >= 2:
            let count: Int32 = ["dual": 2, "triple": 3, "quad": 4][parts[1]] ?? 1
            let edge = count == 1 ? parts[1] : parts.last ?? "left"
            guard edges.contains(edge) else { return [] }
            let spacing = count == 3 ? punchSpacing.triple : punchSpacing.dual
            let locations = (0..<count).map { punchOffset + Int32($0) * spacing }
            return [
                IPPAttribute(
                    "punching",
                    .collection([
                        integers("punching-locations", locations),
                        IPPAttribute("punching-offset", .integer(punchOffset)),
                        keyword("punching-reference-edge", edge),
                    ]))
            ]
        case "fold" where parts.count >= 2:
            return [
                IPPAttribute(
                    "folding",
                    .collection([
                        keyword("folding-direction", parts[1] == "half" ? "inward" : "outward"),
                        keyword("folding-reference-edge", "top"),
                    ]))
            ]
        case "bind" where parts.count == 2 && edges.contains(parts[1]):
            return [
                IPPAttribute(
                    "binding",
                    .collection([keyword("binding-reference-edge", parts[1]), keyword("binding-type", "tape")]))
            ]
        case "trim" where parts.count == 3:
            return [
                IPPAttribute(
                    "trimming",
                    .collection([
                        keyword("trimming-type", "full"), keyword("trimming-when", "after-\(parts[2])"),
                    ]))
            ]
        default:
            return []
        }
    }
}
