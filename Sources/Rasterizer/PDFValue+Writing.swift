extension PDFValue {
    /// Appends the value in PDF syntax (ISO 32000-1 section 7.3): names and strings as they were written, reals
    /// without an exponent, which PDF has no syntax for.
    func write(into bytes: inout [UInt8]) {
        switch self {
        case .integer(let value): bytes += Array(String(value).utf8)
        case .real(let value): bytes += Array(Self.decimal(value).utf8)
        case .boolean(let value): bytes += Array((value ? "true" : "false").utf8)
        case .null: bytes += Array("null".utf8)
        case .name(let name): bytes += Array("/\(name)".utf8)
        case .string(let written): bytes += written
        case .reference(let number, let generation): bytes += Array("\(number) \(generation) R".utf8)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: " ")) }
                item.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            bytes += Array("<<".utf8)
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                bytes += Array("/\(key) ".utf8)
                value.write(into: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            bytes += Array(">>".utf8)
        }
    }

    /// `value` as a PDF real: digits, a point and at most ten decimals, never an exponent.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 9e18 else { return "0" }
        let scaled = (abs(value) * 10_000_000_000).rounded()
        guard scaled < 9e18 else { return String(Int(value.rounded())) }
        let units = Int(scaled)
        let whole = units / 10_000_000_000
        var fraction = String(units % 10_000_000_000)
        fraction = String(repeating: "0", count: 10 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && units > 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
