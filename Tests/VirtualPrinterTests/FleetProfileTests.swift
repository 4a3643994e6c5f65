import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// Runtime printers (POST /api/v1/printers) resolve their profile as `vprinter --profile` does: a file that
/// `extends` a shipped profile, with feature keys and raw attributes, answers Get-Printer-Attributes as the same
/// profile does offline (volatile attributes and printer-id aside).
@Suite struct FleetProfileTests {
    @Test func aRuntimePrinterFromAProfileThatExtendsAnotherAnswersAsTheProfileSays() throws {
        let harness = try FleetHarness()
        let file = harness.folder.path + "/site.json"
        try #"""
        { "extends": "enterprise-laser", "makeAndModel": "Site Laser", "proofPrint": { "maximumCopies": 3 },
          "attributes": { "printer-geo-location": { "type": "uri", "value": "geo:47.1,8.5" } } }
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        let response = harness.request(
            "POST", "/api/v1/printers", body: #"{"name": "site laser", "profile": "\#(file)"}"#)
        #expect(response.status == 201)
        let answer = try harness.ipp(
            ippRequest(
                .getPrinterAttributes, printerURI: "ipp://localhost:631/ipp/print/site-laser",
                [IPPAttribute(name: "requested-attributes", values: [.keyword("all"), .keyword("media-col-database")])]
            ), path: "/ipp/print/site-laser")
        var runtime: [String: IPPAttribute] = [:]
        for attribute in answer[group: .printerAttributes]?.attributes ?? [] { runtime[attribute.name] = attribute }
        let profile = try PrinterProfile.load(
            file: file, searchDirectories: [repositoryRoot.appendingPathComponent("profiles").path])
        var offline: [String: IPPAttribute] = [:]
        for attribute in Printer.offline(profile: profile, name: "site laser").answerPrinterAttributes() {
            offline[attribute.name] = attribute
        }
        let ignored = ProfileCloner.volatileAttributes.union(["printer-id"])
        let differing = Set(runtime.keys).union(offline.keys).subtracting(ignored).filter {
            runtime[$0] != offline[$0]
        }
        #expect(differing.isEmpty, "\(differing.sorted())")
        #expect(
            runtime["printer-geo-location"] != nil && runtime["printer-geo-location"] == offline["printer-geo-location"]
        )
        #expect(runtime["proof-print-copies-supported"]?.value == .rangeOfInteger(0...3))
        #expect(runtime["printer-make-and-model"]?.value?.stringValue == "Site Laser")
        #expect(runtime["job-password-supported"] != nil)
    }
}

/// Files named by requests (issue 21 item 5): `POST /api/v1/printers` and Create-Printer read shipped profiles and
/// scenarios by name, and files only in a `--profile-dir` folder; anything else is refused with the same words
/// whether it exists or not, and what is read must be a small regular file (a FIFO or /dev/zero was read whole).
@Suite struct RequestedFileTests {
    @Test func aRequestNamesShippedProfilesOrFilesOfAnAllowedFolderOnly() throws {
        let harness = try FleetHarness()
        func create(_ body: String) -> (Int, String) {
            let response = harness.request("POST", "/api/v1/printers", body: body)
            guard case .bytes(let bytes) = response.body else { return (response.status, "") }
            return (response.status, String(decoding: bytes, as: UTF8.self))
        }
        let outside = try TemporaryFolder()
        try #"{"extends": "duplex-laser"}"#.write(toFile: outside.path + "/p.json", atomically: true, encoding: .utf8)
        let (existing, existingText) = create(#"{"name": "a", "profile": "\#(outside.path)/p.json"}"#)
        let (missing, missingText) = create(#"{"name": "a", "profile": "\#(outside.path)/none.json"}"#)
        #expect(existing == 400 && missing == 400)
        #expect(
            existingText.replacingOccurrences(of: "p.json", with: "X")
                == missingText.replacingOccurrences(of: "none.json", with: "X"),
            "the refusal says nothing of whether the file is there")
        for path in ["/dev/zero", "/etc/passwd", "../../etc/passwd", "printer.attrs", "\(harness.folder.path)/../x"] {
            #expect(create(#"{"name": "b", "profile": "\#(path)"}"#).0 == 400, "\(path)")
            #expect(create(#"{"name": "b", "scenario": "\#(path)"}"#).0 == 400, "\(path)")
        }
        #expect(create(#"{"name": "c", "profile": "color-inkjet", "scenario": "toner-low"}"#).0 == 201)
        try #"{"extends": "duplex-laser"}"#.write(
            toFile: harness.folder.path + "/mine.json", atomically: true, encoding: .utf8)
        #expect(create(#"{"name": "d", "profile": "\#(harness.folder.path)/mine.json"}"#).0 == 201)
    }

    @Test func onlySmallRegularFilesAreRead() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.contents(of: fifo, maximum: 1024) }
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.contents(of: "/dev/zero", maximum: 1024) }
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.contents(of: folder.path, maximum: 1024) }
        #expect(throws: BoundedFile.Failure.missing) { try BoundedFile.contents(of: folder.path + "/x", maximum: 9) }
        let big = folder.path + "/big.json"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 2048)))
        #expect(throws: BoundedFile.Failure.tooLarge(maximum: 1024)) {
            try BoundedFile.contents(of: big, maximum: 1024)
        }
        #expect(try BoundedFile.contents(of: big, maximum: 2048).count == 2048)
        #expect(throws: ProfileError.self) { try PrinterProfile.load(nameOrPath: fifo, searchDirectories: []) }
        #expect(throws: FaultSpecError.self) { try Scenario.load(file: "/dev/zero") }
    }
}
