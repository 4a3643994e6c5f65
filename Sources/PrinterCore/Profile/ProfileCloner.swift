import Foundation
import IPP
import Profiles

/// Turns the attributes a real printer reports (its answer to Get-Printer-Attributes `all,media-col-database`, or
/// an `ipptool --ippserver` file) into a profile: high-level keys where they map, the rest as raw `attributes`.
///
/// The result is checked by construction: a printer is built from the candidate profile (no server), asked for
/// the same attributes, and every attribute that comes back different from the original becomes a raw attribute
/// with the original's value (or a delete-attribute when the original lacks it). Volatile attributes (state,
/// times, URIs, uuid, counters, the name) are dropped first. What still differs after that (operations vprinter
/// does not implement) is reported in `warnings`.
public enum ProfileCloner {
    /// A cloned profile.
    public struct Clone: Sendable {
        /// The profile as JSON, keys in the order docs/profiles.md lists them.
        public var json: [(key: String, value: ProfileJSON)]
        /// What could not be reproduced, one line each.
        public var warnings: [String]

        /// The JSON text of the profile, pretty-printed.
        public var text: String { ProfileJSON.object(json.map { ($0.key, $0.value) }).prettyText + "\n" }

        /// The profile itself; `file` names it in errors.
        public func profile(file: String) throws(ProfileError) -> PrinterProfile {
            try PrinterProfile.decode(Data(text.utf8), file: file)
        }
    }

    /// Attributes that describe the moment or the network, never the printer's kind (dropped from clones).
    public static let volatileAttributes: Set<String> = [
        "printer-state", "printer-state-reasons", "printer-state-message", "printer-state-change-time",
        "printer-state-change-date-time", "printer-config-change-time", "printer-config-change-date-time",
        "printer-current-time", "printer-up-time", "printer-is-accepting-jobs", "queued-job-count",
        "printer-uri-supported", "uri-security-supported", "uri-authentication-supported", "printer-icons",
        "printer-more-info", "printer-supply-info-uri", "printer-uuid", "printer-name", "printer-dns-sd-name",
        "printer-alert", "printer-alert-description", "printer-message-from-operator", "printer-message-time",
        "printer-message-date-time", "printer-id", "printer-xri-supported", "printer-strings-uri",
        "printer-detailed-status-messages", "printer-impressions-completed", "printer-media-sheets-completed",
        "printer-pages-completed", "printer-impressions-completed-col", "printer-media-sheets-completed-col",
        "printer-pages-completed-col", "marker-change-time", "device-uri", "printer-static-resource-directory-uri",
        "printer-static-resource-k-octets-free", "job-ids-supported-uri", "printer-service-contact-col",
        "printer-contact-col", "printer-uri", "printer-is-shared", "printer-type", "printer-state-change-time",
        "printer-config-changes", "attributes-charset", "attributes-natural-language",
    ]

    /// Rounds of fix-up: derive, compare, add raw attributes; the second round only confirms.
    static let fixUpRounds = 3

    /// Clones `attributes` (a printer's printer-attributes group); `name` names the profile (default: from
    /// printer-name), `source` says where the attributes came from (for the profile's `info` fallback only).
    public static func clone(attributes: [IPPAttribute], txt: [(String, String)]?, name: String?, source: String)
        -> Clone
    {
        var original: [String: IPPAttribute] = [:]
        var order: [String] = []
        for attribute in attributes where !volatileAttributes.contains(attribute.name) {
            if original[attribute.name] == nil { order.append(attribute.name) }
            original[attribute.name] = attribute
        }
        let printerName = attributes.first { $0.name == "printer-name" }?.value?.stringValue
        let profileName = slug(name ?? printerName ?? "clone")
        var warnings: [String] = []
        var keys = ProfileMapping(original, name: profileName).keys
        var raw: [String: IPPAttribute] = [:]
        var profile: PrinterProfile?
        // Keys the profile format refuses go back to their defaults; the raw attributes then say the rest.
        for _ in 0..<24 {
            let candidate = Clone(json: keys + rawEntry(raw), warnings: [])
            do {
                profile = try candidate.profile(file: "\(profileName).json")
                break
            } catch {
                guard let path = error.keyPath, let top = path.split(whereSeparator: { ".[".contains($0) }).first,
                    keys.contains(where: { $0.key == String(top) }), String(top) != "name"
                else {
                    warnings.append("the profile could not be made: \(error)")
                    break
                }
                warnings.append("\(top): left to its default (\(error))")
                keys.removeAll { $0.key == String(top) }
                keys = ProfileMapping.fillRequired(keys)
            }
        }
        guard var current = profile else { return Clone(json: keys, warnings: warnings) }
        for round in 0..<fixUpRounds {
            let answer = offlineAnswer(current, name: printerName ?? profileName)
            var changed = false
            for name in order {
                guard let wanted = original[name] else { continue }
                if answer[name]?.canonical != wanted.canonical, raw[name]?.canonical != wanted.canonical {
                    raw[name] = wanted
                    changed = true
                }
            }
            for (name, _) in answer where original[name] == nil && !volatileAttributes.contains(name) {
                let deletion = IPPAttribute(name: name, values: [.outOfBand(.deleteAttribute)])
                if raw[name] != deletion {
                    raw[name] = deletion
                    changed = true
                }
            }
            guard changed || round == 0 else { break }
            do {
                current = try Clone(json: keys + rawEntry(raw), warnings: []).profile(file: "\(profileName).json")
            } catch {
                warnings.append("raw attributes refused: \(error)")
                break
            }
        }
        let final = offlineAnswer(current, name: printerName ?? profileName)
        for name in order where final[name]?.canonical != original[name]?.canonical {
            warnings.append("\(name): vprinter answers \(final[name].map(IPPText.line) ?? "nothing") instead")
        }
        for (name, _) in final.sorted(by: { $0.key < $1.key })
        where original[name] == nil && !volatileAttributes.contains(name) {
            warnings.append("\(name): vprinter adds it (not in the original)")
        }
        _ = txt
        return Clone(json: keys + rawEntry(raw), warnings: warnings)
    }

    /// The `attributes` key of a profile holding the raw attributes, sorted by name.
    static func rawEntry(_ raw: [String: IPPAttribute]) -> [(key: String, value: ProfileJSON)] {
        guard !raw.isEmpty else { return [] }
        let members = raw.sorted { $0.key < $1.key }.map { ($0.key, ProfileJSON(IPPJSON.exactJSON(of: $0.value))) }
        return [("attributes", .object(members))]
    }

    /// What a printer with `profile` answers to Get-Printer-Attributes `all,media-col-database`, by name.
    static func offlineAnswer(_ profile: PrinterProfile, name: String) -> [String: IPPAttribute] {
        let printer = Printer.offline(profile: profile, name: name)
        var answer: [String: IPPAttribute] = [:]
        for attribute in printer.answerPrinterAttributes() { answer[attribute.name] = attribute }
        return answer
    }

    /// A profile name from a printer name: lower-case letters, digits and `-`.
    static func slug(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        while result.hasPrefix("-") { result.removeFirst() }
        return result.isEmpty ? "clone" : String(result.prefix(64))
    }
}

extension ProfileCloner.Clone {
    /// The clone with a `txt` key holding these DNS-SD TXT overrides (nil values remove a derived key).
    public func withTXTOverrides(_ overrides: [(key: String, value: String?)]) -> ProfileCloner.Clone {
        guard !overrides.isEmpty else { return self }
        var copy = self
        copy.json.removeAll { $0.key == "txt" }
        let members = overrides.map { ($0.key, $0.value.map { ProfileJSON.string($0) } ?? .null) }
        let index = copy.json.firstIndex { $0.key == "attributes" } ?? copy.json.endIndex
        copy.json.insert(("txt", .object(members)), at: index)
        return copy
    }
}
