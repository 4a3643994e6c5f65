import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// `vprinter clone` and `--profile FILE.attrs`: attributes in, a profile out that answers the same.
@Suite struct ProfileClonerTests {
    /// What a printer of `profile` answers, volatile attributes aside, by name.
    static func answer(_ profile: PrinterProfile, name: String = "original") -> [String: IPPAttribute] {
        var result: [String: IPPAttribute] = [:]
        for attribute in Printer.offline(profile: profile, name: name).answerPrinterAttributes()
        where !ProfileCloner.volatileAttributes.contains(attribute.name) {
            result[attribute.name] = attribute.canonical
        }
        return result
    }

    @Test(arguments: shippedPrinterProfileNames())
    func aCloneOfEachShippedProfileAnswersTheSame(name: String) throws {
        let original = try shippedProfile(name)
        let attributes = Printer.offline(profile: original, name: "original").answerPrinterAttributes()
        let clone = ProfileCloner.clone(attributes: attributes, txt: nil, name: "copy", source: "test")
        #expect(clone.warnings.isEmpty, "\(clone.warnings)")
        let copy = try clone.profile(file: "copy.json")
        let before = Self.answer(original)
        let after = Self.answer(copy)
        #expect(Set(before.keys) == Set(after.keys), "\(Set(before.keys).symmetricDifference(after.keys))")
        for (attribute, value) in before where after[attribute] != value {
            Issue.record(
                "\(attribute): \(IPPText.line(value)) became \(after[attribute].map(IPPText.line) ?? "nothing")")
        }
        // The clone says it with high-level keys: only what they cannot say is raw.
        #expect(copy.media.map(\.size) == original.media.map(\.size) && copy.resolutions == original.resolutions)
        // IPP says nothing of a scanner beside the printer (eSCL is another protocol): a clone prints only.
        var printing = original.features
        printing.scanner = nil
        #expect(copy.features == printing)
        #expect(copy.features.scanner == nil)
        #expect(copy.attributes.count <= 3, "raw: \(copy.attributes.map(\.name))")
    }

    @Test func volatileValuesAreDropped() throws {
        let attributes = Printer.offline(profile: try shippedProfile("duplex-laser"), name: "x")
            .answerPrinterAttributes()
        let text = ProfileCloner.clone(attributes: attributes, txt: nil, name: nil, source: "test").text
        for volatile in ["printer-uuid", "printer-up-time", "printer-state", "printer-uri-supported", "printer-icons"] {
            #expect(!text.contains(volatile), "\(volatile) in the clone")
        }
        #expect(!text.contains("urn:uuid:"))
    }

    @Test func attributesTheProfileCannotSayBecomeTypedRawAttributes() throws {
        var attributes = Printer.offline(profile: try shippedProfile("duplex-laser"), name: "x")
            .answerPrinterAttributes()
        attributes.removeAll { $0.name == "print-content-optimize-supported" || $0.name == "job-sheets-supported" }
        attributes += [
            IPPAttribute("print-content-optimize-supported", .keyword("auto")),
            IPPAttribute("job-sheets-supported", .name("none")),
            IPPAttribute("printer-charge-info", .text("Free of charge")),
        ]
        attributes.removeAll { $0.name == "identify-actions-default" }
        let clone = ProfileCloner.clone(attributes: attributes, txt: nil, name: "t", source: "test")
        #expect(clone.warnings.isEmpty, "\(clone.warnings)")
        #expect(clone.text.contains(#""job-sheets-supported": { "@syntax": "nameWithoutLanguage", "@value": "none" }"#))
        let answer = Self.answer(try clone.profile(file: "t.json"), name: "x")
        #expect(answer["print-content-optimize-supported"]?.values == [.keyword("auto")])
        #expect(answer["job-sheets-supported"]?.values == [.name("none")])
        #expect(answer["printer-charge-info"]?.values == [.text("Free of charge")])
        #expect(answer["identify-actions-default"] == nil, "deleted as the original has none")
    }

    @Test func operationsThePrinterLacksAreRefusedAndThoseVprinterLacksAreNotAdvertised() throws {
        var attributes = Printer.offline(profile: try shippedProfile("duplex-laser"), name: "x")
            .answerPrinterAttributes()
        attributes.removeAll { $0.name == "operations-supported" }
        attributes.append(
            IPPAttribute(
                name: "operations-supported",
                values: [2, 3, 4, 5, 6, 8, 9, 10, 11, 0x27, 0x39, 0x3B, 0x3C].map { .enumValue($0) }))
        let clone = ProfileCloner.clone(attributes: attributes, txt: nil, name: "t", source: "test")
        #expect(clone.warnings.count == 1 && clone.warnings[0].hasPrefix("operations-supported"), "\(clone.warnings)")
        let printer = Printer.offline(profile: try clone.profile(file: "t.json"), name: "x")
        let operations = printer.answerPrinterAttributes().first { $0.name == "operations-supported" }?.values ?? []
        #expect(!operations.contains(.enumValue(0x27)), "Deactivate-Printer is not implemented, so not advertised")
        #expect(operations.contains(.enumValue(3)), "Print-URI: the original lists it, and vprinter fetches documents")
        #expect(!operations.contains(.enumValue(0x0D)), "Release-Job: the original does not list it")
        #expect(operations.contains(.enumValue(2)))
    }
}

/// The `ipptool --ippserver` attribute file format.
@Suite struct IPPServerAttributeFileTests {
    static let sample = """
        # A capture
        ATTR boolean color-supported false
        ATTR rangeOfInteger copies-supported 1-999
        ATTR enum finishings-supported 3,4
        ATTR enum orientation-requested-default portrait
        ATTR collection media-col-default {
            MEMBER collection media-size {
                MEMBER integer x-dimension 21590
                MEMBER integer y-dimension 27940
            }
            MEMBER keyword media-source "main"
        }
        ATTR integer media-bottom-margin-supported 0,1168
        ATTR resolution printer-resolution-supported 300dpi,600x1200dpi
        ATTR octetString printer-supply "index=1;type=toner;level=75;",<00ff>
        ATTR textWithoutLanguage printer-location "Room \\"12\\", left"
        ATTR nameWithoutLanguage job-sheets-supported "none"
        ATTR unknown printer-geo-location
        ATTR dateTime printer-current-time 2026-12-01T07:07:02Z
        ATTR keyword ipp-versions-supported 1.1,2.0
        """

    @Test func everySyntaxReads() throws {
        let attributes = try IPPServerAttributeFile.attributes(Data(Self.sample.utf8), file: "s.attrs")
        let byName = Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0) })
        #expect(byName["color-supported"]?.values == [.boolean(false)])
        #expect(byName["copies-supported"]?.values == [.rangeOfInteger(1...999)])
        #expect(byName["finishings-supported"]?.values == [.enumValue(3), .enumValue(4)])
        #expect(byName["orientation-requested-default"]?.values == [.enumValue(3)])
        let size = byName["media-col-default"]?.value?.collectionValue?["media-size"]?.value?.collectionValue
        #expect(size?["y-dimension"]?.values == [.integer(27940)])
        #expect(
            byName["printer-resolution-supported"]?.values.last
                == .resolution(IPPResolution(crossFeed: 600, feed: 1200)))
        #expect(byName["printer-supply"]?.values.last == .octetString([0, 255]))
        #expect(byName["printer-location"]?.values == [.text("Room \"12\", left")])
        #expect(byName["job-sheets-supported"]?.values == [.name("none")])
        #expect(byName["printer-geo-location"]?.values == [.outOfBand(.unknown)])
        #expect(byName["ipp-versions-supported"]?.values == [.keyword("1.1"), .keyword("2.0")])
        #expect(IPPServerAttributeFile.looksLikeAttributeFile(Data(Self.sample.utf8)))
        #expect(!IPPServerAttributeFile.looksLikeAttributeFile(Data("{ \"name\": \"x\" }".utf8)))
    }

    @Test func writtenFilesReadBackTheSame() throws {
        let attributes = Printer.offline(profile: try shippedProfile("office-mfp"), name: "x").answerPrinterAttributes()
        let text = IPPServerAttributeFile.write(attributes)
        let back = try IPPServerAttributeFile.attributes(Data(text.utf8), file: "w.attrs")
        #expect(back.map(\.name) == attributes.map(\.name))
        // dateTime text has no tenths of a second (ipptool writes none either): those values are compared to the
        // second.
        for (read, written) in zip(back, attributes)
        where read.canonical != written.canonical && !written.name.hasSuffix("date-time")
            && written.name != "printer-current-time"
        {
            Issue.record("\(written.name): wrote \(IPPText.line(written)), read \(IPPText.line(read))")
        }
    }

    @Test func errorsNameTheFileAndTheLine() {
        let cases = [
            ("ATTR integer copies-default one\n", "line 1"),
            ("ATTR boolean color-supported false\nATTR collection media-col-default 7\n", "line 2"),
            ("ATTR collection media-col-default {\n  MEMBER integer x 1\n", "line 1"),
            ("ATTR frobnicate x 1\n", "line 1"),
            ("MEMBER integer x 1\n", "line 1"),
            ("ATTR rangeOfInteger copies-supported 9-1\n", "line 1"),
        ]
        for (text, line) in cases {
            #expect {
                _ = try IPPServerAttributeFile.attributes(Data(text.utf8), file: "bad.attrs")
            } throws: { error in
                guard case .invalidValue(let file, let path, _)? = error as? ProfileError else { return false }
                return file == "bad.attrs" && path == line
            }
        }
        let deep =
            String(repeating: "ATTR collection a {\n", count: 1)
            + String(repeating: "MEMBER collection b {\n", count: 12)
        #expect(throws: ProfileError.self) {
            _ = try IPPServerAttributeFile.attributes(Data(deep.utf8), file: "d.attrs")
        }
    }

    @Test func anAttributeFileIsAProfile() throws {
        let folder = try TemporaryFolder()
        let attributes = Printer.offline(profile: try shippedProfile("label-printer"), name: "x")
            .answerPrinterAttributes()
        let path = folder.path + "/capture.attrs"
        try IPPServerAttributeFile.write(attributes).write(toFile: path, atomically: true, encoding: .utf8)
        let profile = try PrinterProfile.load(nameOrPath: path, searchDirectories: [])
        #expect(profile.name == "capture")
        #expect(profile.resolutions == [203, 300])
        #expect(
            ProfileClonerTests.answer(profile, name: "x")
                == ProfileClonerTests.answer(try shippedProfile("label-printer"), name: "x"))
    }
}
