import Dispatch
import Foundation
import HTTPServer
import Synchronization

/// The other processes of a fleet served in slices (`--peers`, docs/kubernetes.md): the API's printer and job
/// listings of any one of them include the others', so that a test asks one address.
///
/// A peer is `HOST:PORT` or `http(s)://HOST:PORT`; a HOST that resolves to several addresses (a headless
/// Service's name, which resolves to every ready pod) stands for each of them, resolved again at every query as pods
/// come and go. This process itself (its port on an address of this machine) is left out. A peer asked for its
/// part gets `peers=none` in the query, and answers with its own printers and jobs only.
public struct FleetPeers: Sendable {
    /// The peers as given.
    public let entries: [String]

    /// The query parameter, and its value, with which a process is asked for its own part only.
    public static let parameter = "peers"
    public static let ownPartOnly = "none"
    /// How long a peer may take to answer, in seconds.
    public static let timeout = 10.0
    /// The most addresses one entry may resolve to.
    public static let maximumAddressesPerEntry = 256

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

    /// One peer's answer: its base URL, status and body.
    public struct Answer: Sendable {
        public let peer: String
        public let status: Int
        public let body: [UInt8]
    }

    /// Why a query of the peers failed: which peer, and what it did.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let peer: String
        public let problem: String
        public var description: String { "peer \(peer) \(problem)" }
    }

    /// A parsed entry: scheme (`http` or `https`), host (without brackets) and port.
    struct Target: Hashable {
        var scheme: String
        var host: String
        var port: UInt16
    }

    static func parse(_ entry: String) -> Target? {
        var rest = Substring(entry)
        var scheme = "http"
        for prefix in ["http://", "https://"] where rest.hasPrefix(prefix) {
            scheme = String(prefix.dropLast(3))
            rest = rest.dropFirst(prefix.count)
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0
        else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@"), !host.contains(" ") else { return nil }
        return Target(scheme: scheme, host: String(host), port: port)
    }

    /// The base URLs of the peers now (`http://10.0.0.7:8631`): every address each entry resolves to, without
    /// this process's own (`ownPort` on an address of this machine). An entry that does not resolve is itself a
    /// failure: a peer that cannot be found is as missing as one that does not answer.
    public func baseURLs(ownPort: UInt16) -> Result<[String], Failure> {
        let own = Set(LocalAddresses.interfaceAddresses + ["localhost"])
        var urls: [String] = []
        for entry in entries {
            guard let target = Self.parse(entry) else { continue }
            let addresses = LocalAddresses.addresses(of: target.host)
            guard !addresses.isEmpty else { return .failure(Failure(peer: entry, problem: "does not resolve")) }
            for address in addresses.prefix(Self.maximumAddressesPerEntry)
            where !(target.port == ownPort && own.contains(address)) {
                let host = address.contains(":") ? "[\(address)]" : address
                let url = "\(target.scheme)://\(host):\(target.port)"
                if !urls.contains(url) { urls.append(url) }
            }
        }
        return .success(urls)
    }

    /// GETs `pathAndQuery` (with `peers=none` added) from every peer at once, each with `headers`; their
    /// answers in the order of `baseURLs`, or the first peer that did not answer (or, unless `acceptingAny`, did
    /// not answer 200).
    public func get(_ pathAndQuery: String, ownPort: UInt16, headers: [String] = [], acceptingAny: Bool = false)
        -> Result<[Answer], Failure>
    {
        let urls: [String]
        switch baseURLs(ownPort: ownPort) {
        case .success(let found): urls = found
        case .failure(let failure): return .failure(failure)
        }
        let separator = pathAndQuery.contains("?") ? "&" : "?"
        let target = pathAndQuery + separator + Self.parameter + "=" + Self.ownPartOnly
        let results = Mutex<[Int: Result<Answer, Failure>]>([:])
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            let url = urls[index]
            let result: Result<Answer, Failure>
            do {
                let response = try HTTPClient.get(url + target, headers: headers, timeout: Self.timeout)
                result =
                    response.status == 200 || acceptingAny
                    ? .success(Answer(peer: url, status: response.status, body: response.body))
                    : .failure(Failure(peer: url, problem: "answered \(response.status)"))
            } catch {
                result = .failure(Failure(peer: url, problem: "did not answer: \(error)"))
            }
            results.withLock { $0[index] = result }
        }
        let collected = results.withLock { $0 }
        var answers: [Answer] = []
        for index in urls.indices {
            switch collected[index] {
            case .success(let answer): answers.append(answer)
            case .failure(let failure): return .failure(failure)
            case nil: return .failure(Failure(peer: urls[index], problem: "was not asked"))
            }
        }
        return .success(answers)
    }
}
