import Foundation
import IPP
import Testing

@testable import VirtualPrinter

/// RecordJSONWriter: the same JSON as JSONSerialization (.prettyPrinted, .sortedKeys, .withoutEscapingSlashes)
/// reads back, keys in order, strings escaped as RFC 8259 says, and a clean error for what JSON cannot hold.
@Suite struct RecordJSONWriterTests {
    func parsed(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    @Test func aJobRecordReadsBackAsJSONSerializationWritesIt() throws {
        let job = try JobRecorderTests().sampleJob()
        let record = JobRecorder.record(of: job)
        let ours = try RecordJSONWriter.encode(record)
        let foundation = try JSONSerialization.data(
            withJSONObject: record, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        #expect(try parsed(ours) == parsed(Array(foundation)))
    }

    @Test func keysAreSortedAndIndentedTwoSpaces() throws {
        let text = String(
            decoding: try RecordJSONWriter.encode(["b": 1, "a": ["y": true, "x": NSNull()], "c": [1, "two"]]),
            as: UTF8.self)
        #expect(
            text == """
                {
                  "a" : {
                    "x" : null,
                    "y" : true
                  },
                  "b" : 1,
                  "c" : [
                    1,
                    "two"
                  ]
                }
                """)
    }

    @Test func emptyContainersNumbersAndBooleans() throws {
        let text = String(
            decoding: try RecordJSONWriter.encode([
                "empty": [String: Any](), "none": [Any](), "int32": Int32(-7), "double": 2.5, "whole": 3.0,
                "no": false,
            ]), as: UTF8.self)
        for line in [
            "\"empty\" : {}", "\"none\" : []", "\"int32\" : -7", "\"double\" : 2.5", "\"whole\" : 3", "\"no\" : false",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
    }

    @Test func stringsAreEscapedAndSlashesLeftAlone() throws {
        let name = "a \"quoted\" back\\slash\n\t\u{01} ipp://host/ipp/print é 🖨"
        let bytes = try RecordJSONWriter.encode(["job-name": name])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"a \"quoted\" back\\slash\n\t\u0001 ipp://host/ipp/print é 🖨"#))
        #expect(try parsed(bytes)["job-name"] as? String == name)
    }

    @Test func numbersFromJSONSerializationKeepTheirKind() throws {
        let read = try #require(
            try JSONSerialization.jsonObject(with: Data(#"{"flag": true, "count": 1, "ratio": 0.5}"#.utf8))
                as? [String: Any])
        let text = String(decoding: try RecordJSONWriter.encode(read), as: UTF8.self)
        #expect(text.contains("\"flag\" : true") && text.contains("\"count\" : 1") && text.contains("\"ratio\" : 0.5"))
    }

    @Test func whatJSONCannotHoldIsAnError() {
        #expect(throws: RecordJSONWriter.Unsupported.self) { try RecordJSONWriter.encode(["x": Double.nan]) }
        #expect(throws: RecordJSONWriter.Unsupported.self) { try RecordJSONWriter.encode(["x": Date()]) }
    }
}
