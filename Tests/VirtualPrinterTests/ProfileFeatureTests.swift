import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// The feature keys: page ranges and print scaling present or absent, finishing templates, job password, job
/// storage and proof print; each checked and derived as docs/profiles.md says.
@Suite struct ProfileFeatureTests {
    func attributes(_ object: [String: Any]) throws -> [IPPAttribute] {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try PrinterProfile.decode(data, file: "test.json").printerAttributes(
            context: ProfileAttributeContext(printerName: "t"))
    }

    func strings(_ attributes: [IPPAttribute], _ name: String) -> [String] {
        attributes[name]?.values.compactMap(\.stringValue) ?? []
    }

    @Test func pageRangesFollowPDFUnlessTheProfileSays() throws {
        var object = try shippedProfileJSON("duplex-laser")
        #expect(try attributes(object)["page-ranges-supported"]?.value == .boolean(true))
        object["pageRanges"] = false
        let without = try attributes(object)
        #expect(without["page-ranges-supported"]?.value == .boolean(false))
        #expect(!strings(without, "job-creation-attributes-supported").contains("page-ranges"))
        let raster = try attributes(try shippedProfileJSON("airprint-raster"))
        #expect(raster["page-ranges-supported"]?.value == .boolean(false))
    }

    @Test func printScalingFalseLeavesEveryPrintScalingAttributeOut() throws {
        var object = try shippedProfileJSON("duplex-laser")
        object["printScaling"] = false
        let without = try attributes(object)
        #expect(without["print-scaling-supported"] == nil && without["print-scaling-default"] == nil)
        #expect(!strings(without, "job-creation-attributes-supported").contains("print-scaling"))
        object["printScaling"] = ["fit", "none"]
        let some = try attributes(object)
        #expect(strings(some, "print-scaling-supported") == ["fit", "none"])
        #expect(strings(some, "print-scaling-default") == ["fit"], "auto is the default only when listed")
        object["printScaling"] = ["zoom"]
        #expect(profileError(object)?.keyPath == "printScaling[0]")
        object["printScaling"] = false
        object["printScalingDefault"] = "fit"
        #expect(profileError(object)?.keyPath == "printScalingDefault")
    }

    @Test func finishingTemplatesCarryTheirPWG5100_1Details() throws {
        let mfp = try attributes(try shippedProfileJSON("office-mfp"))
        let database = mfp["finishings-col-database"]?.values.compactMap(\.collectionValue) ?? []
        let staple = try #require(database.first { $0["finishing-template"]?.value?.stringValue == "staple-top-left" })
        let stitching = try #require(staple["stitching"]?.value?.collectionValue)
        #expect(stitching["stitching-reference-edge"]?.value?.stringValue == "top")
        #expect(stitching["stitching-locations"]?.values == [.integer(PrinterProfile.stapleOffset)])
        let punch = try #require(database.first { $0["finishing-template"]?.value?.stringValue == "punch-dual-left" })
        #expect(punch["punching"]?.value?.collectionValue?["punching-locations"]?.values.count == 2)
        #expect(strings(mfp, "finishings-col-supported").contains("stitching"))
        #expect(strings(mfp, "stitching-reference-edge-supported").sorted() == ["left", "top"])
        #expect(mfp["finishings-supported"]?.values.contains(.enumValue(20)) == true)
        let plain = try attributes(try shippedProfileJSON("simplex-laser"))
        #expect(plain["finishings-supported"]?.values == [.enumValue(3)])
        #expect(plain["finishings-col-database"] == nil && plain["finishing-template-supported"] == nil)
    }

    @Test func jobPasswordStorageAndProofPrintAttributes() throws {
        let enterprise = try attributes(try shippedProfileJSON("enterprise-laser"))
        #expect(enterprise["job-password-supported"]?.value == .integer(32), "the longest value: a sha2-256 digest")
        #expect(enterprise["job-password-length-supported"]?.value == .rangeOfInteger(4...16))
        #expect(strings(enterprise, "job-password-repertoire-configured") == ["iana_us-ascii_digits"])
        #expect(strings(enterprise, "job-password-encryption-supported") == ["none", "sha2-256"])
        #expect(strings(enterprise, "job-storage-supported") == ["job-storage-access", "job-storage-disposition"])
        #expect(strings(enterprise, "job-storage-disposition-supported") == ["print-and-store", "store-only"])
        #expect(enterprise["proof-print-copies-supported"]?.value == .rangeOfInteger(0...1))
        #expect(strings(enterprise, "ipp-features-supported").contains("job-storage"))
        #expect(strings(enterprise, "ipp-features-supported").contains("proof-print"))
        #expect(strings(enterprise, "which-jobs-supported").contains("stored-public"))
        #expect(strings(enterprise, "which-jobs-supported").contains("saved"))
        for name in ["job-password", "job-storage", "proof-print"] {
            #expect(strings(enterprise, "job-creation-attributes-supported").contains(name))
        }
        let plain = try attributes(try shippedProfileJSON("duplex-laser"))
        for name in ["job-password-supported", "job-storage-supported", "proof-print-supported"] {
            #expect(plain[name] == nil, "\(name) is absent without the feature")
        }
        #expect(!strings(plain, "which-jobs-supported").contains("saved"))
    }

    /// documentURI (Print-URI, Send-URI): reference-uri-schemes-supported http and https, and the two operations
    /// in operations-supported; without it neither. A cloned printer that lists either operation gets the key.
    @Test func documentURIOffersPrintURIAndSendURI() throws {
        let documentURI: Set<Int32> = [Int32(IPPOperation.printURI.rawValue), Int32(IPPOperation.sendURI.rawValue)]
        func operations(_ attributes: [IPPAttribute]) -> Set<Int32> {
            let all = Printer.implementationAttributes(attributes)["operations-supported"]?.values ?? []
            return Set(all.compactMap(\.integerValue))
        }
        let offering = try attributes(try shippedProfileJSON("enterprise-laser"))
        #expect(
            offering["reference-uri-schemes-supported"]?.values == [
                .uriScheme("ftp"), .uriScheme("http"), .uriScheme("https"),
            ])
        #expect(operations(offering).isSuperset(of: documentURI))
        var object = try shippedProfileJSON("duplex-laser")
        let plain = try attributes(object)
        #expect(plain["reference-uri-schemes-supported"] == nil)
        #expect(operations(plain).isDisjoint(with: documentURI))
        object["documentURI"] = "yes"
        #expect(profileError(object)?.keyPath == "documentURI")

        var cloned = Dictionary(plain.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        #expect(!ProfileMapping(cloned, name: "c").keys.contains { $0.key == "documentURI" })
        cloned["operations-supported"] = IPPAttribute(
            name: "operations-supported", values: [.enumValue(2), .enumValue(Int32(IPPOperation.sendURI.rawValue))])
        #expect(ProfileMapping(cloned, name: "c").keys.contains { $0.key == "documentURI" && $0.value == .bool(true) })
    }

    @Test func featureObjectsAreChecked() throws {
        let cases: [(String, Any, String)] = [
            ("jobPassword", ["minimumLength": 0], "jobPassword.minimumLength"),
            ("jobPassword", ["minimumLength": 8, "maximumLength": 4], "jobPassword.maximumLength"),
            ("jobPassword", ["repertoire": "klingon"], "jobPassword.repertoire"),
            ("jobPassword", ["encryptions": ["md5"]], "jobPassword.encryptions[0]"),
            ("jobPassword", ["pin": 1], "jobPassword.pin"),
            ("jobStorage", ["access": ["everyone"]], "jobStorage.access[0]"),
            ("jobStorage", ["access": ["group"]], "jobStorage.groups"),
            ("jobStorage", ["dispositions": []], "jobStorage.dispositions"),
            ("proofPrint", ["maximumCopies": 0], "proofPrint.maximumCopies"),
            (
                "proofPrint", ["maximumCopies": Int(ProfileFeatures.ProofPrint.copiesRange.upperBound) + 1],
                "proofPrint.maximumCopies"
            ),
        ]
        for (key, value, path) in cases {
            var object = try shippedProfileJSON("duplex-laser")
            object[key] = value
            #expect(profileError(object)?.keyPath == path, "\(key) = \(value)")
        }
        var object = try shippedProfileJSON("duplex-laser")
        object["proofPrint"] = ["maximumCopies": Int(ProfileFeatures.ProofPrint.copiesRange.upperBound)]
        object["jobPassword"] = ["minimumLength": 1, "maximumLength": Int(ProfileFeatures.JobPassword.maximumOctets)]
        #expect(profileError(object) == nil)
    }

    @Test func rollAndCustomSizeRangesComeInPairs() throws {
        let label = try attributes(try shippedProfileJSON("label-printer"))
        let ranges = (label["media-size-supported"]?.values ?? []).compactMap(\.collectionValue).filter {
            if case .rangeOfInteger? = $0["x-dimension"]?.value { true } else { false }
        }
        #expect(ranges.count == 1)
        #expect(ranges.first?["x-dimension"]?.value == .rangeOfInteger(1905...10389))
        var object = try shippedProfileJSON("label-printer")
        object["media"] = ["na_index-4x6_4x6in", "roll_min_1x1in"]
        #expect(profileError(object)?.keyPath == "media")
        object["media"] = ["na_index-4x6_4x6in", "roll_min_5x1in", "roll_max_4x39in"]
        #expect(profileError(object)?.description.contains("larger") == true)
    }
}
