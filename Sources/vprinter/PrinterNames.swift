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
}
