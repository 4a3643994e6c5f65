/// The printers one process serves, looked up by path, name or printer-id; printers come and go at runtime.
///
/// Lookups read the thread's copy of the tables (`ReadMostly`), taking no lock shared with other connections, and
/// one hash; the list in order is copied only when it changes, so the request path stays as fast with 1,000
/// printers as with one.
public final class PrinterRegistry: Sendable {
    private struct State {
        var ordered: [HostedPrinter] = []
        var byPath: [String: HostedPrinter] = [:]
        var byName: [String: HostedPrinter] = [:]
        var bySegment: [String: HostedPrinter] = [:]
        var byID: [Int: HostedPrinter] = [:]
        var nextID = 1
    }

    private let state = ReadMostly(State())

    public init(_ printers: [HostedPrinter] = []) {
        for printer in printers { _ = try? add(printer) }
    }

    /// Every printer, in the order they were added.
    public var all: [HostedPrinter] { state.read { $0.ordered } }

    /// Every printer object, in order.
    public var printers: [Printer] { state.read { $0.ordered.map(\.printer) } }

    public var count: Int { state.read { $0.ordered.count } }

    /// The printer at a resource path (`/ipp/print/<name>`).
    public func printer(atPath path: String) -> HostedPrinter? {
        state.read { $0.byPath[path] }
    }

    /// The printer with this name, or this name as a path segment.
    public func printer(named name: String) -> HostedPrinter? {
        state.read { $0.byName[name] ?? $0.bySegment[name] }
    }

    /// The printer with this printer-id.
    public func printer(id: Int) -> HostedPrinter? {
        state.read { $0.byID[id] }
    }

    /// The printer-id the next printer gets.
    public func reserveID() -> Int {
        state.change { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Adds a printer; fails when its name, path or id is taken.
    public func add(_ hosted: HostedPrinter) throws(FleetError) {
        try state.change { (state) throws(FleetError) in
            let name = hosted.printer.name
            let path = hosted.printer.configuration.resourcePath
            let segment = PrinterConfiguration.pathSegment(for: name)
            guard state.byName[name] == nil, state.bySegment[segment] == nil, state.byPath[path] == nil else {
                throw .nameTaken(name)
            }
            guard state.byID[hosted.id] == nil else { throw .nameTaken("printer-id \(hosted.id)") }
            state.ordered.append(hosted)
            state.byPath[path] = hosted
            state.byName[name] = hosted
            state.bySegment[segment] = hosted
            state.byID[hosted.id] = hosted
            state.nextID = max(state.nextID, hosted.id + 1)
        }
    }

    /// Removes a printer by name; returns it, or nil when there is none.
    @discardableResult
    public func remove(named name: String) -> HostedPrinter? {
        state.change { state in
            guard let hosted = state.byName[name] ?? state.bySegment[name] else { return nil }
            state.ordered.removeAll { $0.id == hosted.id }
            state.byPath[hosted.printer.configuration.resourcePath] = nil
            state.byName[hosted.printer.name] = nil
            state.bySegment[PrinterConfiguration.pathSegment(for: hosted.printer.name)] = nil
            state.byID[hosted.id] = nil
            return hosted
        }
    }
}
