/// A media size named the PWG 5101.1 way: `class_name_WxHunit`, e.g. `na_letter_8.5x11in` or `iso_a4_210x297mm`.
///
/// PWG 5101.1 section 5 (self-describing media size names). The name carries the dimensions, so no table of
/// known sizes is needed. Dimensions are kept in hundredths of millimetres, the unit of IPP's `media-size`
/// (PWG 5100.7). Parsing is as strict as the `MEDIA_REGEX` of CUPS's ipp-2.0.test: inch sizes belong to the
/// classes `custom na asme roc oe roll`, millimetre sizes to `custom iso jis jpn prc om roll`, and numbers have
/// no leading or trailing zeros.
public struct MediaSize: Hashable, Sendable, CustomStringConvertible {
    /// The unit the name states its dimensions in.
    public enum Unit: String, Sendable {
        /// Inches (`in`): one inch is 2540 hundredths of a millimetre.
        case inches = "in"
        /// Millimetres (`mm`).
        case millimetres = "mm"
    }

    /// The class prefix, e.g. `na`, `iso`, `custom`.
    public var className: String
    /// The size name between the class and the dimensions, e.g. `letter`, `a4`, `index-4x6`, `min`.
    public var sizeName: String
    /// Width in hundredths of millimetres.
    public var width: Int32
    /// Height (length) in hundredths of millimetres.
    public var height: Int32
    /// The unit of the name.
    public var unit: Unit

    /// Classes allowed with inch dimensions (PWG 5101.1 table 3).
    static let inchClasses: Set<String> = ["custom", "na", "asme", "roc", "oe", "roll"]
    /// Classes allowed with millimetre dimensions (PWG 5101.1 table 3).
    static let millimetreClasses: Set<String> = ["custom", "iso", "jis", "jpn", "prc", "om", "roll"]

    /// Parses a self-describing name; nil when it is not one.
    public init?(pwgName: String) {
        let parts = pwgName.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let className = String(parts[0])
        let sizeName = String(parts[1])
        var dimensions = Substring(parts[2])
        let unit: Unit
        if dimensions.hasSuffix("in") {
            unit = .inches
        } else if dimensions.hasSuffix("mm") {
            unit = .millimetres
        } else {
            return nil
        }
        dimensions = dimensions.dropLast(2)
        let classes = unit == .inches ? Self.inchClasses : Self.millimetreClasses
        guard classes.contains(className), Self.isSizeName(sizeName) else { return nil }
        let numbers = dimensions.split(separator: "x", omittingEmptySubsequences: false)
        guard numbers.count == 2,
            let width = Self.hundredthsOfMillimetre(numbers[0], unit: unit),
            let height = Self.hundredthsOfMillimetre(numbers[1], unit: unit)
        else { return nil }
        self.init(className: className, sizeName: sizeName, width: width, height: height, unit: unit)
    }

    /// A size from its parts; `name` writes them back as a self-describing name.
    public init(className: String, sizeName: String, width: Int32, height: Int32, unit: Unit) {
        self.className = className
        self.sizeName = sizeName
        self.width = width
        self.height = height
        self.unit = unit
    }

    /// The self-describing name, e.g. `na_letter_8.5x11in`.
    public var name: String {
        "\(className)_\(sizeName)_\(Self.format(width, unit: unit))x\(Self.format(height, unit: unit))\(unit.rawValue)"
    }

    public var description: String { name }

    /// True for `custom_min_...` or `roll_min_...`, the smallest custom (or roll-fed) size a printer accepts
    /// (PWG 5101.1 section 5.3).
    public var isCustomMinimum: Bool { (className == "custom" || className == "roll") && sizeName == "min" }

    /// True for `custom_max_...` or `roll_max_...`, the largest custom (or roll-fed) size a printer accepts
    /// (PWG 5101.1 section 5.3).
    public var isCustomMaximum: Bool { (className == "custom" || className == "roll") && sizeName == "max" }

    /// True for a size that names one end of a range rather than a sheet: custom_ and roll_ min and max.
    public var isRangeBound: Bool { isCustomMinimum || isCustomMaximum }

    /// `[a-z0-9][-a-z0-9]*`.
    private static func isSizeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLowerAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A positive decimal without leading or trailing zeros, converted to hundredths of millimetres.
    private static func hundredthsOfMillimetre(_ text: Substring, unit: Unit) -> Int32? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, !whole.isEmpty, whole.count <= 5,
            whole.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        var fraction: Substring = ""
        if pieces.count == 2 {
            fraction = pieces[1]
            guard !fraction.isEmpty, fraction.count <= 4, fraction.last != "0",
                fraction.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
        }
        if whole.count > 1 && whole.first == "0" { return nil }
        if whole == "0" && fraction.isEmpty { return nil }
        guard let value = Double(text), value > 0 else { return nil }
        let scaled = (value * (unit == .inches ? 2540 : 100)).rounded()
        guard scaled >= 1, scaled <= Double(Int32.max) else { return nil }
        return Int32(scaled)
    }

    /// Hundredths of millimetres as the shortest decimal in the unit that converts back to the same value
    /// (up to 4 decimals for inches, 2 for millimetres), so that `na_number-10_4.125x9.5in` survives a round trip.
    private static func format(_ value: Int32, unit: Unit) -> String {
        let divisor = unit == .inches ? 2540.0 : 100.0
        let exact = Double(value) / divisor
        var scale = 1
        for places in 0...(unit == .inches ? 4 : 2) {
            let units = Int((exact * Double(scale)).rounded())
            let backToValue = (Double(units) / Double(scale) * divisor).rounded()
            if backToValue == Double(value) || places == (unit == .inches ? 4 : 2) {
                let whole = String(units / scale)
                guard places > 0, units % scale != 0 else { return whole }
                var fraction = String(units % scale)
                fraction = String(repeating: "0", count: places - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                return whole + "." + fraction
            }
            scale *= 10
        }
        return String(value)
    }
}
