import Dispatch
import Foundation
import HTTPServer
import Synchronization

/// The other processes of a fleet served in slices (`--peers`, docs/kubernetes.md): the API's printer and job
/// listings of any one of them include the others', so that a test asks one address.
///
/// A peer is `HOST:PORT` or `http(s)://[USER:PASSWORD@]HOST:PORT`; a HOST that resolves to several addresses (a
/// headless Service's name, which resolves to every ready pod) stands for each of them, resolved again at every
/// query as pods come and go. This process itself (its port on an address of this machine) is left out.
///
/// A peer is asked with the `VPrinter-Peer-Hop` header, which only peers send: a request with it is answered with
/// the process's own printers and jobs, never asked of its peers again, so one client request makes at most one
/// request per peer whatever its query says (a client that sends the header itself only gets less). The client's
/// `Authorization` goes to a peer over TLS (`https://`) only; a peer named with credentials of its own gets those
/// instead, and a plain `http://` peer without them gets none.
public struct FleetPeers: Sendable {
    /// The peers as given.
    public let entries: [String]

    /// The query parameter, and its value, with which a client asks a process for its own part only.
    public static let parameter = "peers"
    public static let ownPartOnly = "none"
    /// The header field a process asks its peers with, and its value: the hops the request has made.
    public static let hopHeader = "VPrinter-Peer-Hop"
    public static let hopValue = "1"
    /// How long a peer may take to answer, in seconds.
    public static let timeout = 10.0
    /// The most addresses one entry may resolve to.
    public static let maximumAddressesPerEntry = 256
    /// The largest answer read from one peer (a listing or a page of job records; a job's files are streamed).
    public static let maximumAnswerBytes = 16 << 20
    /// The client requests asking the peers at once; more are answered 503 with Retry-After until one ends.
    public static let maximumFanOutsInFlight = 8
    /// How long a job's file may take to stream from a peer, in seconds.
    public static let fileTimeout = 600.0
    /// Where a peer may be (`FetchPolicy`): loopback too (slices on one machine), but never this process's own
    /// listeners, nor an unspecified, link-local or multicast address.
    public static let policy = FetchPolicy(allowsLoopback: true)

    /// The requests asking the peers now, shared by every copy of this value.
    private let fanOuts = FanOutCount()

    /// No peers: the process's listings are its own.
    public static let none = FleetPeers(validEntries: [])

    private init(validEntries: [String]) {
        entries = validEntries
    }

    /// The peers of `entries`; nil with the first entry that is neither `HOST:PORT` nor an http(s) URL of one.
    public init?(_ entries: [String]) {
        guard entries.allSatisfy({ Self.parse($0) != nil }) else { return nil }
        self.init(validEntries: entries)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// One peer's answer: its base URL (without credentials), status and body.
    public struct Answer: Sendable {
        public let peer: String
        public let status: Int
        public let body: [UInt8]
        /// The peer that answered, to ask again.
        public let address: Address
    }

    /// A peer to ask: its base URL as logged (`http://10.0.0.7:8631`), the URL asked (with the credentials it
    /// was named with, if any), and whether the client's `Authorization` may go to it.
    public struct Address: Sendable, Hashable {
        public let name: String
        let url: String
        let takesClientCredentials: Bool
    }

    /// Why a query of the peers failed: which peer, and what it did.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let peer: String
        public let problem: String
        /// Nothing was asked: `maximumFanOutsInFlight` other requests are asking the peers (answer 503).
        public var isBusy = false
        public var description: String {
            isBusy
                ? "\(FleetPeers.maximumFanOutsInFlight) requests are asking the fleet's peers already; try again"
                : "peer \(peer) \(problem)"
        }
    }

    /// The URL and header fields that ask `address` for `pathAndQuery`: the hop header, and the client's
    /// `authorization` where the peer may have it.
    public func request(_ pathAndQuery: String, of address: Address, authorization: String?) -> (String, [String]) {
        var headers = ["\(Self.hopHeader): \(Self.hopValue)"]
        if address.takesClientCredentials, let authorization { headers.append("Authorization: \(authorization)") }
        return (address.url + pathAndQuery, headers)
    }

    /// A parsed entry: scheme (`http` or `https`), credentials (`user:password`, percent-encoded, if named),
    /// host (without brackets) and port.
    struct Target: Hashable {
        var scheme: String
        var credentials: String?
        var host: String
        var port: UInt16

        /// The base URL of the peer at `address` (this entry's host by default), with the credentials or without.
        func url(at address: String? = nil, withCredentials: Bool) -> String {
            let host = address ?? self.host
            let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            let userinfo = withCredentials ? credentials.map { $0 + "@" } ?? "" : ""
            return "\(scheme)://" + userinfo + authority
        }
    }

    static func parse(_ entry: String) -> Target? {
        var rest = Substring(entry)
        var scheme = "http"
        var credentials: String?
        guard entry.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        for prefix in ["http://", "https://"] where rest.hasPrefix(prefix) {
            scheme = String(prefix.dropLast(3))
            rest = rest.dropFirst(prefix.count)
            if let at = rest.lastIndex(of: "@") {
                credentials = String(rest[..<at])
                rest = rest[rest.index(after: at)...]
                guard credentials?.contains(":") == true else { return nil }
            }
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0
        else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@"), !host.contains(" ") else { return nil }
        return Target(scheme: scheme, credentials: credentials, host: String(host), port: port)
    }

    /// The peers now (`http://10.0.0.7:8631`): every address each entry resolves to, without this process's own
    /// (`ownPort` on an address of this machine). An entry that does not resolve is itself a failure: a peer that
    /// cannot be found is as missing as one that does not answer.
    public func addresses(ownPort: UInt16) -> Result<[Address], Failure> {
        let own = Set(LocalAddresses.interfaceAddresses + ["localhost"])
        var found: [Address] = []
        for entry in entries {
            guard let target = Self.parse(entry) else { continue }
            let addresses = LocalAddresses.addresses(of: target.host)
            guard !addresses.isEmpty else {
                return .failure(Failure(peer: Self.withoutCredentials(entry), problem: "does not resolve"))
            }
            for address in addresses.prefix(Self.maximumAddressesPerEntry)
            where !(target.port == ownPort && own.contains(address)) {
                let peer = Address(
                    name: target.url(at: address, withCredentials: false),
                    url: target.url(at: address, withCredentials: true),
                    takesClientCredentials: target.scheme == "https" && target.credentials == nil)
                if !found.contains(peer) { found.append(peer) }
            }
        }
        return .success(found)
    }

    /// An entry as logged: without the credentials it may name.
    static func withoutCredentials(_ entry: String) -> String {
        guard let target = parse(entry), target.credentials != nil else { return entry }
        return target.url(withCredentials: false)
    }

    /// GETs `pathAndQuery` from every peer at once, with the hop header and (where `Address` allows it) the
    /// client's `authorization`; their answers in the order of `addresses`, or the first peer that did not answer
    /// (or, unless `acceptingAny`, did not answer 200). Each answer is read up to `maximumAnswerBytes`.
    public func get(
        _ pathAndQuery: String, ownPort: UInt16, authorization: String? = nil, acceptingAny: Bool = false
    ) -> Result<[Answer], Failure> {
        guard fanOuts.take(upTo: Self.maximumFanOutsInFlight) else {
            return .failure(Failure(peer: "", problem: "", isBusy: true))
        }
        defer { fanOuts.release() }
        let peers: [Address]
        switch addresses(ownPort: ownPort) {
        case .success(let found): peers = found
        case .failure(let failure): return .failure(failure)
        }
        let results = Mutex<[Int: Result<Answer, Failure>]>([:])
        DispatchQueue.concurrentPerform(iterations: peers.count) { index in
            let peer = peers[index]
            let (url, headers) = request(pathAndQuery, of: peer, authorization: authorization)
            let result: Result<Answer, Failure>
            do {
                let response = try HTTPClient.get(
                    url, headers: headers, timeout: Self.timeout, maximumBytes: Self.maximumAnswerBytes,
                    policy: Self.policy)
                result =
                    response.status == 200 || acceptingAny
                    ? .success(
                        Answer(peer: peer.name, status: response.status, body: response.body, address: peer))
                    : .failure(Failure(peer: peer.name, problem: "answered \(response.status)"))
            } catch {
                result = .failure(Failure(peer: peer.name, problem: "did not answer: \(error)"))
            }
            results.withLock { $0[index] = result }
        }
        let collected = results.withLock { $0 }
        var answers: [Answer] = []
        for index in peers.indices {
            switch collected[index] {
            case .success(let answer): answers.append(answer)
            case .failure(let failure): return .failure(failure)
            case nil: return .failure(Failure(peer: peers[index].name, problem: "was not asked"))
            }
        }
        return .success(answers)
    }
}

/// The requests of a process asking its peers now (`FleetPeers.maximumFanOutsInFlight`).
final class FanOutCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more unless `limit` are counted; whether it did.
    func take(upTo limit: Int) -> Bool {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func release() {
        count.subtract(1, ordering: .acquiringAndReleasing)
    }
}
