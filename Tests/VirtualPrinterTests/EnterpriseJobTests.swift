import Foundation
import HTTPServer
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// What a profile advertises is what its jobs may use: finishings on the office MFP, job-password, job-storage and
/// proof-print (PWG 5100.11) on the enterprise laser; the same requests on a simplex laser come back unsupported.
@Suite struct EnterpriseJobTests {
    static let pdf = Array("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".utf8)

    func harness(_ profile: String) throws -> PrinterHarness {
        try PrinterHarness(
            attributes: shippedProfile(profile).printerAttributes(context: ProfileAttributeContext(printerName: "t")))
    }

    func failure(_ result: Result<Job, Printer.PasswordReleaseError>) -> Printer.PasswordReleaseError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    func printJob(_ harness: PrinterHarness, operation: [IPPAttribute] = [], job: [IPPAttribute]? = nil)
        throws -> IPPMessage
    {
        let extra =
            [
                IPPAttribute("requesting-user-name", .name("alice")),
                IPPAttribute("document-format", .mimeMediaType("application/pdf")),
            ] + operation
        return try harness.send(ippRequest(.printJob, extra, job: job), data: Self.pdf)
    }

    @Test func stapleOnTheOfficeMFPIsAcceptedAndRecorded() throws {
        let mfp = try harness("office-mfp")
        let response = try printJob(mfp, job: [IPPAttribute("finishings", .enumValue(20))])
        #expect(response.status == .successfulOK)
        let id = try #require(response.jobID)
        #expect(mfp.ended(id)?.state == .completed)
        let attributes = try #require(try mfp.record(id)["attributes"] as? [String: Any])
        #expect(attributes["finishings"] as? [String] == ["staple-top-left"])
        let template = IPPAttribute(
            "finishings-col",
            .collection([
                IPPAttribute("finishing-template", .keyword("punch-dual-left")),
                IPPAttribute(
                    "punching",
                    .collection([
                        IPPAttribute("punching-reference-edge", .keyword("left")),
                        IPPAttribute("punching-locations", .integer(1200), .integer(9200)),
                    ])),
            ]))
        #expect(try printJob(mfp, job: [template]).status == .successfulOK)
        let wrongEdge = IPPAttribute(
            "finishings-col",
            .collection([
                IPPAttribute("finishing-template", .keyword("punch-dual-left")),
                IPPAttribute("punching", .collection([IPPAttribute("punching-reference-edge", .keyword("bottom"))])),
            ]))
        let refused = try printJob(mfp, job: [wrongEdge])
        #expect(refused.status == .successfulOKIgnoredOrSubstitutedAttributes)
    }

    @Test func stapleOnTheSimplexLaserIsUnsupportedAsIPPSays() throws {
        let simplex = try harness("simplex-laser")
        let staple = IPPAttribute("finishings", .enumValue(4))
        let ignored = try printJob(simplex, job: [staple])
        #expect(ignored.status == .successfulOKIgnoredOrSubstitutedAttributes)
        #expect(ignored[group: .unsupportedAttributes]?["finishings"]?.values == [.enumValue(4)])
        let id = try #require(ignored.jobID)
        _ = simplex.ended(id)
        let attributes = try simplex.record(id)["attributes"] as? [String: Any] ?? [:]
        #expect(attributes["finishings"] == nil, "an ignored attribute is not part of the job")
        let strict = try printJob(
            simplex, operation: [IPPAttribute("ipp-attribute-fidelity", .boolean(true))], job: [staple])
        #expect(strict.status == .clientErrorAttributesOrValuesNotSupported)
        let copies = try printJob(simplex, job: [IPPAttribute("copies", .integer(100))])
        #expect(
            copies[group: .unsupportedAttributes]?["copies"]?.values == [.integer(100)], "copies-supported is 1-99")
    }

    @Test func aJobPasswordHoldsTheJobUntilItsPINIsEnteredAtThePrinter() throws {
        let laser = try harness("enterprise-laser")
        let response = try printJob(laser, operation: [IPPAttribute("job-password", .octetString(Array("4711".utf8)))])
        #expect(response.status == .successfulOK)
        let id = try #require(response.jobID)
        let held = try #require(laser.printer.job(id))
        #expect(held.state == .pendingHeld && held.reasons == ["job-password-wait"])
        let release = try laser.send(ippRequest(.releaseJob, [IPPAttribute("job-id", .integer(Int32(id)))]))
        #expect(release.status == .clientErrorNotPossible, "a PIN job is released at the printer, not over IPP")
        #expect(failure(laser.printer.releaseWithPassword(jobID: id, pin: "1234")) == .wrongPassword)
        #expect(laser.printer.job(id)?.state == .pendingHeld)
        #expect(throws: Never.self) { try laser.printer.releaseWithPassword(jobID: id, pin: "4711").get() }
        #expect(laser.ended(id)?.state == .completed)
        let record = try laser.record(id)
        #expect(!String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self).contains("4711"))
        #expect(failure(laser.printer.releaseWithPassword(jobID: id, pin: "4711")) == .notWaiting)
    }

    /// Issue 21: Hold-Job with no-hold and Set-Job-Attributes released a PIN job without its PIN, and a PIN job
    /// read back after a restart could never be released. Now no door but the PIN opens it, also after a restart.
    @Test func onlyThePINReleasesAJobAlsoAfterARestart() throws {
        let laser = try harness("enterprise-laser")
        let id = try #require(
            try printJob(laser, operation: [IPPAttribute("job-password", .octetString(Array("4711".utf8)))]).jobID)
        let target = [
            IPPAttribute("job-id", .integer(Int32(id))), IPPAttribute("requesting-user-name", .name("alice")),
        ]
        let unheld = try laser.send(
            ippRequest(.holdJob, target + [IPPAttribute("job-hold-until", .keyword("no-hold"))]))
        #expect(unheld.status == .clientErrorNotPossible)
        let set = try laser.send(
            ippRequest(.setJobAttributes, target, job: [IPPAttribute("job-hold-until", .keyword("no-hold"))]))
        #expect(set.status == .clientErrorNotPossible)
        #expect(laser.printer.job(id)?.state == .pendingHeld)
        // The PIN is kept beside the record, for this user only, never in the record or served.
        let kept = "\(laser.folder.path)/jobs/\(id)/\(JobPasswordFile.name)"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let record = String(decoding: try JSONSerialization.data(withJSONObject: try laser.record(id)), as: UTF8.self)
        #expect(!record.contains("4711") && !record.contains("34373131"))
        let path = "/api/v1/jobs/\(id)/files/\(JobPasswordFile.name)"
        let request = HTTPRequest(method: "GET", target: path, path: path, host: "localhost", localPort: 631)
        var empty = HTTPRequestBody(bytes: [])
        #expect(laser.service.handle(request, body: &empty).status == 404)

        let again = try PrinterHarness(
            attributes: shippedProfile("enterprise-laser").printerAttributes(
                context: ProfileAttributeContext(printerName: "t")), reusing: laser.folder)
        again.printer.beginRestore()
        let archive = JobArchive.load(
            outputDirectory: laser.folder.path, before: again.printer.jobIDs.first, printerStartTime: 0)
        again.printer.restore(archive.jobs)
        #expect(again.printer.job(id)?.state == .pendingHeld)
        let release = try again.send(ippRequest(.releaseJob, target))
        #expect(release.status == .clientErrorNotPossible)
        #expect(failure(again.printer.releaseWithPassword(jobID: id, pin: "1234")) == .wrongPassword)
        #expect(throws: Never.self) { try again.printer.releaseWithPassword(jobID: id, pin: "4711").get() }
        #expect(again.ended(id)?.state == .completed)
        #expect(!FileManager.default.fileExists(atPath: kept))
    }

    @Test func thePanelOfTheAPIReleasesWithThePIN() throws {
        let laser = try harness("enterprise-laser")
        let id = try #require(
            try printJob(laser, operation: [IPPAttribute("job-password", .octetString(Array("8642".utf8)))]).jobID)
        func enter(_ body: String, job: Int = id, loopback: Bool = true) -> Int {
            let path = "/api/v1/jobs/\(job)/release"
            let request = HTTPRequest(
                method: "POST", target: path, path: path, headers: ["Content-Type": "application/json"],
                host: "localhost", localPort: 631, isLoopback: loopback, contentLength: body.utf8.count)
            var stream = HTTPRequestBody(bytes: Array(body.utf8))
            return laser.service.handle(request, body: &stream).status
        }
        #expect(enter(#"{"job-password": "1111"}"#) == 403)
        #expect(enter(#"{"pin": "8642"}"#) == 400)
        #expect(enter(#"{"job-password": "8642"}"#, loopback: false) == 403)
        #expect(enter(#"{"job-password": "8642"}"#, job: 999) == 404)
        #expect(enter(#"{"job-password": "8642"}"#) == 200)
        #expect(enter(#"{"job-password": "8642"}"#) == 409)
        #expect(laser.ended(id)?.state == .completed)
    }

    @Test func aHashedJobPasswordIsComparedByItsDigest() throws {
        let laser = try harness("enterprise-laser")
        var hash = SHA256()
        hash.update(Array("2468".utf8))
        let hex = Array(hash.hexDigest().utf8)
        let digest = stride(from: 0, to: hex.count, by: 2).map {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
        let response = try printJob(
            laser,
            operation: [
                IPPAttribute("job-password", .octetString(digest)),
                IPPAttribute("job-password-encryption", .keyword("sha2-256")),
            ])
        let id = try #require(response.jobID)
        #expect(laser.printer.job(id)?.reasons == ["job-password-wait"])
        #expect(throws: Never.self) { try laser.printer.releaseWithPassword(jobID: id, pin: "2468").get() }
    }

    @Test func badJobPasswordsAreRefused() throws {
        let laser = try harness("enterprise-laser")
        for (value, encryption) in [("12", "none"), ("12345678901234567", "none"), ("12ab", "none"), ("1234", "md5")] {
            let response = try printJob(
                laser,
                operation: [
                    IPPAttribute("job-password", .octetString(Array(value.utf8))),
                    IPPAttribute("job-password-encryption", .keyword(encryption)),
                ])
            #expect(response.status == .clientErrorAttributesOrValuesNotSupported, "\(value) \(encryption)")
        }
        // A printer without secure release ignores the PIN and prints at once.
        let simplex = try harness("simplex-laser")
        let ignored = try printJob(simplex, operation: [IPPAttribute("job-password", .octetString(Array("4711".utf8)))])
        #expect(ignored.status == .successfulOKIgnoredOrSubstitutedAttributes)
        #expect(ignored[group: .unsupportedAttributes]?["job-password"] != nil)
        #expect(simplex.ended(try #require(ignored.jobID))?.state == .completed)
    }

    @Test func storedJobsAreKeptAndListedAndStoreOnlyIsNotPrinted() throws {
        let laser = try harness("enterprise-laser")
        func storage(_ disposition: String, _ access: String) -> IPPAttribute {
            IPPAttribute(
                "job-storage",
                .collection([
                    IPPAttribute("job-storage-access", .keyword(access)),
                    IPPAttribute("job-storage-disposition", .keyword(disposition)),
                ]))
        }
        let storeOnly = try #require(try printJob(laser, operation: [storage("store-only", "owner")]).jobID)
        let printed = try #require(try printJob(laser, operation: [storage("print-and-store", "public")]).jobID)
        #expect(laser.ended(storeOnly)?.reasons == ["job-stored"])
        #expect(laser.ended(printed)?.reasons == ["job-completed-successfully", "job-stored"])
        func list(_ which: String, user: String = "alice") throws -> [Int] {
            let response = try laser.send(
                ippRequest(
                    .getJobs,
                    [IPPAttribute("which-jobs", .keyword(which)), IPPAttribute("requesting-user-name", .name(user))]))
            return response.groups.filter { $0.tag == .jobAttributes }.compactMap {
                $0["job-id"]?.value?.integerValue.map(Int.init)
            }
        }
        #expect(try list("stored-owner") == [storeOnly])
        #expect(try list("stored-owner", user: "bob") == [])
        #expect(try list("stored-public") == [printed])
        // saved (PWG 5100.11 section 5.3): every stored job kept to print again that the user may see.
        #expect(try list("saved") == [storeOnly, printed])
        #expect(try list("saved", user: "bob") == [printed])
        let bad = try printJob(laser, operation: [storage("store-forever", "owner")])
        #expect(bad.status == .clientErrorAttributesOrValuesNotSupported)
        let simplex = try harness("simplex-laser")
        let ignored = try printJob(simplex, operation: [storage("store-only", "owner")])
        #expect(ignored[group: .unsupportedAttributes]?["job-storage"] != nil)
    }

    @Test func aProofPrintPrintsItsProofCopiesAndResubmitPrintsTheRun() throws {
        let laser = try harness("enterprise-laser")
        let proof = IPPAttribute(
            "proof-print", .collection([IPPAttribute("proof-print-copies", .integer(1))]))
        let response = try printJob(laser, job: [IPPAttribute("copies", .integer(50)), proof])
        #expect(response.status == .successfulOK)
        let id = try #require(response.jobID)
        let job = try #require(laser.ended(id))
        #expect(Printer.renderTicket(of: job).first { $0.name == "copies" }?.value == .integer(1))
        let listed = try laser.send(ippRequest(.getJobs, [IPPAttribute("which-jobs", .keyword("proof-print"))]))
        #expect(listed.groups.filter { $0.tag == .jobAttributes }.count == 1)
        let run = try laser.send(ippRequest(.resubmitJob, [IPPAttribute("job-id", .integer(Int32(id)))]))
        let runID = try #require(run.jobID)
        let runJob = try #require(laser.ended(runID))
        #expect(runJob.template("proof-print") == nil)
        #expect(Printer.renderTicket(of: runJob).first { $0.name == "copies" }?.value == .integer(50))
        let tooMany = IPPAttribute("proof-print", .collection([IPPAttribute("proof-print-copies", .integer(2))]))
        #expect(try printJob(laser, job: [tooMany]).status == .successfulOKIgnoredOrSubstitutedAttributes)
    }
}
