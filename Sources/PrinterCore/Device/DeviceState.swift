import IPP
import Profiles

/// The simulated hardware behind a printer: input trays, supplies and output bins, with their levels.
///
/// Built from the profile's printer-input-tray, printer-supply and printer-output-tray values; it renders those
/// attributes back with the current levels and derives the printer-state-reasons they imply. Levels follow PWG
/// 5100.13 (and RFC 3805): -2 unknown, -3 some remaining; percent for supplies.
package struct DeviceState: Sendable {
    struct Tray: Sendable, Equatable {
        var fields: [(String, String)]
        var name: String
        var capacity: Int
        var level: Int
        var isManual: Bool
        /// True for a roll (type continuousRoll, or a roll's media-source keyword): its length is not counted, but
        /// it can run out and be reloaded.
        var isRoll = false
        /// The level a reloaded roll reports: the profile's, or -3 (some remaining) when the profile had it empty.
        var loadedLevel = Self.someRemaining

        /// PWG 5100.13 (RFC 3805 prtInputCurrentLevel): at least one unit remains, how much is not known.
        static let someRemaining = -3

        /// True for a source that can be emptied and refilled: a tray of a known number of sheets, or a roll
        /// (`auto` is not a source of its own).
        var canRunOut: Bool { name != "auto" && (capacity > 0 || isRoll) }

        /// Sets the level (nil fills it), at most the capacity. A roll's length is not counted: 0 empties it,
        /// any other level (or none) reloads it.
        mutating func setLevel(_ requested: Int?) {
            if capacity > 0 {
                level = min(requested ?? capacity, capacity)
            } else {
                level = requested == 0 ? 0 : loadedLevel
            }
        }

        static func == (a: Tray, b: Tray) -> Bool { a.name == b.name && a.capacity == b.capacity && a.level == b.level }
    }

    struct Supply: Sendable, Equatable {
        var fields: [(String, String)]
        var type: String
        /// Percent, 0-100 (for a receptacle: how full it is).
        var level: Int
        var isReceptacle: Bool
        var lowLevel: Int
        var highLevel: Int
        /// Hundredths of a percent used and not yet taken off `level`.
        var pendingUse = 0

        static func == (a: Supply, b: Supply) -> Bool { a.type == b.type && a.level == b.level }
    }

    struct Bin: Sendable, Equatable {
        var fields: [(String, String)]
        var name: String
        var capacity: Int
        var level: Int

        static func == (a: Bin, b: Bin) -> Bool { a.name == b.name && a.level == b.level }
    }

    var trays: [Tray] = []
    var supplies: [Supply] = []
    var bins: [Bin] = []
    /// Whether the profile reports marker-levels (CUPS's extension; a cloned printer may not).
    var reportsMarkerLevels = true
    /// The attributes whose values end with a bare `key=value` (PWG 5100.13 ends each with `;`; some printers
    /// leave the last one bare, and a clone says it as they do).
    var unterminated: Set<String> = []
    /// When false (the default), printing lowers no level: paper, toner and bins never run out by themselves;
    /// levels set through the API, Set-Printer-Attributes or a scenario still count.
    var tracksConsumables = false
    /// The tray a job waits for (media-empty-error, media-needed), if any.
    var waitingForMedia: String?

    /// How many impressions a full supply makes (each impression uses 1/this of it).
    static let impressionsPerSupply = 2000
    /// Below this share of its capacity a tray reports media-low.
    static let lowTrayFraction = 0.1
    /// At this share of its capacity an output bin reports output-area-almost-full.
    static let almostFullBinFraction = 0.9

    /// A device with no trays, supplies or bins.
    init() {}

    init(attributes: [String: IPPAttribute], tracksConsumables: Bool) {
        self.tracksConsumables = tracksConsumables
        let fields = DeviceFields.pairs(of:)
        reportsMarkerLevels = attributes["marker-levels"] != nil || attributes["printer-supply"] == nil
        for name in ["printer-input-tray", "printer-supply", "printer-output-tray"] {
            let values = attributes[name]?.values ?? []
            let bare =
                !values.isEmpty
                && values.allSatisfy { value in
                    if case .octetString(let bytes) = value { return bytes.last != UInt8(ascii: ";") }
                    return false
                }
            if bare { unterminated.insert(name) }
        }
        func field(_ fields: [(String, String)], _ key: String) -> String? { fields.first { $0.0 == key }?.1 }
        trays = (attributes["printer-input-tray"]?.values ?? []).map(fields).map { f in
            let name = field(f, "name") ?? "main"
            let level = Int(field(f, "level") ?? "") ?? -2
            return Tray(
                fields: f, name: name, capacity: Int(field(f, "maxcapacity") ?? "") ?? -2, level: level,
                isManual: field(f, "type") == "sheetFeedManual",
                isRoll: field(f, "type") == "continuousRoll" || PrinterProfile.isRoll(source: name),
                loadedLevel: level == 0 ? Tray.someRemaining : level)
        }
        let lows = attributes["marker-low-levels"]?.values.compactMap(\.integerValue) ?? []
        let highs = attributes["marker-high-levels"]?.values.compactMap(\.integerValue) ?? []
        supplies = (attributes["printer-supply"]?.values ?? []).map(fields).enumerated().map { index, f in
            Supply(
                fields: f, type: field(f, "type") ?? "toner", level: Int(field(f, "level") ?? "") ?? -2,
                isReceptacle: field(f, "class") == "receptacleThatIsFilled",
                lowLevel: index < lows.count ? Int(lows[index]) : 10,
                highLevel: index < highs.count ? Int(highs[index]) : 100)
        }
        // PWG 5100.13 output trays give `remaining` (free capacity, RFC 3805 prtOutputRemainingCapacity), not a level.
        bins = (attributes["printer-output-tray"]?.values ?? []).map(fields).map { f in
            let capacity = Int(field(f, "maxcapacity") ?? "") ?? -2
            let remaining = Int(field(f, "remaining") ?? "") ?? -2
            let level = Int(field(f, "level") ?? "") ?? (capacity >= 0 && remaining >= 0 ? capacity - remaining : -2)
            return Bin(fields: f, name: field(f, "name") ?? "face-down", capacity: capacity, level: level)
        }
    }

    // MARK: Printing

    /// The tray a sheet comes from: the named source, or for `auto` (or none) the first loaded tray.
    func trayIndex(for source: String?) -> Int? {
        if let source, source != "auto", let index = trays.firstIndex(where: { $0.name == source }) { return index }
        return trays.firstIndex { !$0.isManual && $0.name != "auto" && $0.level != 0 }
            ?? trays.firstIndex { !$0.isManual && $0.name != "auto" }
    }

    /// True when the tray for `source` has no paper.
    func isEmpty(source: String?) -> Bool {
        guard let index = trayIndex(for: source) else { return false }
        return trays[index].level == 0
    }

    /// Takes one sheet from the tray for `source` (when consumables are tracked).
    mutating func takeSheet(source: String?) {
        guard tracksConsumables, let index = trayIndex(for: source), trays[index].level > 0 else { return }
        trays[index].level -= 1
    }

    /// Uses supplies for one impression: black only for gray, every colorant for color.
    mutating func useImpression(color: Bool) {
        guard tracksConsumables else { return }
        for index in supplies.indices where supplies[index].level >= 0 {
            let colorant = supplies[index].fields.first { $0.0 == "colorantname" }?.1 ?? "black"
            guard supplies[index].isReceptacle || color || colorant == "black" || colorant == "none" else { continue }
            supplies[index].pendingUse += 10_000 / Self.impressionsPerSupply
            while supplies[index].pendingUse >= 100 {
                supplies[index].pendingUse -= 100
                if supplies[index].isReceptacle {
                    supplies[index].level = min(100, supplies[index].level + 1)
                } else {
                    supplies[index].level = max(0, supplies[index].level - 1)
                }
            }
        }
    }

    /// Puts one printed sheet in the first bin (when consumables are tracked).
    mutating func deliverSheet() {
        guard tracksConsumables, !bins.isEmpty, bins[0].capacity > 0, bins[0].level >= 0 else { return }
        bins[0].level = min(bins[0].capacity, bins[0].level + 1)
    }

    // MARK: Reasons

    /// The printer-state-reasons the device state implies.
    var reasons: [PrinterStateReason] {
        var reasons: [PrinterStateReason] = []
        if waitingForMedia != nil {
            reasons += ["media-empty-error", "media-needed-error"]
        } else if trays.contains(where: { !$0.isManual && $0.canRunOut && $0.level == 0 }) {
            reasons.append("media-empty-report")
        }
        if trays.contains(where: {
            !$0.isManual && $0.capacity > 0 && $0.level > 0
                && Double($0.level) < Double($0.capacity) * Self.lowTrayFraction
        }) {
            reasons.append("media-low-report")
        }
        for supply in supplies where supply.level >= 0 {
            let toner = supply.type.lowercased().contains("toner")
            if supply.isReceptacle {
                if supply.level >= supply.highLevel { reasons.append("marker-waste-full-error") }
            } else if supply.level == 0 {
                reasons.append(toner ? "toner-empty-error" : "marker-supply-empty-error")
            } else if supply.level <= supply.lowLevel {
                reasons.append(toner ? "toner-low-report" : "marker-supply-low-report")
            }
        }
        for bin in bins where bin.capacity > 0 && bin.level >= 0 {
            if bin.level >= bin.capacity {
                reasons.append("output-area-full-error")
            } else if Double(bin.level) >= Double(bin.capacity) * Self.almostFullBinFraction {
                reasons.append("output-area-almost-full-report")
            }
        }
        var seen: Set<PrinterStateReason> = []
        return reasons.filter { seen.insert($0).inserted }
    }

    // MARK: Attributes

    /// printer-input-tray, printer-supply, marker-levels and printer-output-tray with the current levels.
    package var attributes: [IPPAttribute] {
        func encode(_ fields: [(String, String)], level: Int, remaining: Int? = nil, in name: String) -> IPPValue {
            let text =
                fields.map { key, value in
                    if key == "level" { return "level=\(level)" }
                    if key == "remaining", let remaining { return "remaining=\(remaining)" }
                    return "\(key)=\(value)"
                }.joined(separator: ";") + (unterminated.contains(name) ? "" : ";")
            return .octetString(Array(text.utf8))
        }
        var attributes: [IPPAttribute] = []
        if !trays.isEmpty {
            attributes.append(
                IPPAttribute(
                    name: "printer-input-tray",
                    values: trays.map { encode($0.fields, level: $0.level, in: "printer-input-tray") }))
        }
        if !supplies.isEmpty {
            attributes.append(
                IPPAttribute(
                    name: "printer-supply",
                    values: supplies.map { encode($0.fields, level: $0.level, in: "printer-supply") }))
            if reportsMarkerLevels {
                attributes.append(
                    IPPAttribute(name: "marker-levels", values: supplies.map { .integer(Int32($0.level)) }))
            }
        }
        if !bins.isEmpty {
            attributes.append(
                IPPAttribute(
                    name: "printer-output-tray",
                    values: bins.map { bin in
                        let known = bin.capacity >= 0 && bin.level >= 0
                        return encode(
                            bin.fields, level: bin.level, remaining: known ? bin.capacity - bin.level : nil,
                            in: "printer-output-tray")
                    }))
        }
        return attributes
    }

    /// Names of the attributes `attributes` produces.
    static let attributeNames: Set<String> = [
        "printer-input-tray", "printer-supply", "marker-levels", "printer-output-tray",
    ]
}
