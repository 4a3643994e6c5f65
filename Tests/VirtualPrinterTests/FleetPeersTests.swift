import Testing

@testable import PrinterHTTP

/// The peers of a fleet in slices: entries, what each peer is sent, and the cap on requests asking them at once
/// (issue 40: a forged `peers` value fanned out at every hop, and the client's credentials went to every peer over
/// plain HTTP).
@Suite struct FleetPeersTests {
    @Test func entriesNameAHostAndPortWithASchemeAndCredentialsOrNot() throws {
        #expect(FleetPeers.parse("10.0.0.7:8631") == .init(scheme: "http", host: "10.0.0.7", port: 8631))
        #expect(
            FleetPeers.parse("https://[::1]:8631/") == .init(scheme: "https", host: "::1", port: 8631))
        #expect(
            FleetPeers.parse("http://fleet:pw@peer.svc:8631")
                == .init(scheme: "http", credentials: "fleet:pw", host: "peer.svc", port: 8631))
        for bad in ["peer", "peer:0", "http://fleet@peer:8631", "peer:8631/x", "pe er:8631", "peer:8631\r\n"] {
            #expect(FleetPeers.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func theClientsCredentialsGoOverTLSOnlyAndAPeerWithItsOwnGetsThose() throws {
        let peers = try #require(FleetPeers(["127.0.0.1:9001", "https://127.0.0.1:9002", "http://f:p@127.0.0.1:9003"]))
        let addresses = try peers.addresses(ownPort: 1).get()
        #expect(addresses.map(\.name) == ["http://127.0.0.1:9001", "https://127.0.0.1:9002", "http://127.0.0.1:9003"])
        let sent = addresses.map { peers.request("/api/v1/printers", of: $0, authorization: "Basic YTpi") }
        #expect(sent[0].0 == "http://127.0.0.1:9001/api/v1/printers")
        #expect(sent[0].1 == ["VPrinter-Peer-Hop: 1"])
        #expect(sent[1].1 == ["VPrinter-Peer-Hop: 1", "Authorization: Basic YTpi"])
        #expect(sent[2].0 == "http://f:p@127.0.0.1:9003/api/v1/printers", "its own, sent by the client as Basic")
        #expect(sent[2].1 == ["VPrinter-Peer-Hop: 1"])
        #expect(FleetPeers.withoutCredentials("http://f:p@127.0.0.1:9003") == "http://127.0.0.1:9003")
    }

    @Test func fanOutsInFlightAreCapped() {
        let count = FanOutCount()
        for _ in 0..<FleetPeers.maximumFanOutsInFlight { #expect(count.take(upTo: FleetPeers.maximumFanOutsInFlight)) }
        #expect(!count.take(upTo: FleetPeers.maximumFanOutsInFlight))
        count.release()
        #expect(count.take(upTo: FleetPeers.maximumFanOutsInFlight))
    }
}
