import Foundation
import PrintModel
import Testing

/// JobRecord, the one reader and writer of job.json: what it writes matches docs/job-record.schema.json (the
/// contract), reads back as written, and records of older versions still read.
@Suite struct JobRecordTests {
    /// A record with every optional part filled in: ignored attributes, warnings, facts, a canceled document.
    static func sample() -> JobRecord {
        let facts = SideFacts(
            blank: false, inkCoverage: InkCoverage(cyan: 0.5, magenta: 0, yellow: 12.25, black: 3),
            hasColor: true, outsidePrintableArea: false)
        return JobRecord(
            printerName: "desk", jobID: 7, jobUUID: "urn:uuid:7a3d7a3d-0000-4000-8000-000000000007",
            jobName: "invoice/42", jobOriginatingUserName: "alice", jobPrinterURI: "ipp://localhost:8631/ipp/print",
            jobState: .completed, jobStateReasons: ["job-completed-successfully"], jobStateMessage: "Job completed.",
            attributes: [
                "copies": .number(2), "sides": .string("two-sided-long-edge"),
                "media-col": .object([
                    "media-size": .object(["x-dimension": .number(21000), "y-dimension": .number(29700)])
                ]),
                "page-ranges": .array([.object(["lower": .number(1), "upper": .number(2)])]),
            ],
            documents: [
                .init(
                    documentNumber: 1, documentName: "invoice.pdf", documentFormat: .octetStream,
                    documentFormatDetected: .pdf, compression: "gzip", size: 1234,
                    sha256: String(repeating: "a", count: 64),
                    file: "document-1.pdf", pages: 2),
                .init(
                    documentNumber: 2, documentFormat: .octetStream, documentFormatDetected: nil, compression: "none",
                    size: 3, sha256: String(repeating: "b", count: 64), file: "document-2.bin",
                    documentState: "canceled"),
            ],
            impressions: [
                PrintedSide(
                    number: 1, file: "page-0001.png", sheet: 1, side: .front, width: 1240, height: 1754, dpi: 150,
                    color: true, pages: [PlacedPage(document: 1, page: 1)], facts: facts, textSource: .pdf),
                PrintedSide(
                    number: 2, file: "page-0002.png", sheet: 1, side: .back, width: 1240, height: 1754, dpi: 150,
                    color: true),
            ],
            sheets: 1, copies: 2, jobImpressions: 4, jobMediaSheets: 2, jobPages: 2,
            times: .init(
                created: "2026-12-01T10:00:00Z", processing: "2026-12-01T10:00:01Z", completed: "2026-12-01T10:00:02Z"),
            history: [
                .init(
                    time: "2026-12-01T10:00:00Z", jobState: .pending, jobStateReasons: ["job-incoming"],
                    jobStateMessage: "Waiting."),
                .init(
                    time: "2026-12-01T10:00:02Z", jobState: .completed, jobStateReasons: ["job-completed-successfully"]),
            ],
            client: .init(address: "127.0.0.1", userAgent: "CUPS/2.4.2"), creationOperation: "Print-Job",
            ignoredAttributes: [
                IgnoredAttribute(
                    name: "finishings", group: "job", sent: .array([.number(4)]), used: .array([.number(3)]),
                    reason: "unsupported-value", message: "finishings 4 is not supported")
            ],
            warnings: [JobWarning(kind: .pdf, document: 1, page: 2, message: "Syntax error at 120")],
            mediaActual: "iso_a4_210x297mm", sidesActual: "two-sided-long-edge", printColorModeActual: "color")
    }

    static var schemaURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/job-record.schema.json")
    }

    @Test func whatItWritesMatchesTheSchema() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let written = try JSONSerialization.jsonObject(with: Data(try Self.sample().encoded()))
        var problems: [String] = []
        SchemaCheck(root: schema).check(written, against: schema, at: "$", problems: &problems)
        #expect(problems == [])
    }

    @Test func theSchemaCheckFindsWhatDoesNotMatch() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        var written = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.sample().encoded())) as? [String: Any])
        written["unknown-key"] = 1
        written.removeValue(forKey: "job-uuid")
        written["copies"] = "two"
        var problems: [String] = []
        SchemaCheck(root: schema).check(written, against: schema, at: "$", problems: &problems)
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func aRecordReadsBackAsWritten() throws {
        let record = Self.sample()
        #expect(try JobRecord.decode(record.encoded()) == record)
    }

    @Test func documentFormatDetectedIsWrittenAsNullWhenNothingWasRecognised() throws {
        let text = String(decoding: try Self.sample().encoded(), as: UTF8.self)
        #expect(text.contains("\"document-format-detected\" : null"))
        #expect(text.contains("\"ink-coverage\" : {\n"))
        #expect(!text.contains("\\/"))
    }

    @Test func aRecordOfAnOlderVersionReads() throws {
        let old = """
            {"schema": 1, "printer-name": "p", "job-id": 3, "job-uuid": "urn:uuid:x", "job-state": "aborted",
             "impressions": [{"number": 1, "file": "page-0001.png", "sheet": 1, "side": "front", "width": 10,
                              "height": 10, "dpi": 72, "color": false, "blank": true, "ink-coverage": {"black": 0}}],
             "documents": [{"document-number": 1, "document-format": "application/pdf", "file": "document-1.pdf"}]}
            """
        let record = try JobRecord.decode(Array(old.utf8))
        #expect(record.jobState == .aborted && record.warnings == [] && record.ignoredAttributes == [])
        #expect(record.impressions[0].facts?.blank == true && record.impressions[0].facts?.hasColor == false)
        #expect(record.documents[0].documentFormatDetected == nil && record.documents[0].compression == "none")
    }

    @Test func whatIsNoRecordIsAnErrorNotACrash() {
        for text in [
            "", "{", "[]",
            #"{"schema": 2, "printer-name": "p", "job-id": 1, "job-uuid": "u", "job-state": "completed"}"#,
            #"{"schema": 1, "printer-name": "p", "job-id": 1, "job-uuid": "u", "job-state": "printing"}"#,
            #"{"schema": 1, "job-id": 1}"#,
        ] {
            #expect(throws: JobRecord.ReadError.self) { try JobRecord.decode(Array(text.utf8)) }
        }
    }
}

/// The parts of JSON Schema (draft 7) that docs/job-record.schema.json uses: type, required, properties,
/// additionalProperties false, items, enum, $ref to its definitions.
struct SchemaCheck {
    let root: [String: Any]

    func check(_ value: Any, against schema: [String: Any], at path: String, problems: inout [String]) {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            let definitions = root["definitions"] as? [String: Any] ?? [:]
            guard let target = definitions[name] as? [String: Any] else {
                problems.append("\(path): unknown $ref \(reference)")
                return
            }
            return check(value, against: target, at: path, problems: &problems)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as? String ?? ""]
            guard allowed.contains(where: { matches(value, type: $0) }) else {
                problems.append("\(path): \(value) is not \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let choices = schema["enum"] as? [Any], let text = value as? String,
            !choices.contains(where: { ($0 as? String) == text })
        {
            problems.append("\(path): \(text) is not one of \(choices)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): \(key) is missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object {
                if let memberSchema = properties[key] as? [String: Any] {
                    check(member, against: memberSchema, at: "\(path).\(key)", problems: &problems)
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): \(key) is not in the schema")
                } else if let extra = schema["additionalProperties"] as? [String: Any] {
                    check(member, against: extra, at: "\(path).\(key)", problems: &problems)
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", problems: &problems)
            }
        }
    }

    func matches(_ value: Any, type: String) -> Bool {
        let number = value as? NSNumber
        let isBool = number.map { String(cString: $0.objCType) == "c" } ?? false
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBool
        case "integer": return !isBool && number.map { $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "number": return !isBool && number != nil
        case "null": return value is NSNull
        default: return false
        }
    }
}
