/// Printer names: the --name given, else one from the profile, made unique within the process.
enum PrinterNames {
    static func assign(profiles: [String], requested: String?) -> [String] {
        var used: [String: Int] = [:]
        return profiles.map { profile in
            let base: String
            if let requested {
                base = profiles.count == 1 ? requested : "\(requested) \(profile)"
            } else {
                base = "vprinter \(profile)"
            }
            let count = used[base, default: 0] + 1
            used[base] = count
            return count == 1 ? base : "\(base) \(count)"
        }
    }

    /// A printer name as a URL path segment: letters, digits, `-`, `_` and `.`; anything else becomes `-`.
    static func slug(_ name: String) -> String {
        String(
            name.map { ch -> Character in
                ch.isASCII && (ch.isLetter || ch.isNumber || ch == "-" || ch == "_" || ch == ".") ? ch : "-"
            })
    }
}
