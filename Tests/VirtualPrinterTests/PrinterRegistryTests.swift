import Testing

@testable import PrinterCore

/// The registry's lookups read tables kept per thread stripe and refreshed when a change is numbered: a thread
/// that looked a printer up before a change sees the change at its next lookup.
@Suite struct PrinterRegistryTests {
    func hosted(_ harness: PrinterHarness, id: Int) -> HostedPrinter {
        HostedPrinter(printer: harness.printer, id: id, port: nil, txtOverrides: [], isRuntime: true)
    }

    @Test func aLookupSeesEachChangeMadeAfterTheLastOne() throws {
        let registry = PrinterRegistry()
        let harness = try PrinterHarness()
        #expect(registry.printer(atPath: "/ipp/print") == nil)
        try registry.add(hosted(harness, id: 7))
        #expect(registry.printer(atPath: "/ipp/print")?.id == 7)
        #expect(registry.printer(named: "t")?.id == 7)
        #expect(registry.printer(id: 7)?.printer === harness.printer)
        #expect(registry.count == 1)
        #expect(registry.remove(named: "t")?.id == 7)
        #expect(registry.printer(atPath: "/ipp/print") == nil)
        #expect(registry.printer(id: 7) == nil)
        #expect(registry.all.isEmpty)
        try registry.add(hosted(harness, id: 8))
        #expect(registry.printer(atPath: "/ipp/print")?.id == 8)
        #expect(registry.reserveID() == 9)
    }

    @Test func aTakenNameOrIDIsRefusedAndChangesNothing() throws {
        let registry = PrinterRegistry()
        let harness = try PrinterHarness()
        try registry.add(hosted(harness, id: 1))
        #expect(throws: FleetError.self) { try registry.add(hosted(harness, id: 2)) }
        #expect(registry.all.map(\.id) == [1])
        #expect(registry.printer(id: 2) == nil)
    }

    /// Threads looking printers up while another adds and removes them each see, after the last change, the
    /// registry as it ends.
    @Test func lookupsOnManyThreadsFollowTheChanges() async throws {
        let registry = PrinterRegistry()
        let printer = try PrinterHarness().printer
        let hosted: @Sendable (Int) -> HostedPrinter = { id in
            HostedPrinter(printer: printer, id: id, port: nil, txtOverrides: [], isRuntime: true)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2_000 { _ = registry.printer(atPath: "/ipp/print") }
                }
            }
            group.addTask {
                for id in 1...200 {
                    try? registry.add(hosted(id))
                    registry.remove(named: "t")
                }
                try? registry.add(hosted(201))
            }
        }
        let seen = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<8 { group.addTask { registry.printer(atPath: "/ipp/print")?.id } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen == Array(repeating: 201, count: 8))
    }
}
