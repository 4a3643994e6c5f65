import CAvahi
import Glibc

/// A service instance found over DNS-SD: where it is and what its TXT record says.
public struct DNSSDResolvedService: Sendable, Equatable {
    /// The instance name, e.g. `Office MFP`.
    public var name: String
    /// The service type, e.g. `_ipp._tcp`.
    public var type: String
    /// The host name the service gave (`host.local`).
    public var hostName: String
    /// The address it resolved to (IPv4 preferred), as text.
    public var address: String
    public var port: UInt16
    /// The TXT record's `key=value` pairs in wire order (a key without `=` has an empty value).
    public var txt: [TXTEntry]

    /// One TXT key and its value.
    public struct TXTEntry: Sendable, Equatable {
        public var key: String
        public var value: String
    }
}

/// Why a DNS-SD lookup failed.
public enum DNSSDLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Avahi daemon could not be reached (no daemon or no D-Bus system bus).
    case daemonUnavailable(String)
    /// No service of that name and type answered within the time given.
    case notFound(name: String, type: String)
    /// Avahi refused the lookup.
    case failed(String)

    public var description: String {
        switch self {
        case .daemonUnavailable(let reason): "the Avahi daemon cannot be reached: \(reason)"
        case .notFound(let name, let type): "no DNS-SD service '\(name)' of type \(type) answered"
        case .failed(let reason): "DNS-SD lookup failed: \(reason)"
        }
    }
}

/// Blocking DNS-SD lookups through the Avahi daemon, for the command line (`vprinter clone`): resolve one
/// named service, or browse a type and resolve what answers. Each call runs its own Avahi simple poll on the
/// calling thread and frees everything before it returns.
public enum DNSSDResolver {
    /// The longest a lookup may wait, in seconds.
    public static let maximumTimeout = 120.0

    /// Resolves the instance `name` of `type` (e.g. `_ipp._tcp`) in the `local` domain.
    public static func resolve(name: String, type: String, timeout: Double) throws(DNSSDLookupError)
        -> DNSSDResolvedService
    {
        let session = try Session()
        let lookup = Lookup()
        session.resolve(name: name, type: type, into: lookup)
        session.run(until: min(timeout, maximumTimeout)) { !lookup.results.isEmpty || lookup.failure != nil }
        if let failure = lookup.failure { throw .failed(failure) }
        guard let found = lookup.results.first else { throw .notFound(name: name, type: type) }
        return found
    }

    /// The services of `type` that answer within `duration` seconds, resolved.
    public static func browse(type: String, duration: Double) throws(DNSSDLookupError) -> [DNSSDResolvedService] {
        let session = try Session()
        let lookup = Lookup()
        try session.browse(type: type, into: lookup)
        session.run(until: min(duration, maximumTimeout)) { false }
        var seen: Set<String> = []
        return lookup.results.filter { seen.insert($0.name).inserted }
    }

    /// What the Avahi callbacks found, reached through an unretained context pointer.
    final class Lookup {
        var results: [DNSSDResolvedService] = []
        var failure: String?
        var resolvers: [OpaquePointer] = []
        var browser: OpaquePointer?
    }

    /// One client on one simple poll, freed in `deinit`.
    final class Session {
        let poll: OpaquePointer
        let client: OpaquePointer
        private var lookups: [Lookup] = []

        init() throws(DNSSDLookupError) {
            guard let poll = avahi_simple_poll_new() else { throw .failed("cannot allocate a poll") }
            var error: Int32 = 0
            guard let client = avahi_client_new(avahi_simple_poll_get(poll), AvahiClientFlags(0), nil, nil, &error)
            else {
                avahi_simple_poll_free(poll)
                throw .daemonUnavailable(String(cString: avahi_strerror(error)))
            }
            self.poll = poll
            self.client = client
        }

        deinit {
            for lookup in lookups {
                for resolver in lookup.resolvers { avahi_service_resolver_free(resolver) }
                if let browser = lookup.browser { avahi_service_browser_free(browser) }
            }
            avahi_client_free(client)
            avahi_simple_poll_free(poll)
        }

        /// Runs the poll until `done()` or `seconds` have passed.
        func run(until seconds: Double, done: () -> Bool) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + max(0, seconds)
            while !done() {
                clock_gettime(CLOCK_MONOTONIC, &now)
                let left = deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
                if left <= 0 { break }
                if avahi_simple_poll_iterate(poll, Int32(min(left, 0.1) * 1000)) != 0 { break }
            }
        }

        func resolve(name: String, type: String, into lookup: Lookup) {
            if !lookups.contains(where: { $0 === lookup }) { lookups.append(lookup) }
            let context = Unmanaged.passUnretained(lookup).toOpaque()
            let resolver = avahi_service_resolver_new(
                client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), name, type, "local",
                AvahiProtocol(AVAHI_PROTO_INET),
                AvahiLookupFlags(0), resolved, context)
            if let resolver { lookup.resolvers.append(resolver) } else { lookup.failure = clientError() }
        }

        func browse(type: String, into lookup: Lookup) throws(DNSSDLookupError) {
            if !lookups.contains(where: { $0 === lookup }) { lookups.append(lookup) }
            let context = Unmanaged.passUnretained(self).toOpaque()
            guard
                let browser = avahi_service_browser_new(
                    client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type, "local",
                    AvahiLookupFlags(0), browsed, context)
            else { throw .failed(clientError()) }
            lookup.browser = browser
        }

        func clientError() -> String { String(cString: avahi_strerror(avahi_client_errno(client))) }

        /// A browse result: resolve it into the session's lookup.
        func found(name: String, type: String) {
            guard let lookup = lookups.last else { return }
            resolve(name: name, type: type, into: lookup)
        }
    }
}

/// avahi_service_resolver_new's callback: records a resolved service (IPv4 addresses are asked for).
private func resolved(
    _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiResolverEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ host: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ context: UnsafeMutableRawPointer?
) {
    guard let context else { return }
    let lookup = Unmanaged<DNSSDResolver.Lookup>.fromOpaque(context).takeUnretainedValue()
    guard event == AVAHI_RESOLVER_FOUND, let name, let type else { return }
    var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
    if let address { avahi_address_snprint(&text, text.count, address) }
    var entries: [DNSSDResolvedService.TXTEntry] = []
    var item = txt
    while let current = item {
        let length = Int(current.pointee.size)
        let bytes = withUnsafePointer(to: &current.pointee.text) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if let equals = string.firstIndex(of: "=") {
            entries.append(.init(key: String(string[..<equals]), value: String(string[string.index(after: equals)...])))
        } else if !string.isEmpty {
            entries.append(.init(key: string, value: ""))
        }
        item = current.pointee.next
    }
    // Avahi keeps string lists newest-first: put them back in wire order.
    entries.reverse()
    let service = DNSSDResolvedService(
        name: String(cString: name), type: String(cString: type), hostName: host.map { String(cString: $0) } ?? "",
        address: String(cString: text), port: port, txt: entries)
    if !lookup.results.contains(where: { $0.name == service.name }) { lookup.results.append(service) }
}

/// avahi_service_browser_new's callback: resolves each new instance.
private func browsed(
    _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ flags: AvahiLookupResultFlags, _ context: UnsafeMutableRawPointer?
) {
    guard let context, event == AVAHI_BROWSER_NEW, let name, let type else { return }
    let session = Unmanaged<DNSSDResolver.Session>.fromOpaque(context).takeUnretainedValue()
    session.found(name: String(cString: name), type: String(cString: type))
}
