import Foundation
import HTTPServer
import IPP
import PrinterCore
import RequestJournal
import Synchronization

/// The HTTP face of the printers of one process: IPP over HTTP on each printer's path, icons, the web page and
/// the JSON API, all on one port.
public final class PrinterService: HTTPHandler {
    /// The printers served, by path, name and printer-id; they may come and go at runtime.
    public let registry: PrinterRegistry
    /// Every printer served now, in order.
    public var printers: [Printer] { registry.printers }
    /// The fleet that creates and removes printers at runtime; nil for a fixed set (an embedded printer).
    let fleet = Mutex<PrinterFleet?>(nil)
    /// IPP request and render measurements for `GET /metrics`.
    public let metrics: ServiceMetrics
    /// When the service started: system-up-time of the System Service.
    let startTime = WallClock.now()
    let log: @Sendable (String) -> Void
    /// How long a request with `Expect: 100-continue` may take to start sending its attributes before the printer
    /// answers `100 Continue` anyway, in seconds.
    static let continueGrace = 0.2
    /// The most bytes of IPP header and attributes read from a request without credentials, on a printer that asks
    /// for them, before it answers 401: Get-Printer-Attributes, the one operation open to all, takes a few hundred.
    static let anonymousMessageBytes = 64 * 1024
    /// The size of each read of a document body.
    static let documentReadSize = 256 * 1024

    /// Job and printer events of every printer here.
    public let events: EventHub
    /// When set, mutating API calls need `Authorization: Bearer <token>`; when nil, they are accepted from
    /// loopback only.
    let apiToken: String?
    /// The digest of `apiToken`, compared in constant time.
    let apiTokenDigest: [UInt8]?
    /// Who may do what when credentials are asked for (`--user`); `.open` asks for none.
    let access: AccessControl
    /// What the ports speak (TLS or not) and whether credentials are asked for: the System Service's URIs
    /// and the answer to credentials over plain HTTP (426 when TLS is there to upgrade to).
    let security: PrinterSecurity
    /// Every request to this service (docs/api.md "Requests"); nil when the journal is off.
    public let journal: Journal?
    /// The findings of the request each thread journaled last (a polling client repeats itself).
    let findingsMemo = RequestFindingsMemo()
    /// The event streams open now (`/api/v1/events`, `/api/v1/requests/events`), per client address too.
    let eventStreams = StreamSlots(
        total: PrinterService.maximumEventStreams, perClient: PrinterService.maximumEventStreamsPerClient)
    /// Failed logins per client address: past a few a minute, credentials are not compared (429).
    let logins = LoginThrottle()
    /// The names a request's Host may give (`--allowed-host`): others are refused with 421 (DNS rebinding).
    let hosts: HostPolicy
    /// The origins an API change may come from besides the printer's own (`--allow-origin`).
    let origins: OriginPolicy
    /// The other processes of a fleet served in slices, whose printers and jobs the listings include.
    let peers: FleetPeers

    public init(
        printers: [Printer], events: EventHub? = nil, apiToken: String? = nil, access: AccessControl = .open,
        journal: Journal? = nil, hosts: HostPolicy = .machine, origins: OriginPolicy = OriginPolicy(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        registry = PrinterRegistry(
            printers.enumerated().map { index, printer in
                HostedPrinter(printer: printer, id: index + 1, port: nil, txtOverrides: [], isRuntime: false)
            })
        self.events = events ?? printers.first?.events ?? EventHub()
        self.apiToken = apiToken
        apiTokenDigest = apiToken.map { ConstantTime.digest(of: Array($0.utf8)) }
        self.access = access
        security = printers.first?.configuration.security ?? PrinterSecurity()
        self.journal = journal
        self.hosts = hosts
        self.origins = origins
        peers = .none
        self.log = log
        metrics = ServiceMetrics()
    }

    /// A service over a registry that a ``PrinterFleet`` fills; `security` is what its ports speak and ask,
    /// which every printer the fleet makes states too.
    public init(
        registry: PrinterRegistry, events: EventHub, apiToken: String? = nil, access: AccessControl = .open,
        security: PrinterSecurity = PrinterSecurity(), metrics: ServiceMetrics = ServiceMetrics(),
        journal: Journal? = nil, hosts: HostPolicy = .machine, origins: OriginPolicy = OriginPolicy(),
        peers: FleetPeers = .none, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.registry = registry
        self.peers = peers
        self.journal = journal
        self.hosts = hosts
        self.origins = origins
        self.metrics = metrics
        self.events = events
        self.apiToken = apiToken
        apiTokenDigest = apiToken.map { ConstantTime.digest(of: Array($0.utf8)) }
        self.access = access
        self.security = security
        self.log = log
    }

    /// The printer at a resource path.
    func printer(atPath path: String) -> Printer? {
        registry.printer(atPath: path)?.printer
    }

    public func handle(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        // IPP requests are journaled by handleIPP, with what they asked; every other request here.
        guard journal != nil, !Self.reachesIPP(request) else { return answer(request, body: &body) }
        let started = ContinuousClock.now
        let startedAt = Date().timeIntervalSince1970
        let response = answer(request, body: &body)
        journalHTTP(request, response: response, started: started, startedAt: startedAt)
        return response
    }

    /// Whether a request goes to the IPP route: a POST of an IPP message to any path but the API's.
    static func reachesIPP(_ request: HTTPRequest) -> Bool {
        request.method == "POST" && !isAPIPath(request.path)
            && (request.headers["Content-Type"]?.lowercased().hasPrefix("application/ipp") ?? false)
    }

    private func answer(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        if let refusal = misdirectedRefusal(request) { return refusal }
        if request.method == "OPTIONS" {
            // A switched-off printer answers nothing, not even OPTIONS.
            if let printer = printer(atPathOrBelow: request.path), !printer.power.isOn {
                return Self.unanswered(printer)
            }
            // RFC 9110 section 9.3.7; CUPS sends `OPTIONS *` to upgrade a connection to TLS (RFC 2817).
            var response = HTTPResponse(status: 200)
            response.headers.set("Allow", "GET, HEAD, OPTIONS, POST")
            return response
        }
        // A switched-off printer answers nothing at its own paths; IPP itself is silenced in handleIPP once the
        // request's printer is known (one lookup).
        if request.method != "POST", request.path.hasPrefix("/ipp/"),
            let printer = printer(atPathOrBelow: request.path), !printer.power.isOn
        {
            return Self.unanswered(printer)
        }
        return route(request, body: &body)
    }

    /// The IPP route: an IPP request in the body, whatever the path.
    func answerIPP(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/ipp") else {
            return HTTPResponse(status: 400, text: "IPP requests need Content-Type: application/ipp.\n")
        }
        return handleIPP(request, body: &body)
    }

    /// Decodes the IPP request from the body, runs the operation, and streams any document to disk.
    func handleIPP(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        let exchange = IPPExchange()
        let response = exchangeIPP(request, body: &body, exchange: exchange)
        journalIPP(request, exchange: exchange, response: response)
        return response
    }

    /// Answers one IPP request, noting in `exchange` what the journal keeps of it.
    private func exchangeIPP(_ request: HTTPRequest, body: inout HTTPRequestBody, exchange: IPPExchange)
        -> HTTPResponse
    {
        // RFC 8010 section 4 / DESIGN.md: read and check the attributes first, then answer 100 Continue (or a final
        // error that spares the client sending its document).
        body.sendsContinueOnRead = false
        // The head and the attributes arrive by one deadline (a client may not trickle them), the document
        // after them at the pace of each read (the deadline is lifted once the attributes are in).
        body.deadline = request.headDeadline
        do {
            try body.sendContinueUnlessDataArrives(within: Self.continueGrace)
        } catch {
            return HTTPResponse(status: error.responseStatus ?? 400, text: "The request body did not arrive.\n")
        }
        // A printer that asks for credentials reads only a little from a request without them before it says so.
        let anonymous = access.isEnabled && !carriesCredentials(request)
        var accumulator = IPPMessageAccumulator(
            limits: anonymous ? IPPLimits(maximumMessageBytes: Self.anonymousMessageBytes) : .default)
        var header: [UInt8] = []
        var decoded: (message: IPPMessage, remainder: ArraySlice<UInt8>)?
        while decoded == nil {
            let chunk: [UInt8]
            do {
                chunk = try body.read(maximum: 64 * 1024)
            } catch {
                log("IPP request from \(request.remoteAddress) failed: \(error)")
                return HTTPResponse(status: error.responseStatus ?? 400, text: "The request body did not arrive.\n")
            }
            if header.count < 8 { header += chunk.prefix(8 - header.count) }
            do throws(IPPDecodingError) {
                decoded = chunk.isEmpty ? try accumulator.finish() : try accumulator.append(chunk)
            } catch {
                if anonymous, case .messageTooLarge = error,
                    case .refused(let response) = admit(request, needsCredentials: true)
                {
                    exchange.problem = "a request without credentials grew past \(Self.anonymousMessageBytes) bytes"
                    return response
                }
                exchange.problem = "the request is malformed: \(error)"
                exchange.decodingError = error
                // The journal holds it against the printer whose path it was posted to, if any.
                exchange.printer = printer(atPath: request.path)?.name
                return ipp(Self.decodingErrorResponse(error), header: header)
            }
        }
        guard let (message, remainder) = decoded else { return HTTPResponse(status: 500) }
        body.deadline = nil
        exchange.message = message
        if request.path == SystemService.path {
            exchange.isSystemRequest = true
            // Reading the system is open as Get-Printer-Attributes is; changes follow the API's rules.
            var refusal: ChangeRefusal?
            if SystemService.changingOperations.contains(message.operation) {
                refusal = changeRefusal(request)
            } else if case .refused(let response) = admit(request, needsCredentials: false) {
                return response
            }
            if case .http(let response)? = refusal { return response }
            return ipp(
                SystemService(service: self).perform(message, request: request, refusal: refusal), to: message,
                exchange: exchange)
        }
        let target: IPPRequestValidator.Target
        switch IPPRequestValidator.validate(message) {
        case .success(let value): target = value
        case .failure(let error):
            // The journal holds the request against the printer its printer-uri names, where it names one.
            if let uri = message[group: .operationAttributes]?["printer-uri"]?.value?.stringValue,
                let path = IPPRequestValidator.path(of: uri), let printer = printer(atPath: path)
            {
                exchange.printer = printer.name
                exchange.printerObject = printer
            }
            return ipp(error.response, to: message, exchange: exchange)
        }
        exchange.jobID = target.jobID
        // A scanner alone (a scan-only profile) is no printer: it answers IPP as a path without one.
        guard let printer = printer(atPath: target.printerPath), printer.prints else {
            return ipp(
                .error(.clientErrorNotFound, "There is no printer at \(target.printerPath)."), to: message,
                exchange: exchange)
        }
        exchange.printer = printer.name
        exchange.printerObject = printer
        // A switched-off printer answers nothing, not even a request for credentials.
        guard printer.power.isOn else { return Self.unanswered(printer) }
        let identity: ClientIdentity
        switch admit(request, needsCredentials: !Printer.openOperations.contains(message.operation)) {
        case .allowed(let client): identity = client
        case .refused(let response): return response
        }
        exchange.user = identity.userName
        let operation = message[group: .operationAttributes]
        let user = operation?["requesting-user-name"]?.value?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        var context = IPPRequestContext(
            message: message, uriAuthority: request.uriAuthority(), user: identity.userName ?? user ?? "anonymous",
            client: ClientInfo(address: request.remoteAddress, userAgent: request.headers["User-Agent"]),
            printerURI: target.printerURI, jobID: target.jobID, attributes: printer.cache)
        context.identity = identity
        context.requiresAuthentication = access.isEnabled
        context.isEncrypted = request.isEncrypted
        exchange.advertised = AdvertisedPrinter(context.attributes)
        if let refusal = printer.authorizationRefusal(context) {
            return ipp(refusal.response, to: message, exchange: exchange)
        }
        // Without credentials asked for, administering the printer follows the API's rule for changes.
        if !access.isEnabled, Printer.administrativeOperations.contains(message.operation),
            let refusal = changeRefusal(request)
        {
            return ipp(refusal.ippResponse(for: message.operation), to: message, exchange: exchange)
        }
        // A strict printer refuses what the checker finds at fault before it performs anything.
        if printer.isStrict {
            let findings = RequestChecker(printer: AdvertisedPrinter(context.attributes)).findings(in: message)
            exchange.requestFindings = findings
            if let refusal = StrictRefusal.response(for: findings, in: message) {
                return ipp(refusal, to: message, exchange: exchange)
            }
        }
        var abort: HTTPResponse.Abort?
        var bytesPerSecond: Int?
        for effect in printer.requestFaultEffects(operation: message.operation.description) {
            switch effect {
            case .status(let status, let text):
                log("fault: answering \(message.operation) with \(status)")
                return ipp(.error(status, text), to: message, exchange: exchange)
            case .delay(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            case .closeConnection(let midResponse):
                abort = midResponse ? .midResponse : .beforeResponse
            case .slowRead(let rate):
                bytesPerSecond = rate
            default:
                break
            }
        }
        var response: HTTPResponse
        switch printer.perform(context) {
        case .response(let answer):
            response = ipp(answer, to: message, exchange: exchange)
        case .receiveDocument(let reception):
            do {
                try body.sendContinue()
            } catch {
                reception.writer.discard()
                return HTTPResponse(status: 400, text: "The connection failed.\n")
            }
            response = ipp(
                receive(
                    reception, remainder: remainder, body: &body, bytesPerSecond: bytesPerSecond, printer: printer,
                    exchange: exchange),
                to: message, exchange: exchange)
        }
        if let abort {
            log("fault: breaking the connection of \(message.operation) (\(abort))")
            response.abort = abort
        }
        return response
    }

    /// Streams the document that follows the attributes into the job's folder.
    func receive(
        _ reception: DocumentReception, remainder: ArraySlice<UInt8>, body: inout HTTPRequestBody,
        bytesPerSecond: Int? = nil, printer: Printer? = nil, exchange: IPPExchange? = nil
    ) -> IPPResponse {
        let writer = reception.writer
        let readSize = min(Self.documentReadSize, max(1, bytesPerSecond ?? Self.documentReadSize))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
        defer { buffer.deallocate() }
        do throws(DocumentError) {
            try writer.write(remainder)
            printer?.counters.bytesReceived.add(remainder.count, ordering: .relaxed)
            while true {
                let count: Int
                do {
                    count = try body.read(into: buffer)
                } catch {
                    throw DocumentError.transfer("\(error)")
                }
                if count == 0 { break }
                printer?.counters.bytesReceived.add(count, ordering: .relaxed)
                try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if let bytesPerSecond { Thread.sleep(forTimeInterval: Double(count) / Double(bytesPerSecond)) }
            }
            let document = try writer.finish()
            exchange?.document = JournalEntry.Document(
                format: document.format.rawValue, detectedFormat: document.detectedFormat?.rawValue,
                size: document.size, sha256: document.sha256)
            return reception.complete(.success(document))
        } catch {
            writer.discard()
            return reception.complete(.failure(error))
        }
    }

    /// The HTTP response carrying an IPP response to a decoded request (same version and request-id); with an
    /// exchange, the request is counted in the metrics with its latency and the answer kept for the journal.
    func ipp(_ response: IPPResponse, to request: IPPMessage, exchange: IPPExchange? = nil) -> HTTPResponse {
        if let exchange {
            exchange.response = response
            metrics.recordRequest(
                operation: request.operation, status: response.status,
                seconds: (ContinuousClock.now - exchange.started).seconds)
        }
        let version = request.version.major == 1 || request.version.major == 2 ? request.version : .v1_1
        return ippHTTPResponse(response.encode(version: version, requestID: request.requestID))
    }

    /// The HTTP response for a request that did not decode: version and request-id from its first bytes.
    func ipp(_ response: IPPResponse, header: [UInt8]) -> HTTPResponse {
        var version = IPPVersion.v1_1
        var requestID: Int32 = 0
        if header.count >= 8 {
            if header[0] == 1 || header[0] == 2 { version = IPPVersion(major: header[0], minor: header[1]) }
            requestID = Int32(
                bitPattern: UInt32(header[4]) << 24 | UInt32(header[5]) << 16 | UInt32(header[6]) << 8
                    | UInt32(header[7]))
        }
        return ippHTTPResponse(response.encode(version: version, requestID: requestID))
    }

    private func ippHTTPResponse(_ bytes: [UInt8]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/ipp")
        return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
    }

    /// The IPP status for a message that does not decode.
    static func decodingErrorResponse(_ error: IPPDecodingError) -> IPPResponse {
        switch error {
        case .valueTooLong, .nameTooLong:
            .error(.clientErrorRequestValueTooLong, "The request is malformed: \(error).")
        case .messageTooLarge:
            .error(.clientErrorRequestEntityTooLarge, "The request is malformed: \(error).")
        default:
            .error(.clientErrorBadRequest, "The request is malformed: \(error).")
        }
    }
}
