import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// Printer names: the name a printer spec gives, else --name, else one from the profile, made unique within the
/// process.
enum PrinterNames {
    static func assign(profiles: [String], requested: String?) -> [String] {
        assign(specs: profiles.map { PrinterSpec(profile: $0) }, profileNames: profiles, requested: requested)
    }

    /// The names of `specs`, whose profiles are named `profileNames` (the profiles' own `name`).
    static func assign(specs: [PrinterSpec], profileNames: [String], requested: String?) -> [String] {
        var used: [String: Int] = [:]
        let unnamed = specs.filter { $0.name == nil }.count
        for spec in specs { if let name = spec.name { used[name, default: 0] += 1 } }
        return zip(specs, profileNames).map { spec, profile in
            if let name = spec.name { return name }
            let base: String
            if let requested {
                base = unnamed == 1 ? requested : "\(requested) \(profile)"
            } else {
                base = "vprinter \(profile)"
            }
            let count = used[base, default: 0] + 1
            used[base] = count
            return count == 1 ? base : "\(base) \(count)"
        }
    }

    /// A name that two printers share, if any.
    static func firstDuplicate(_ names: [String]) -> String? {
        var seen: Set<String> = []
        var segments: Set<String> = []
        for name in names {
            guard seen.insert(name).inserted, segments.insert(PrinterConfiguration.pathSegment(for: name)).inserted
            else { return name }
        }
        return nil
    }
}
