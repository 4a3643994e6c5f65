/// Keyword names of enum-valued attributes (RFC 8011 section 5.4, PWG 5100.x, IANA IPP registry).
///
/// Lets job records and messages show `"orientation-requested": "portrait"` rather than 3. The attribute's
/// -default, -supported, -ready and -actual variants share the names of the base attribute.
public enum IPPEnumNames {
    /// The keyword for an enum value of an attribute, if one is registered.
    public static func keyword(attribute: String, value: Int32) -> String? {
        table(for: attribute)?[value]
    }

    /// The enum value for a keyword of an attribute, if one is registered.
    public static func value(attribute: String, keyword: String) -> Int32? {
        table(for: attribute)?.first { $0.value == keyword }?.key
    }

    /// True when the attribute (or its base) is enum-valued with registered names.
    public static func hasNames(attribute: String) -> Bool {
        table(for: attribute) != nil
    }

    private static func table(for attribute: String) -> [Int32: String]? {
        var base = Substring(attribute)
        for suffix in ["-default", "-supported", "-ready", "-actual"] where base.hasSuffix(suffix) {
            base = base.dropLast(suffix.count)
            break
        }
        switch base {
        case "printer-state": return printerState
        case "job-state", "document-state": return jobState
        case "orientation-requested", "input-orientation-requested": return orientation
        case "print-quality", "input-quality": return printQuality
        case "finishings": return finishings
        case "operations": return operations
        default: return nil
        }
    }

    static let printerState: [Int32: String] = [3: "idle", 4: "processing", 5: "stopped"]
    static let jobState: [Int32: String] = [
        3: "pending", 4: "pending-held", 5: "processing", 6: "processing-stopped", 7: "canceled", 8: "aborted",
        9: "completed",
    ]
    static let orientation: [Int32: String] = [
        3: "portrait", 4: "landscape", 5: "reverse-landscape", 6: "reverse-portrait", 7: "none",
    ]
    static let printQuality: [Int32: String] = [3: "draft", 4: "normal", 5: "high"]
    static let finishings: [Int32: String] = [
        3: "none", 4: "staple", 5: "punch", 6: "cover", 7: "bind", 8: "saddle-stitch", 9: "edge-stitch",
        10: "fold", 11: "trim", 12: "bale", 13: "booklet-maker", 14: "jog-offset", 15: "coat", 16: "laminate",
        20: "staple-top-left", 21: "staple-bottom-left", 22: "staple-top-right", 23: "staple-bottom-right",
        24: "edge-stitch-left", 25: "edge-stitch-top", 26: "edge-stitch-right", 27: "edge-stitch-bottom",
        28: "staple-dual-left", 29: "staple-dual-top", 30: "staple-dual-right", 31: "staple-dual-bottom",
        32: "staple-triple-left", 33: "staple-triple-top", 34: "staple-triple-right", 35: "staple-triple-bottom",
        50: "bind-left", 51: "bind-top", 52: "bind-right", 53: "bind-bottom", 60: "trim-after-pages",
        61: "trim-after-documents", 62: "trim-after-copies", 63: "trim-after-job", 70: "punch-top-left",
        71: "punch-bottom-left", 72: "punch-top-right", 73: "punch-bottom-right", 74: "punch-dual-left",
        75: "punch-dual-top", 76: "punch-dual-right", 77: "punch-dual-bottom", 78: "punch-triple-left",
        79: "punch-triple-top", 80: "punch-triple-right", 81: "punch-triple-bottom", 82: "punch-quad-left",
        83: "punch-quad-top", 84: "punch-quad-right", 85: "punch-quad-bottom", 90: "fold-accordion",
        91: "fold-double-gate", 92: "fold-gate", 93: "fold-half", 94: "fold-half-z", 95: "fold-left-gate",
        96: "fold-letter", 97: "fold-parallel", 98: "fold-poster", 99: "fold-right-gate", 100: "fold-z",
    ]
    static let operations: [Int32: String] = {
        var names: [Int32: String] = [:]
        for code in UInt16(0x0002)...0x0040 {
            let operation = IPPOperation(rawValue: code)
            let name = operation.description
            if !name.hasPrefix("0x") { names[Int32(code)] = name }
        }
        return names
    }()
}
