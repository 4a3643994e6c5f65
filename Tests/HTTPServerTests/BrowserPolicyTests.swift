import HTTPServer
import Synchronization
import Testing

/// The names a request's Host may give (HostPolicy) and the origins a change may come from (OriginPolicy).
@Suite struct BrowserPolicyTests {
    @Test func hostsAreTheMachinesNamesAddressesLocalhostAndItsOwnLocalNames() {
        let policy = HostPolicy(names: ["printer.example", "Desk.Example.", "office"])
        for host in [
            "127.0.0.1", "192.168.1.20", "[::1]", "[fe80::1%25eth0]", "localhost", "LocalHost", "app.localhost",
            "office.local", "OFFICE.local.", "office", "printer.example", "PRINTER.EXAMPLE.", "desk.example", nil,
        ] {
            #expect(policy.allows(host), "\(host ?? "no Host")")
        }
        // Issue 40: any .local name was answered, and any host of the link can advertise one pointing here.
        for host in [
            "evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "[evil]", "[::1", "local",
            "evil.local", "printer.example.local",
        ] {
            #expect(!policy.allows(host), "\(host)")
        }
        #expect(HostPolicy(names: ["*"]).allows("evil.example"))
        #expect(!HostPolicy().allows("printer.example"))
    }

    /// The name the Avahi daemon advertises now (`host-2.local` after a collision) is asked when a request names
    /// a `.local` name not known yet, at most once per `LocalLinkNames.requeryInterval`.
    @Test func theDaemonsLocalNameIsAnsweredAndAskedForRarely() {
        let asked = Mutex(0)
        let names = LocalLinkNames(query: {
            asked.withLock { $0 += 1 }
            return "Host-2.local."
        })
        let policy = HostPolicy(names: [], localNames: names)
        #expect(policy.allows("host-2.local"))
        #expect(policy.allows("HOST-2.LOCAL"))
        for made in 0..<100 { #expect(!policy.allows("made-up-\(made).local")) }
        #expect(asked.withLock { $0 } == 1, "one question for 102 requests within the interval")
        #expect(policy.allows("host-2.local"))
    }

    @Test func aNameWithALeadingDotAllowsEveryNameUnderIt() {
        let policy = HostPolicy(names: [".svc.cluster.example", "."])
        for host in ["vprinter.default.svc.cluster.example", "vprinter-fleet-2.vprinter-fleet.ci.svc.cluster.example."]
        {
            #expect(policy.allows(host), "\(host)")
        }
        // Not the domain itself, not a name that merely ends in its letters, and "." allows nothing more.
        for host in ["svc.cluster.example", "evilsvc.cluster.example", "vprinter.svc.cluster.example.evil.test", ""] {
            #expect(!policy.allows(host), "\(host)")
        }
    }

    @Test func anOriginIsTheRequestsOwnOrAnAllowedOne() {
        let policy = OriginPolicy(allowing: ["http://localhost:3000/", "HTTPS://App.Example:443"])
        #expect(policy.allows("http://localhost:8631", hostField: "localhost:8631", isEncrypted: false))
        #expect(policy.allows("http://printer:80", hostField: "printer", isEncrypted: false))
        #expect(policy.allows("https://[::1]:8631", hostField: "[::1]:8631", isEncrypted: true))
        #expect(policy.allows("http://localhost:3000", hostField: "localhost:8631", isEncrypted: false))
        #expect(policy.allows("https://app.example", hostField: "localhost:8631", isEncrypted: false))
        for (origin, host, tls) in [
            ("http://evil.example", "localhost:8631", false), ("https://localhost:8631", "localhost:8631", false),
            ("http://localhost:8631", "localhost:8631", true), ("http://localhost:8632", "localhost:8631", false),
            ("null", "localhost:8631", false), ("file://", "localhost:8631", false),
            ("http://localhost:8631", nil, false), ("http://user@localhost:8631", "localhost:8631", false),
        ] as [(String, String?, Bool)] {
            #expect(!policy.allows(origin, hostField: host, isEncrypted: tls), "\(origin) to \(host ?? "-")")
        }
        #expect(OriginPolicy(allowing: ["*"]).allows("null", hostField: nil, isEncrypted: false))
        #expect(OriginPolicy.normalized("http://Localhost:80/") == "http://localhost")
        #expect(OriginPolicy.normalized("ftp://host") == nil)
    }
}
