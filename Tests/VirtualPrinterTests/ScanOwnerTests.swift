import Foundation
import HTTPServer
import Scanner
import Testing

@testable import PrinterCore
@testable import PrinterHTTP

/// Scan jobs under `--user` (docs/security.md "Credentials and admins"): a scan job belongs to the user who made it,
/// as a print job does, and only they and admins fetch its images, read its ScanImageInfo, delete it, see it in
/// ScannerStatus or reach it and its files through `/api/v1/scans`; everyone else gets 404, as for a job that never
/// was (the answer a print job of another user gets).
@Suite struct ScanOwnerTests {
    let folder: TemporaryFolder
    let mfp: Printer
    let service: PrinterService
    static let root = "/ipp/print/mfp/eSCL"

    init() throws {
        folder = try TemporaryFolder()
        mfp = try WebScanTests.printer(
            profile: "office-mfp", name: "mfp", folder: folder, renderer: WebScanTests.ScanningRenderer())
        let access = AccessControl(
            users: [("alice", "a"), ("bob", "b"), ("root", "r")], admins: ["root"], allowsPlainCredentials: false)
        service = PrinterService(printers: [mfp], access: access)
    }

    /// A request over TLS with `user`'s credentials (password: its first letter).
    func call(_ method: String, _ path: String, as user: String?, body: [UInt8] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let user {
            let credentials = Data("\(user):\(user.prefix(1))".utf8).base64EncodedString()
            headers.add("Authorization", "Basic \(credentials)")
        }
        if !body.isEmpty { headers.add("Content-Type", "text/xml") }
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = (parts.count > 1 ? parts[1].split(separator: "&") : []).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: halves[0], value: halves.count > 1 ? halves[1] : "")
        }
        let request = HTTPRequest(
            method: method, target: path, path: String(parts[0]), query: query, headers: headers, host: "localhost",
            localPort: 631, contentLength: body.count, isEncrypted: true)
        var stream = HTTPRequestBody(bytes: body)
        return service.handle(request, body: &stream)
    }

    func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let settings = Array(
        """
        <scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" \
        xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>Platen</pwg:InputSource>\
        <scan:XResolution>75</scan:XResolution><scan:YResolution>75</scan:YResolution></scan:ScanSettings>
        """.utf8)

    /// Alice's scan job: its UUID, from the Location of POST ScanJobs.
    func alicesJob() throws -> String {
        let created = call("POST", "\(Self.root)/ScanJobs", as: "alice", body: Self.settings)
        #expect(created.status == 201)
        let location = try #require(created.headers["Location"])
        return String(try #require(location.split(separator: "/").last))
    }

    @Test func aScanJobIsItsUsersAndOthersGet404ForItOverESCL() throws {
        let uuid = try alicesJob()
        let job = try #require(mfp.scanner?.job(uuid: uuid))
        #expect(job.user == "alice", "the authenticated user is recorded as the owner")
        let recorded = try JSONDecoder().decode(
            ScanJob.self,
            from: Data(
                contentsOf: URL(fileURLWithPath: "\(try #require(mfp.scanner).folder(of: job.number))/scan.json")))
        #expect(recorded.user == "alice", "and kept in scan.json")
        // Bob sees no trace of it: not in ScannerStatus, 404 for its image, its image info and its deletion.
        #expect(!text(call("GET", "\(Self.root)/ScannerStatus", as: "bob")).contains(uuid))
        #expect(text(call("GET", "\(Self.root)/ScannerStatus", as: "alice")).contains(uuid))
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/NextDocument", as: "bob").status == 404)
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/ScanImageInfo", as: "bob").status == 404)
        #expect(call("DELETE", "\(Self.root)/ScanJobs/\(uuid)", as: "bob").status == 404)
        #expect(mfp.scanner?.job(uuid: uuid)?.state == .processing, "bob's DELETE did not cancel it")
        // Alice fetches her image; an admin sees and deletes any job.
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/NextDocument", as: "alice").status == 200)
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/ScanImageInfo", as: "alice").status == 200)
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/ScanImageInfo", as: "root").status == 200)
        #expect(text(call("GET", "\(Self.root)/ScannerStatus", as: "root")).contains(uuid))
        #expect(call("DELETE", "\(Self.root)/ScanJobs/\(uuid)", as: "root").status == 200)
        #expect(call("GET", "\(Self.root)/ScannerStatus", as: nil).status == 401, "no credentials, no scanner")
    }

    @Test func theScansAPIShowsAUserTheirOwnScansAndAnAdminEveryOne() throws {
        let subscription = mfp.events.subscribe()
        defer { subscription.cancel() }
        let uuid = try alicesJob()
        #expect(call("GET", "\(Self.root)/ScanJobs/\(uuid)/NextDocument", as: "alice").status == 200)
        let number = try #require(mfp.scanner?.job(uuid: uuid)?.number)
        #expect(text(call("GET", "/api/v1/scans", as: "bob")).contains("\"scans\":[]"))
        #expect(text(call("GET", "/api/v1/scans", as: "alice")).contains("\"uuid\":\"\(uuid)\""))
        #expect(text(call("GET", "/api/v1/scans", as: "root")).contains("\"user\":\"alice\""))
        #expect(call("GET", "/api/v1/scans/\(number)", as: "bob").status == 404)
        #expect(call("GET", "/api/v1/scans/\(number)/files/image-0001.jpg", as: "bob").status == 404)
        #expect(call("GET", "/api/v1/scans/\(number)/files/scan.json", as: "bob").status == 404)
        #expect(call("GET", "/api/v1/scans/\(number)", as: "alice").status == 200)
        #expect(call("GET", "/api/v1/scans/\(number)/files/image-0001.jpg", as: "root").status == 200)
        // A wait counts only the scans the caller may see: bob's ends with none in time.
        let waited = call("GET", "/api/v1/scans/wait?count=1&timeout=0", as: "bob")
        #expect(waited.status == 408 && text(waited).contains("\"scans\":[]"))
        #expect(call("GET", "/api/v1/scans/wait?count=1&timeout=0", as: "alice").status == 200)
        // So do the events of the scan job (its number is no print job's).
        let event = try #require(subscription.next(timeout: 1)?.first { $0.kind == .scanStateChanged })
        #expect(event.jobID == number && event.jobOwner == "alice", "the scanner's events name the owner")
        #expect(!service.mayReceive(event, .user(name: "bob", isAdmin: false)))
        #expect(service.mayReceive(event, .user(name: "alice", isAdmin: false)))
        #expect(service.mayReceive(event, .user(name: "root", isAdmin: true)))
        // The web page lists them by the same rule.
        #expect(!text(call("GET", "/printers/mfp", as: "bob")).contains("scan-mfp-\(number)"))
        #expect(
            text(call("GET", "/printers/mfp", as: "bob")).contains("<dt>Scan jobs</dt><dd><a href=\"#scans\">0</a>"))
        #expect(
            text(call("GET", "/printers/mfp", as: "alice")).contains("<dt>Scan jobs</dt><dd><a href=\"#scans\">1</a>"))
        #expect(text(call("GET", "/printers/mfp", as: "alice")).contains("scan-mfp-\(number)"))
        #expect(text(call("GET", "/", as: "root")).contains("scan-mfp-\(number)"))
    }
}
