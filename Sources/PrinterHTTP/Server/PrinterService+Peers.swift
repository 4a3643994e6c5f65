import Foundation
import HTTPServer
import PrinterCore

#if canImport(Glibc)
    import Glibc
#endif

/// The listings of a fleet served in slices (`FleetPeers`): `GET /api/v1/printers`, `GET /api/v1/jobs` and
/// `GET /api/v1/wait` answer with this process's printers and jobs and its peers', and a job of a peer (its record,
/// text and files) is fetched from the peer that has it, its files streamed. A peer that does not answer makes the
/// answer 502, naming it: a listing with a slice missing would pass for the whole fleet. At most
/// `FleetPeers.maximumFanOutsInFlight` requests ask the peers at once; the others are answered 503.
extension PrinterService {
    /// Whether the answer to `request` includes the peers': peers are set, it is no peer's request (the hop
    /// header), and it did not ask for this process's own part only (`peers=none`).
    func includesPeers(_ request: HTTPRequest) -> Bool {
        !peers.isEmpty && request.headers[FleetPeers.hopHeader] == nil
            && request.queryValue(FleetPeers.parameter) != FleetPeers.ownPartOnly
    }

    /// What a peer is asked for `request`: its path and query without `peers` (the hop header says it all), with
    /// `name` set to `value` when given.
    func peerTarget(of request: HTTPRequest, setting name: String? = nil, to value: String = "") -> String {
        target(
            of: request, removing: Set([FleetPeers.parameter] + (name.map { [$0] } ?? [])),
            adding: name.map { [(name: $0, value: value)] } ?? [])
    }

    /// `GET /api/v1/printers`: every printer of this process, then each peer's.
    func printerListing(_ request: HTTPRequest) -> HTTPResponse {
        var listing: [Any] = printers.map { printerSummary($0, request: request) }
        guard includesPeers(request) else { return json(listing) }
        switch askPeers(request) {
        case .failure(let failure): return peerFailure(failure)
        case .success(let answers):
            for answer in answers {
                guard let list = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [Any] else {
                    return peerFailure(FleetPeers.Failure(peer: answer.peer, problem: "answered no JSON list"))
                }
                listing += list
            }
            return json(listing)
        }
    }

    /// The page of `GET /api/v1/jobs` of the whole fleet: this process's jobs the query selects and each peer's
    /// first page of the same query, merged by job-id (unique across slices), the first `size`; with a `Link` to
    /// the next page while this one is full.
    func fleetPage(_ jobs: [Job], size: Int, of request: HTTPRequest) -> HTTPResponse {
        switch peerRecords(peerTarget(of: request), request: request) {
        case .failure(let failure): return peerFailure(failure)
        case .success(let (records, peerPageFull)):
            return recordPage(merging: jobs, with: records, size: size, of: request, morePossible: peerPageFull)
        }
    }

    /// `GET /api/v1/wait` of the whole fleet: until `count` jobs the query selects have ended in this process and
    /// its peers together (the peers asked with `timeout=0` every `fleetWaitInterval`), at most `timeout` seconds;
    /// then the page of them, or 408 with those that had.
    func fleetWait(
        _ query: JobQuery, count: Int, size: Int, timeout: Double, request: HTTPRequest, identity: ClientIdentity
    ) -> HTTPResponse {
        let deadline = Date().addingTimeInterval(timeout)
        let peerTarget = peerTarget(of: request, setting: "timeout", to: "0")
        var interval = Self.fleetWaitFirstInterval
        while true {
            let ended = selectJobs(query, identity: identity, endedOnly: true)
            let records: [PeerRecord]
            switch peerRecords(peerTarget, request: request, waiting: true) {
            case .failure(let failure): return peerFailure(failure)
            case .success(let (found, _)): records = found
            }
            if ended.count + records.count >= count {
                return recordPage(merging: ended, with: records, size: size, of: request, morePossible: false)
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                let merged = Self.merged(ended, records)
                return timedOut(
                    records: recordArray(merged.lazy.map(\.bytes), count: merged.count), ended: merged.count, of: count)
            }
            usleep(UInt32(min(remaining, interval) * 1_000_000))
            interval = min(interval * 2, Self.fleetWaitLongestInterval)
        }
    }

    /// How long a wait across the fleet first waits before it asks the peers again, in seconds; each later pause
    /// is twice the one before, up to `fleetWaitLongestInterval`.
    static let fleetWaitFirstInterval = 0.25
    static let fleetWaitLongestInterval = 2.0

    /// A job record of a peer: its job-id and its JSON.
    typealias PeerRecord = (id: Int, bytes: [UInt8])

    /// The job records the peers answer `target` with (a list, or with `waiting`, a wait's answer: a list, or 408
    /// with `jobs`), and whether one of them answered a full page (more may follow it).
    private func peerRecords(_ target: String, request: HTTPRequest, waiting: Bool = false) -> Result<
        ([PeerRecord], Bool), FleetPeers.Failure
    > {
        let size = pageSize(request) ?? Self.maximumPageSize
        var records: [PeerRecord] = []
        var pageFull = false
        switch askPeers(request, target: target, acceptingAny: waiting) {
        case .failure(let failure): return .failure(failure)
        case .success(let answers):
            for answer in answers {
                let decoded = try? JSONSerialization.jsonObject(with: Data(answer.body))
                let list: [[String: Any]]? =
                    switch answer.status {
                    case 200: decoded as? [[String: Any]]
                    case 408 where waiting: (decoded as? [String: Any])?["jobs"] as? [[String: Any]]
                    default: nil
                    }
                guard let list, list.allSatisfy({ $0["job-id"] is Int }) else {
                    return .failure(
                        FleetPeers.Failure(
                            peer: answer.peer, problem: "answered \(answer.status) without a list of job records"))
                }
                pageFull = pageFull || list.count >= size
                for record in list {
                    guard let id = record["job-id"] as? Int,
                        let bytes = try? JSONSerialization.data(
                            withJSONObject: record, options: .withoutEscapingSlashes)
                    else { continue }
                    records.append((id, Array(bytes)))
                }
            }
            return .success((records, pageFull))
        }
    }

    /// This process's jobs and the peers' records, by job-id.
    private static func merged(_ jobs: [Job], _ records: [PeerRecord]) -> [PeerRecord] {
        (jobs.map { ($0.id, JobRecorder.json(of: $0)) } + records).sorted { $0.id < $1.id }
    }

    /// The first `size` of this process's jobs and the peers' records by job-id, with a `Link` to the next page
    /// when more follow (or, with `morePossible`, may).
    private func recordPage(
        merging jobs: [Job], with records: [PeerRecord], size: Int, of request: HTTPRequest, morePossible: Bool
    ) -> HTTPResponse {
        let all = Self.merged(jobs, records)
        let shown = all.prefix(size)
        var response = jsonBytes(recordArray(shown.lazy.map(\.bytes), count: shown.count))
        if let last = shown.last, all.count > size || morePossible {
            response.headers.set("Link", "<\(nextPage(of: request, after: last.id))>; rel=\"next\"")
        }
        return response
    }

    /// A job that is not this process's, asked of the peers (`GET /api/v1/jobs/{id}`, its text and files): the
    /// first that has it answers; 404 when none has. A file is streamed from the peer whose record says it has the
    /// job, never held whole.
    func peerJob(_ request: HTTPRequest, id: String) -> HTTPResponse {
        guard includesPeers(request) else { return json(["error": "no job \(id)"], status: 404) }
        let isFile = request.path.contains("/files/")
        switch askPeers(request, target: isFile ? "/api/v1/jobs/\(id)" : nil, acceptingAny: true) {
        case .failure(let failure): return peerFailure(failure)
        case .success(let answers):
            guard let found = answers.first(where: { $0.status == 200 }) else {
                return json(["error": "no job \(id) in this process or its peers"], status: 404)
            }
            guard isFile else { return jsonBytes(found.body) }
            let file = request.path.split(separator: "/").last.map(String.init) ?? ""
            let headers = Self.fileHeaders(ofFile: file)
            let (url, fields) = peers.request(
                peerTarget(of: request), of: found.address, authorization: request.headers["Authorization"])
            return HTTPResponse(
                status: 200, headers: headers,
                body: .stream { stream in
                    var written: HTTPServerError?
                    let answer = try HTTPClient.stream(
                        url, headers: fields, timeout: FleetPeers.fileTimeout, policy: FleetPeers.policy
                    ) {
                        bytes in
                        do throws(HTTPServerError) {
                            try stream.write(Array(bytes))
                            return true
                        } catch {
                            written = error
                            return false
                        }
                    }
                    if let written { throw written }
                    // The record said the peer has the job; a file it then does not serve cuts the answer short.
                    guard answer.status == 200 else { throw HTTPServerError.connectionClosed }
                })
        }
    }

    /// `target` (by default the request's own path and query, without `peers`) asked of every peer, with the
    /// request's credentials where they may go (`FleetPeers`); with `acceptingAny`, an answer other than 200 is an
    /// answer too. Busy (503) while `FleetPeers.maximumFanOutsInFlight` others ask.
    private func askPeers(_ request: HTTPRequest, target: String? = nil, acceptingAny: Bool = false) -> Result<
        [FleetPeers.Answer], FleetPeers.Failure
    > {
        let ownPort = fleet.withLock { $0?.port } ?? request.localPort
        return peers.get(
            target ?? peerTarget(of: request), ownPort: ownPort, authorization: request.headers["Authorization"],
            acceptingAny: acceptingAny)
    }

    private func peerFailure(_ failure: FleetPeers.Failure) -> HTTPResponse {
        guard !failure.isBusy else {
            var response = json(["error": "\(failure)"], status: 503)
            response.headers.set("Retry-After", "1")
            return response
        }
        return json(["error": "the fleet's listing is incomplete: \(failure)"], status: 502)
    }
}
