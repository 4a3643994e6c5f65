/// A size in bytes as a person writes one on a command line or in a config file: `500M`, `4G`, `1024K` (powers of
/// 1024, as `ls -h` reads them), `64MiB`, `1GiB` (the same, IEC 80000-13), `500KB`, `2MB` (powers of 1000, SI), or
/// a byte count, plain or with `B`; letter case does not matter.
public enum ByteSize {
    /// The unit suffixes, longest first among those that end alike.
    static let units: [(suffix: String, factor: Int)] = [
        ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30),
        ("kb", 1000), ("mb", 1_000_000), ("gb", 1_000_000_000),
        ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1),
    ]

    /// The bytes `text` names; nil for anything else, or a size past `Int.max`.
    public static func parse(_ text: String) -> Int? {
        let lowered = text.lowercased()
        for (suffix, factor) in units where lowered.hasSuffix(suffix) {
            guard let number = Int(lowered.dropLast(suffix.count)) else { return nil }
            let (bytes, overflow) = number.multipliedReportingOverflow(by: factor)
            return overflow ? nil : bytes
        }
        return Int(text)
    }

    /// Whether `text` names its size with a unit (`64MiB`), not as a plain number.
    public static func hasUnit(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return units.contains { lowered.hasSuffix($0.suffix) }
    }
}
