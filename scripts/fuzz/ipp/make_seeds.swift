// Writes the generated part of the IPP seed corpus: messages using the syntaxes the CUPS captures in
// seeds/ lack (WithLanguage forms, extension and unknown tags, deep nesting, 1setOf of mixed tags).
//
//   swiftc -parse-as-library $(cat sources) make_seeds.swift -o make_seeds && ./make_seeds seeds

import Foundation

@main
enum MakeSeeds {
    static func main() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "seeds")
        for (name, message) in [
            ("generated-every-syntax.bin", everySyntax), ("generated-deep-nesting.bin", deepNesting),
        ] {
            try Data(IPPEncoder.encode(message) + Array("document".utf8)).write(to: folder.appendingPathComponent(name))
        }
    }

    static var operationGroup: IPPAttributeGroup {
        var group = IPPAttributeGroup(tag: .operationAttributes)
        group.append("attributes-charset", .charset("utf-8"))
        group.append("attributes-natural-language", .naturalLanguage("en"))
        group.append("printer-uri", .uri("ipp://localhost/ipp/print"))
        return group
    }

    static var everySyntax: IPPMessage {
        var job = IPPAttributeGroup(tag: .jobAttributes)
        job.append("job-name", .nameWithLanguage(language: "fr", name: "Relevé"))
        job.append("job-message-to-operator", .textWithLanguage(language: "de", text: "Grüße"))
        job.append("number-up", .integer(1), .rangeOfInteger(2...4), .outOfBand(.noValue), .keyword("auto"))
        job.append("job-hold-until-time", .dateTime(IPPDateTime(secondsSince1970: 1_800_000_000)))
        job.append("vendor-extension", .other(tag: .extension, bytes: [0x40, 0, 0, 1, 0xAB]))
        job.append("vendor-unknown", .other(tag: IPPTag(rawValue: 0x38), bytes: [1, 2, 3]))
        job.append(
            "printer-resolution", .resolution(IPPResolution(crossFeed: 300, feed: 300, units: .dotsPerCentimeter)))
        job.append("printer-geo-location", .outOfBand(.unknown))
        job.append("job-password", .octetString([0, 255]))
        job.append("ipp-attribute-fidelity", .boolean(false))
        job.append("print-quality", .enumValue(5))
        return IPPMessage(operation: .printJob, requestID: 1, groups: [operationGroup, job])
    }

    static var deepNesting: IPPMessage {
        var value = IPPValue.integer(1)
        for level in 0..<IPPLimits.maximumCollectionDepth {
            value = .collection([IPPAttribute("level-\(level)", value), IPPAttribute("k", .keyword("v"))])
        }
        var job = IPPAttributeGroup(tag: .jobAttributes)
        job.append("deep-col", value, .collection([]))
        return IPPMessage(operation: .createJob, requestID: 2, groups: [operationGroup, job])
    }
}
