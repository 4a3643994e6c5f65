import Foundation
import HTTPServer
import IPP
import PrintModel
import PrinterCore

/// The JSON API (DESIGN.md "JSON API", docs/api.md): jobs, recorded files, reset, wait, events; the routes are in
/// ``PrinterService/routes``.
extension PrinterService {
    /// The longest a `wait` may block, in seconds; longer requests are refused.
    static let maximumWaitTimeout: Double = 3600
    /// Event streams open at once; more are answered 503.
    static let maximumEventStreams = 64
    /// Event streams open at once from one client address; more are answered 503.
    static let maximumEventStreamsPerClient = 8
    /// Seconds between keep-alive comments on an idle event stream.
    static let eventKeepAliveInterval: Double = 15

    /// A mutating call is refused unless it carries the API token (compared in constant time); with credentials
    /// asked for, an admin's credentials do too (401 without credentials, 403 for other users); with neither
    /// set, only loopback may change things.
    func refuseMutation(_ request: HTTPRequest) -> HTTPResponse? {
        switch changeRefusal(request) {
        case nil: return nil
        case .http(let response): return response
        case .notAdmin: return json(["error": "changes are for admins (vprinter --admin NAME)"], status: 403)
        case .needsToken: return json(["error": "this call needs Authorization: Bearer <api token>"], status: 403)
        case .notLoopback:
            return json(
                ["error": "changes are accepted from loopback only; start vprinter with --api-token"], status: 403)
        }
    }

    /// Jobs oldest first, with the filters of ``JobQuery`` (docs/api.md "Queries"), a page at a time.
    func listJobs(_ request: HTTPRequest, identity: ClientIdentity = .anonymous) -> HTTPResponse {
        guard let size = pageSize(request) else { return badPageSize() }
        do throws(JobQueryError) {
            let query = try JobQuery(parameters: request.query, otherNames: ["limit", FleetPeers.parameter])
            let jobs = selectJobs(query, identity: identity)
            return includesPeers(request)
                ? fleetPage(jobs, size: size, of: request) : page(jobs, size: size, of: request)
        } catch {
            return refusal(error)
        }
    }

    /// The 400 answer to filters that cannot be applied.
    func refusal(_ error: JobQueryError) -> HTTPResponse {
        json(["error": error.description], status: 400)
    }

    /// `DELETE /api/v1/jobs`: forgets every job, or only those the filters select.
    func deleteJobs(_ request: HTTPRequest) -> HTTPResponse {
        let query: JobQuery
        do throws(JobQueryError) {
            query = try JobQuery(parameters: request.query)
        } catch {
            return refusal(error)
        }
        let count: Int
        if query.isEmpty {
            count = printers.reduce(0) { $0 + $1.forgetAllJobs() }
        } else {
            count = printers.reduce(0) { total, printer in
                total + printer.forgetJobs(Set(printer.jobs(matching: query).map(\.id)))
            }
        }
        log("API: forgot \(count) jobs")
        return json(["deleted": count])
    }

    /// A JSON array of job records, from each record's bytes (no encoding per request).
    func jsonList(_ jobs: [Job], status: Int = 200) -> HTTPResponse {
        jsonBytes(recordArray(jobs), status: status)
    }

    /// The records of `jobs` as one JSON array, from the bytes each record was last written as.
    func recordArray(_ jobs: [Job]) -> [UInt8] {
        recordArray(jobs.lazy.map { JobRecorder.json(of: $0) }, count: jobs.count)
    }

    /// Records already encoded (`count` of them) as one JSON array, one record a line.
    func recordArray(_ records: some Sequence<[UInt8]>, count: Int) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(count * 2048)
        for (index, record) in records.enumerated() {
            if index > 0 { bytes += [UInt8(ascii: ","), 0x0A] }
            bytes += record
        }
        bytes += [UInt8(ascii: "]")]
        return bytes
    }

    /// The answer of a wait that timed out (408): the error and the records of the jobs that had ended.
    func timedOut(_ ended: [Job], of count: Int) -> HTTPResponse {
        timedOut(records: recordArray(ended), ended: ended.count, of: count)
    }

    /// The same from the array of the ended jobs' records (`ended` of them).
    func timedOut(records: [UInt8], ended: Int, of count: Int) -> HTTPResponse {
        let error = (try? RecordJSONWriter.encode(.string("timed out with \(ended) of \(count) jobs ended"))) ?? []
        let bytes = Array("{\n  \"error\" : ".utf8) + error + Array(",\n  \"jobs\" : ".utf8) + records
        return jsonBytes(bytes + Array("\n}".utf8), status: 408)
    }

    /// JSON bytes as a response.
    func jsonBytes(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes + [0x0A]))
    }

    /// The jobs a query selects that the client may see, oldest first.
    /// The jobs a query selects that the client may see (only ended ones with `endedOnly`), oldest first. The text
    /// of a job (which may take OCR) is read only for jobs the client may see and the other filters let through,
    /// and for ended jobs only when `endedOnly`.
    func selectJobs(_ query: JobQuery, identity: ClientIdentity = .anonymous, endedOnly: Bool = false) -> [Job] {
        var withoutText = query
        withoutText.text = nil
        return printers.flatMap { printer in
            printer.jobs(matching: withoutText).filter { job in
                guard !endedOnly || job.state.isTerminal, canSee(job, identity) else { return false }
                guard query.text != nil else { return true }
                return query.matches(text: (printer.sideTexts(jobID: job.id) ?? []).compactMap(\.text))
            }
        }.sorted { $0.id < $1.id }
    }

    func job(_ text: String) -> Job? {
        guard let id = Int(text), id > 0 else { return nil }
        return printers.lazy.compactMap { $0.job(id) }.first
    }

    /// A file recorded in a job's folder; the name must be a plain file name of the job (no path).
    func jobFile(jobID: String, name: String) -> HTTPResponse {
        guard let job = job(jobID) else { return json(["error": "no job \(jobID)"], status: 404) }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard allowed, !name.hasPrefix("."), !name.isEmpty,
            let printer = printers.first(where: { $0.job(job.id) != nil })
        else {
            return json(["error": "no file \(name) in job \(jobID)"], status: 404)
        }
        let path = "\(printer.recorder.folder(of: job.id))/\(name)"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return json(["error": "no file \(name) in job \(jobID)"], status: 404)
        }
        return HTTPResponse(status: 200, headers: Self.fileHeaders(ofFile: name), body: .file(path: path))
    }

    /// The header fields of a recorded file (a job's document, page or text, a scan's image): its Content-Type, and
    /// `X-Content-Type-Options: nosniff`, so that no browser takes a client's document for a page of the printer's
    /// site (an HTML or SVG file sent as a document would otherwise run as the printer's own).
    static func fileHeaders(ofFile name: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.set("Content-Type", contentType(ofFile: name))
        headers.set("X-Content-Type-Options", "nosniff")
        return headers
    }

    static func contentType(ofFile name: String) -> String {
        switch name.split(separator: ".").last.map(String.init) {
        case "png": "image/png"
        case "txt": "text/plain; charset=utf-8"
        case "json": "application/json"
        case "pdf": "application/pdf"
        case "jpg": "image/jpeg"
        case "pwg": "image/pwg-raster"
        case "urf": "image/urf"
        default: "application/octet-stream"
        }
    }

    /// A wait's `timeout` in seconds (default 30); nil when it is not a number from 0 to ``maximumWaitTimeout``.
    func waitTimeout(_ request: HTTPRequest) -> Double? {
        guard let text = request.queryValue("timeout") else { return 30 }
        guard let value = Double(text), value.isFinite, value >= 0, value <= Self.maximumWaitTimeout else { return nil }
        return value
    }

    /// The 400 for a timeout ``waitTimeout(_:)`` refuses.
    func badWaitTimeout() -> HTTPResponse {
        json(["error": "timeout must be seconds from 0 to \(Int(Self.maximumWaitTimeout))"], status: 400)
    }

    /// Blocks until `count` (or `jobs`) jobs that pass the filters have ended, then answers them; 408 after
    /// `timeout` seconds.
    func wait(_ request: HTTPRequest, identity: ClientIdentity = .anonymous) -> HTTPResponse {
        let counts = [request.queryValue("count"), request.queryValue("jobs")].compactMap { $0 }
        guard let countText = counts.first, let count = Int(countText), count > 0 else {
            return json(["error": "wait needs count=N (or jobs=N) with N > 0"], status: 400)
        }
        guard Set(counts).count == 1 else {
            return json(["error": "count and jobs disagree; give one of them"], status: 400)
        }
        guard let size = pageSize(request) else { return badPageSize() }
        guard count <= size else {
            return json(
                ["error": "count must not be more than limit (\(size)), the most jobs one answer holds"], status: 400)
        }
        let query: JobQuery
        do throws(JobQueryError) {
            query = try JobQuery(
                parameters: request.query, otherNames: ["count", "jobs", "timeout", "limit", FleetPeers.parameter])
        } catch {
            return refusal(error)
        }
        guard let timeout = waitTimeout(request) else { return badWaitTimeout() }
        if includesPeers(request) {
            return fleetWait(query, count: count, size: size, timeout: timeout, request: request, identity: identity)
        }
        let subscription = events.subscribe()
        defer { subscription.cancel() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let ended = selectJobs(query, identity: identity, endedOnly: true)
            if ended.count >= count { return page(ended, size: size, of: request) }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                return timedOut(ended, of: count)  // fewer than count, so fewer than a page
            }
            _ = subscription.next(timeout: remaining)
        }
    }

    /// Server-sent events (text/event-stream): one event per job or printer state change.
    func eventStream(_ request: HTTPRequest, identity: ClientIdentity = .anonymous) -> HTTPResponse {
        let client = request.remoteAddress
        guard eventStreams.take(for: client) else { return tooManyStreams() }
        let subscription = events.subscribe()
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", "no-cache")
        return HTTPResponse(
            status: 200, headers: headers,
            body: .stream { stream in
                defer {
                    subscription.cancel()
                    self.eventStreams.release(for: client)
                }
                try stream.write(": vprinter events\n\n")
                try stream.flush()
                while !stream.isServerStopping {
                    guard let batch = subscription.next(timeout: Self.eventKeepAliveInterval) else {
                        try stream.write("event: overflow\ndata: {\"error\":\"the client read too slowly\"}\n\n")
                        try stream.flush()
                        return
                    }
                    if batch.isEmpty { try stream.write(": keep-alive\n\n") }
                    for event in batch where self.mayReceive(event, identity) {
                        let data =
                            (try? JSONSerialization.data(withJSONObject: event.json, options: [.sortedKeys])) ?? Data()
                        try stream.write("id: \(event.sequence)\nevent: \(event.kind.rawValue)\ndata: ")
                        try stream.write(Array(data))
                        try stream.write("\n\n")
                    }
                    try stream.flush()
                }
            })
    }

    /// 503 for an event stream past the limits (`eventStreams`), with when to try again.
    func tooManyStreams() -> HTTPResponse {
        var response = json(
            [
                "error":
                    "too many event streams open (at most \(Self.maximumEventStreams), "
                    + "\(Self.maximumEventStreamsPerClient) from one address)"
            ], status: 503)
        response.headers.set("Retry-After", "5")
        return response
    }

    /// Whether an event may go to a client: printer events always, job events when it may see the job.
    func mayReceive(_ event: PrinterEvent, _ identity: ClientIdentity) -> Bool {
        guard access.isEnabled, !identity.isAdmin, let id = event.jobID else { return true }
        return job(String(id)).map { canSee($0, identity) } ?? false
    }
}
