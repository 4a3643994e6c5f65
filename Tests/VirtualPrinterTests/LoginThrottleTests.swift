import HTTPServer
import Testing

@testable import PrinterHTTP

/// Failed logins slowed per client and account (issue 40: keyed on the whole IPv6 address, and flushable with junk
/// user names).
@Suite struct LoginThrottleTests {
    @Test func aClientIsAnIPv4AddressOrAnIPv6Slash64() {
        #expect(ClientAddressGroup.name(of: "10.0.0.9") == "10.0.0.9")
        #expect(ClientAddressGroup.name(of: "::ffff:10.0.0.9") == "10.0.0.9")
        #expect(ClientAddressGroup.name(of: "2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientAddressGroup.name(of: "2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(ClientAddressGroup.name(of: "2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(ClientAddressGroup.name(of: "not an address") == "not an address")
    }

    @Test func newSourceAddressesOfOneSlash64AreOneClient() {
        let throttle = LoginThrottle()
        for index in 0..<LoginThrottle.maximumFailures {
            throttle.recordFailure(address: "2001:db8:1:2::\(index + 1)", account: "user alice", now: 100)
        }
        #expect(throttle.retryAfter(address: "2001:db8:1:2::99", account: "user alice", now: 101) == 59)
        #expect(throttle.retryAfter(address: "2001:db8:1:3::1", account: "user alice", now: 101) == nil)
        #expect(throttle.retryAfter(address: "2001:db8:1:2::99", account: "user alice", now: 161) == nil)
    }

    @Test func junkUserNamesThrottleTheirClientInsteadOfFlushingItsGuesses() {
        let throttle = LoginThrottle()
        for _ in 0..<LoginThrottle.maximumFailures {
            throttle.recordFailure(address: "10.0.0.9", account: "user alice", now: 100)
        }
        for junk in 0..<(LoginThrottle.maximumAccountsPerClient * 20) {
            throttle.recordFailure(address: "10.0.0.9", account: "user junk-\(junk)", now: 100)
        }
        #expect(throttle.retryAfter(address: "10.0.0.9", account: "user alice", now: 101) == 59)
        #expect(throttle.retryAfter(address: "10.0.0.9", account: "user bob", now: 101) == 59, "every account")
        #expect(throttle.retryAfter(address: "10.0.0.10", account: "user alice", now: 101) == nil)
    }

    @Test func otherClientsCannotEvictOneThatFailedLast() {
        let throttle = LoginThrottle()
        for index in 0..<LoginThrottle.maximumClients {
            throttle.recordFailure(
                address: "10.\(index / 65536).\(index / 256 % 256).\(index % 256)", account: "a", now: 10)
        }
        for _ in 0..<LoginThrottle.maximumFailures {
            throttle.recordFailure(address: "192.0.2.1", account: "user alice", now: 20)
        }
        #expect(throttle.retryAfter(address: "192.0.2.1", account: "user alice", now: 21) == 59)
    }
}
