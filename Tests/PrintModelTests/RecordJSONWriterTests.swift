import Foundation
import PrintModel
import Testing

/// RecordJSONWriter: the JSON text job records have always had (as JSONSerialization writes with
/// .prettyPrinted, .sortedKeys, .withoutEscapingSlashes), keys in order, strings escaped as RFC 8259 says, and a
/// clean error for what JSON cannot hold.
@Suite struct RecordJSONWriterTests {
    func parsed(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    func text(_ value: JSONValue) throws -> String {
        String(decoding: try RecordJSONWriter.encode(value), as: UTF8.self)
    }

    @Test func keysAreSortedAndIndentedTwoSpaces() throws {
        let value: JSONValue = .object([
            "b": .number(1), "a": .object(["y": .bool(true), "x": .null]), "c": .array([.number(1), .string("two")]),
        ])
        #expect(
            try text(value) == """
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

    @Test func aLineIsOneLineWithoutSpacesAndEndsWithANewline() throws {
        let value: JSONValue = .object([
            "b": .number(1), "a": .object(["y": .bool(true), "x": .null]),
            "c": .array([.number(1.5), .string("t\no")]),
            "d": .object([:]), "e": .array([]),
        ])
        let line = String(decoding: try RecordJSONWriter.line(value), as: UTF8.self)
        #expect(line == #"{"a":{"x":null,"y":true},"b":1,"c":[1.5,"t\no"],"d":{},"e":[]}"# + "\n")
    }

    @Test func emptyContainersNumbersAndBooleans() throws {
        let written = try text(
            .object([
                "empty": .object([:]), "none": .array([]), "negative": .number(-7), "double": .number(2.5),
                "whole": .number(3.0), "no": .bool(false),
            ]))
        for line in [
            "\"empty\" : {}", "\"none\" : []", "\"negative\" : -7", "\"double\" : 2.5", "\"whole\" : 3",
            "\"no\" : false",
        ] {
            #expect(written.contains(line), "\(line) in \(written)")
        }
    }

    @Test func stringsAreEscapedAndSlashesLeftAlone() throws {
        let name = "a \"quoted\" back\\slash\n\t\u{01} ipp://host/ipp/print é 🖨"
        let bytes = try RecordJSONWriter.encode(.object(["job-name": .string(name)]))
        let written = String(decoding: bytes, as: UTF8.self)
        #expect(written.contains(#"a \"quoted\" back\\slash\n\t\u0001 ipp://host/ipp/print é 🖨"#))
        #expect(try parsed(bytes)["job-name"] as? String == name)
    }

    @Test func whatJSONCannotHoldIsAnError() {
        #expect(throws: RecordJSONWriter.Unsupported.self) {
            try RecordJSONWriter.encode(.object(["x": .number(.nan)]))
        }
        #expect(throws: RecordJSONWriter.Unsupported.self) {
            try RecordJSONWriter.encode(.array([.number(.infinity)]))
        }
    }
}
