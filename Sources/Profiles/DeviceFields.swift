import IPP

/// The `key=value;` fields of a printer-input-tray, printer-supply or printer-output-tray value (PWG 5100.13
/// section 6.5), as profiles and Set-Printer-Attributes read them.
public enum DeviceFields {
    /// The pairs of `value`, in order; none when it is no octetString.
    public static func pairs(of value: IPPValue) -> [(String, String)] {
        guard case .octetString(let bytes) = value else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }
}
