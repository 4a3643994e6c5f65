import Foundation

/// The record keys of what was printed beyond the pixels: per job `ignored-attributes`, `warnings` and
/// the `*-actual` values, per impression the side's facts and text source. Written and read back here so that the
/// rest of the record's code stays as it is.
extension JobRecorder {
    /// The job-level keys.
    static func factsRecord(of job: Job) -> [String: Any] {
        var record: [String: Any] = [
            "ignored-attributes": job.ignoredAttributes.map { ignored in
                var entry: [String: Any] = [
                    "name": ignored.name, "group": ignored.group, "sent": ignored.sent.anyValue,
                    "reason": ignored.reason, "message": ignored.message,
                ]
                if let used = ignored.used { entry["used"] = used.anyValue }
                return entry
            },
            "warnings": job.warnings.map { warning in
                var entry: [String: Any] = ["kind": warning.kind, "message": warning.message]
                if let document = warning.document { entry["document"] = document }
                if let page = warning.page { entry["page"] = page }
                return entry
            },
        ]
        if let actual = job.actual {
            record["media-actual"] = actual.media
            record["sides-actual"] = actual.sides
            record["print-color-mode-actual"] = actual.printColorMode
        }
        return record
    }

    /// The impression-level keys.
    static func factsRecord(of impression: ImpressionRecord) -> [String: Any] {
        var record: [String: Any] = [:]
        if let facts = impression.facts {
            record["blank"] = facts.blank
            record["ink-coverage"] = facts.inkCoverage
            record["has-color"] = facts.hasColor
            record["outside-printable-area"] = facts.outsidePrintableArea
        }
        if let source = impression.textSource { record["text-source"] = source }
        return record
    }
}

extension Job {
    /// Reads the job-level keys back from a record (a restart).
    mutating func restoreFacts(from record: [String: Any]) {
        ignoredAttributes = (record["ignored-attributes"] as? [[String: Any]] ?? []).compactMap { entry in
            guard let name = entry["name"] as? String, let reason = entry["reason"] as? String else { return nil }
            return IgnoredAttribute(
                name: name, group: entry["group"] as? String ?? "job", sent: JSONValue(any: entry["sent"]),
                used: entry["used"].map { JSONValue(any: $0) }, reason: reason,
                message: entry["message"] as? String ?? "")
        }
        warnings = (record["warnings"] as? [[String: Any]] ?? []).compactMap { entry in
            guard let message = entry["message"] as? String else { return nil }
            return JobWarning(
                kind: entry["kind"] as? String ?? "document", document: entry["document"] as? Int,
                page: entry["page"] as? Int, message: message)
        }
        if let media = record["media-actual"] as? String, let sides = record["sides-actual"] as? String,
            let mode = record["print-color-mode-actual"] as? String
        {
            actual = ActualSettings(media: media, sides: sides, printColorMode: mode)
        }
    }

    /// The facts and text source of an impression's record, nil where the record has none.
    static func facts(ofImpression record: [String: Any]) -> (facts: ImpressionFacts?, textSource: String?) {
        var facts: ImpressionFacts?
        if let blank = record["blank"] as? Bool, let coverage = record["ink-coverage"] as? [String: Any] {
            facts = ImpressionFacts(
                blank: blank, inkCoverage: coverage.compactMapValues { ($0 as? NSNumber)?.doubleValue },
                hasColor: record["has-color"] as? Bool ?? false,
                outsidePrintableArea: record["outside-printable-area"] as? Bool ?? false)
        }
        return (facts, record["text-source"] as? String)
    }
}

extension JSONValue {
    /// The value of a `JSONSerialization` object (NSNull, NSNumber, String, arrays, dictionaries).
    init(any value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too, of Objective-C type "c" (char).
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let text as String: self = .string(text)
        case let list as [Any]: self = .array(list.map { JSONValue(any: $0) })
        case let object as [String: Any]: self = .object(object.mapValues { JSONValue(any: $0) })
        default: self = .string("\(value!)")
        }
    }

    /// The value as a `JSONSerialization` object; whole numbers as integers.
    var anyValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): intValue.map { $0 as Any } ?? value
        case .string(let value): value
        case .array(let values): values.map(\.anyValue)
        case .object(let members): members.mapValues(\.anyValue)
        }
    }
}
