import IPP

/// How `IPPJSON` infers IPP syntaxes from attribute names when reading JSON.
///
/// The attribute's base name (without -default, -supported, -ready, -actual) decides:
/// - enum-valued (IPPEnumNames knows it, or `landscape-orientation-requested-preferred`): numbers and keywords
///   become enums;
/// - names containing `date-time`: strings are ISO 8601 dateTime;
/// - the tables below: text, name, uri (also every base name ending in `-uri`), uriScheme, charset,
///   naturalLanguage, mimeMediaType, octetString;
/// - any other string is a keyword when it has keyword syntax (RFC 8011 section 5.1.4), else text.
/// Numbers are integers, JSON true/false booleans; a string for an integer-only attribute (`integerAttributes`,
/// e.g. copies, x-dimension, media-top-margin) is an error. Objects are ranges, resolutions, out-of-band values or
/// collections (see `IPPJSON`).
enum IPPJSONSyntax {
    /// The string syntaxes the tables choose from.
    enum StringSyntax {
        case text, name, keyword, uri, uriScheme, charset, naturalLanguage, mimeMediaType, octetString
    }

    /// Out-of-band values by their RFC 8010 names.
    static let outOfBandTags: [String: IPPTag] = [
        "unsupported": .unsupported, "unknown": .unknown, "no-value": .noValue, "not-settable": .notSettable,
        "delete-attribute": .deleteAttribute, "admin-define": .adminDefine,
    ]

    /// Attributes and members that only take integers, so that a string for them is an error, not a keyword.
    static let integerAttributes: Set<String> = [
        "copies", "copies-default", "x-dimension", "y-dimension", "media-bottom-margin", "media-left-margin",
        "media-right-margin", "media-top-margin", "number-up", "number-up-default", "job-priority", "pages-per-minute",
        "pages-per-minute-color", "multiple-operation-time-out", "document-password-supported", "marker-levels",
        "marker-low-levels", "marker-high-levels", "job-id", "document-number", "media-weight-metric",
    ]

    /// Enum attributes whose keyword names are those of another attribute.
    static let enumAliases: [String: String] = [
        "landscape-orientation-requested-preferred": "orientation-requested"
    ]

    static func isEnum(_ attribute: String) -> Bool {
        IPPEnumNames.hasNames(attribute: enumAliases[attribute] ?? attribute)
    }

    static func enumKeyword(attribute: String, value: Int32) -> String? {
        IPPEnumNames.keyword(attribute: enumAliases[attribute] ?? attribute, value: value)
    }

    /// The IPP value of a JSON string for an attribute.
    static func stringValue(_ text: String, attribute: String, path: String) throws(IPPJSONError) -> IPPValue {
        if isEnum(attribute) {
            guard let value = IPPEnumNames.value(attribute: enumAliases[attribute] ?? attribute, keyword: text) else {
                throw .unknownEnumKeyword(path: path, keyword: text)
            }
            return .enumValue(value)
        }
        if integerAttributes.contains(attribute) { throw .notAnInteger(path: path) }
        if attribute.contains("date-time") {
            guard let date = parseDateTime(text) else { throw .badDateTime(path: path, text: text) }
            return .dateTime(date)
        }
        switch syntax(of: attribute) {
        case .text: return .text(text)
        case .name: return .name(text)
        case .uri: return .uri(text)
        case .uriScheme: return .uriScheme(text)
        case .charset: return .charset(text)
        case .naturalLanguage: return .naturalLanguage(text)
        case .mimeMediaType: return .mimeMediaType(text)
        case .octetString: return .octetString(Array(text.utf8))
        case .keyword: return IPPKeyword.isValid(text) ? .keyword(text) : .text(text)
        }
    }

    /// The string syntax of an attribute or collection member, by its base name.
    static func syntax(of attribute: String) -> StringSyntax {
        let base = baseName(attribute)
        if let known = table[base] { return known }
        if base.hasSuffix("-uri") || base.hasSuffix("-uris") { return .uri }
        return .keyword
    }

    /// Whether a single value is still written as a JSON array: 1setOf attributes (job-state-reasons, finishings,
    /// page-ranges ...), every `-reasons`, `-ready` and `-database` attribute, and `-supported` attributes unless
    /// their value is a boolean, integer or range (copies-supported, job-ids-supported ...).
    static func isSetOf(_ attribute: String, firstValue: IPPValue) -> Bool {
        if setOf.contains(attribute) { return true }
        if attribute.hasSuffix("-reasons") || attribute.hasSuffix("-ready") || attribute.hasSuffix("-database") {
            return true
        }
        if attribute.hasSuffix("-supported") && attribute != "pdl-override-supported" {
            switch firstValue {
            case .boolean, .integer, .rangeOfInteger: return false
            default: return true
            }
        }
        return false
    }

    private static let setOf: Set<String> = [
        "finishings", "finishings-col", "page-ranges", "overrides", "pages", "document-numbers",
        "printer-icons", "printer-supply", "printer-supply-description", "printer-input-tray", "printer-output-tray",
        "marker-names", "marker-colors", "marker-levels", "marker-low-levels", "marker-high-levels", "marker-types",
        "printer-kind", "printer-alert", "printer-alert-description", "job-detailed-status-messages",
        "job-document-access-errors", "insert-sheet", "materials-col", "finishings-default", "urf-supported",
    ]

    private static func baseName(_ attribute: String) -> String {
        for suffix in ["-default", "-supported", "-ready", "-actual"] where attribute.hasSuffix(suffix) {
            return String(attribute.dropLast(suffix.count))
        }
        return attribute
    }

    private static let table: [String: StringSyntax] = {
        var table: [String: StringSyntax] = [:]
        let text = [
            "printer-info", "printer-location", "printer-make-and-model", "printer-device-id", "printer-organization",
            "printer-organizational-unit", "printer-supply-description", "printer-state-message", "job-state-message",
            "printer-message-from-operator", "job-message-from-operator", "status-message", "detailed-status-message",
            "media-info", "printer-firmware-string-version", "printer-firmware-patches", "printer-alert-description",
            "job-detailed-status-messages", "document-state-message", "printer-charge-info",
        ]
        let name = [
            "job-name", "job-originating-user-name", "requesting-user-name", "printer-name", "document-name",
            "job-account-id", "job-accounting-user-id", "printer-firmware-name", "output-device-assigned",
            "marker-names", "marker-colors", "printer-dns-sd-name", "job-originating-host-name", "output-device",
        ]
        let uri = [
            "printer-icons", "printer-more-info", "printer-more-info-manufacturer", "printer-geo-location",
            "printer-uuid", "job-uuid", "document-uuid", "printer-driver-installer", "job-more-info",
        ]
        for attribute in text { table[attribute] = .text }
        for attribute in name { table[attribute] = .name }
        for attribute in uri { table[attribute] = .uri }
        for attribute in ["reference-uri-schemes"] { table[attribute] = .uriScheme }
        for attribute in ["attributes-charset", "charset-configured", "charset"] { table[attribute] = .charset }
        for attribute in [
            "attributes-natural-language", "natural-language-configured", "generated-natural-language",
            "document-natural-language",
        ] { table[attribute] = .naturalLanguage }
        for attribute in ["document-format", "document-format-detected", "document-format-device"] {
            table[attribute] = .mimeMediaType
        }
        for attribute in [
            "printer-supply", "printer-input-tray", "printer-output-tray", "printer-alert", "printer-firmware-version",
        ] { table[attribute] = .octetString }
        return table
    }()

    /// Parses `YYYY-MM-DDTHH:MM:SS[.s...](Z|+HH:MM|-HH:MM)` (RFC 3339) into a dateTime.
    static func parseDateTime(_ text: String) -> IPPDateTime? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var deciSeconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard let tenth = number(index, 1) else { return nil }
            deciSeconds = tenth
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        guard index < bytes.count else { return nil }
        var direction = UInt8(ascii: "+")
        var zoneHours = 0
        var zoneMinutes = 0
        if bytes[index] == UInt8(ascii: "Z") {
            guard index + 1 == bytes.count else { return nil }
        } else {
            guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
                bytes[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1, 2),
                let minutes = number(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            direction = bytes[index]
            zoneHours = hours
            zoneMinutes = minutes
        }
        return IPPDateTime(
            year: UInt16(year), month: UInt8(month), day: UInt8(day), hour: UInt8(hour), minutes: UInt8(minute),
            seconds: UInt8(second), deciSeconds: UInt8(deciSeconds), utcDirection: direction,
            utcHours: UInt8(zoneHours), utcMinutes: UInt8(zoneMinutes))
    }
}
