import Foundation
import IPP
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
