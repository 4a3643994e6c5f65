/// The names a registration moves through after collisions: `Name`, `Name (2)`, `Name (3)`, ...
///
/// Avahi's own `avahi_alternative_service_name` produces `Name #2`; printers (CUPS, PAPPL, and the
/// printers that iOS and macOS users see) use the parenthesised form, so vprinter does too. RFC 6763
/// section 4.1.1 asks that the name stays readable; the suffix never pushes it past
/// ``DNSSDLimits/maximumNameBytes``.
enum ServiceName {
    /// The next name to try after `name` collided: `Name` -> `Name (2)`, `Name (2)` -> `Name (3)`.
    ///
    /// The base is shortened (never inside a character) when the suffix would not fit in 63 bytes.
    static func alternative(to name: String) -> String {
        let (base, number) = split(name)
        let suffix = " (\(number + 1))"
        return truncated(base, toBytes: DNSSDLimits.maximumNameBytes - suffix.utf8.count) + suffix
    }

    /// Splits `Name (7)` into `("Name", 7)`; a name without such a suffix counts as number 1.
    static func split(_ name: String) -> (base: String, number: Int) {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else {
            return (name, 1)
        }
        let digits = name[name.index(after: open)..<name.index(before: name.endIndex)]
        let beforeOpen = name[..<open]
        guard let number = Int(digits), number >= 2, digits.allSatisfy(\.isASCII), beforeOpen.hasSuffix(" ") else {
            return (name, 1)
        }
        return (String(beforeOpen.dropLast()), number)
    }

    /// The longest prefix of `text` that has at most `limit` bytes of UTF-8 and ends on a character boundary.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.count
            guard used + size <= limit else { break }
            result.append(character)
            used += size
        }
        return result
    }
}
