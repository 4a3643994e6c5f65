import HTTPServer
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Who a request is, from its credentials (docs/security.md).
struct AccessControlTests {
    let access = AccessControl(
        users: [("alice", "wonder land"), ("bob", "builder"), ("bob", "rebuilt")], admins: ["alice"],
        allowsPlainCredentials: false)

    func request(_ authorization: String?, encrypted: Bool = true) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let authorization { headers.add("Authorization", authorization) }
        return HTTPRequest(
            method: "POST", target: "/ipp/print", path: "/ipp/print", headers: headers, isEncrypted: encrypted)
    }

    @Test func rightCredentialsNameTheUserAndWhetherTheyAdminister() {
        #expect(access.identify(request("Basic YWxpY2U6d29uZGVyIGxhbmQ=")) == .user(name: "alice", isAdmin: true))
        #expect(access.identify(request("Basic Ym9iOnJlYnVpbHQ=")) == .user(name: "bob", isAdmin: false))
        #expect(access.userNames == ["alice", "bob"])
    }

    @Test func wrongOrUnreadableCredentialsAreRefused() {
        for header in [
            "Basic Ym9iOmJ1aWxkZXI=", "Basic YWxpY2U6", "Basic !!", "Digest x", "Basic bWFsbG9yeTpidWlsZGVy",
        ] {
            guard case .refused = access.identify(request(header)) else {
                Issue.record("\(header) was not refused")
                continue
            }
        }
    }

    @Test func credentialsInTheClearAreNotLookedAt() {
        #expect(access.identify(request("Basic YWxpY2U6d29uZGVyIGxhbmQ=", encrypted: false)) == .plainCredentials)
        let plain = AccessControl(users: [("a", "b")], admins: [], allowsPlainCredentials: true)
        #expect(plain.identify(request("Basic YTpi", encrypted: false)) == .user(name: "a", isAdmin: false))
    }

    @Test func withoutAccountsEveryoneIsAnonymous() {
        #expect(!AccessControl.open.isEnabled)
        #expect(AccessControl.open.identify(request("Basic YTpi")) == .anonymous)
        #expect(access.identify(request(nil)) == .anonymous)
        #expect(access.identify(request("Bearer token")) == .anonymous)
    }

    @Test func digestsCompareInFull() {
        let digest = ConstantTime.digest(of: Array("secret".utf8))
        #expect(ConstantTime.equal(Array("secret".utf8), digest: digest))
        #expect(!ConstantTime.equal(Array("secreT".utf8), digest: digest))
        #expect(!ConstantTime.equal([UInt8](), digest: digest))
        #expect(!ConstantTime.equalDigests(digest, Array(digest.dropLast())))
    }

    @Test func usersFilesParseAndSayWhichLineIsWrong() throws {
        let users = try UsersFile.parse("# testers\n\nerin:pass:word\r\nfrank:\n")
        #expect(users.map(\.name) == ["erin", "frank"])
        #expect(users.map(\.password) == ["pass:word", ""])
        #expect(throws: UsersFile.ParseError.self) { try UsersFile.parse("a:b\nno colon\n") }
        #expect(UsersFile.entry(":pw") == nil)
        #expect(UsersFile.entry("a\u{1}b:pw") == nil)
    }
}
