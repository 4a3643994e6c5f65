import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// FaultEngine: which faults are due after jobs, at a page and on requests, firing once, removal and the limit.
@Suite struct FaultEngineTests {
    let jam = FaultEffect.addReasons(["media-jam-error"])

    @Test func addedFaultsGetIncreasingIDs() throws {
        let engine = FaultEngine()
        let first = try #require(engine.add(FaultSpec(trigger: .now, effect: jam)))
        let second = try #require(engine.add(FaultSpec(trigger: .atPage(2), effect: jam)))
        #expect(second.id > first.id)
        #expect(engine.faults.map(\.id) == [first.id, second.id])
    }

    @Test func afterJobsCountsJobsEndedSinceTheFaultWasAdded() throws {
        let engine = FaultEngine()
        _ = engine.jobEnded()
        _ = engine.jobEnded()
        let fault = try #require(engine.add(FaultSpec(trigger: .afterJobs(2), effect: jam)))
        #expect(engine.jobEnded().isEmpty)
        #expect(engine.jobEnded().map(\.id) == [fault.id])
    }

    @Test func afterJobsFaultStopsBeingDueOnceFired() throws {
        let engine = FaultEngine()
        let fault = try #require(engine.add(FaultSpec(trigger: .afterJobs(1), effect: jam)))
        #expect(engine.jobEnded().map(\.id) == [fault.id])
        #expect(engine.markFired(fault.id, at: 5) != nil)
        #expect(engine.jobEnded().isEmpty)
    }

    @Test func afterZeroJobsIsDueAtTheNextJobEnd() throws {
        let engine = FaultEngine()
        let fault = try #require(engine.add(FaultSpec(trigger: .afterJobs(0), effect: jam)))
        #expect(engine.jobEnded().map(\.id) == [fault.id])
    }

    @Test func pageFaultIsDueOnlyAtItsPage() throws {
        let engine = FaultEngine()
        let fault = try #require(engine.add(FaultSpec(trigger: .atPage(3), effect: jam)))
        #expect(engine.page(1).isEmpty)
        #expect(engine.page(2).isEmpty)
        #expect(engine.page(3).map(\.id) == [fault.id])
        #expect(engine.page(4).isEmpty)
        _ = engine.markFired(fault.id, at: 1)
        #expect(engine.page(3).isEmpty)
    }

    @Test func faultFiresOnlyOnce() throws {
        let engine = FaultEngine()
        let fault = try #require(engine.add(FaultSpec(trigger: .now, effect: jam)))
        #expect(engine.markFired(fault.id, at: 10)?.firedAt == 10)
        #expect(engine.markFired(fault.id, at: 11) == nil)
        #expect(engine.faults.first?.firedAt == 10)
    }

    @Test func requestFaultAffectsExactlyCountRequestsOfItsOperationThenGoes() throws {
        let engine = FaultEngine()
        _ = try #require(engine.add(FaultSpec(trigger: .requests(operation: "Print-Job", count: 2), effect: .delay(1))))
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
        #expect(engine.requestEffects(operation: "Print-Job") == [.delay(1)])
        #expect(engine.faults.first?.remaining == 1)
        #expect(engine.requestEffects(operation: "Print-Job") == [.delay(1)])
        #expect(engine.requestEffects(operation: "Print-Job").isEmpty)
        #expect(engine.faults.isEmpty)
    }

    /// Requests ask for effects without the engine's lock while no request fault is held: a request fault takes
    /// effect from its addition, however many came and went before, and none after its removal.
    @Test func aRequestFaultActsFromItsAdditionUntilItsRemoval() throws {
        let engine = FaultEngine()
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
        let first = try #require(
            engine.add(FaultSpec(trigger: .requests(operation: "any", count: 5), effect: .delay(1))))
        #expect(engine.requestEffects(operation: "Get-Jobs") == [.delay(1)])
        #expect(engine.remove(first.id).map(\.id) == [first.id])
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
        _ = try #require(engine.add(FaultSpec(trigger: .now, effect: jam)))
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
        _ = try #require(engine.add(FaultSpec(trigger: .requests(operation: "any", count: 1), effect: .delay(2))))
        #expect(engine.remove(where: { _ in false }).isEmpty)
        #expect(engine.requestEffects(operation: "Get-Jobs") == [.delay(2)])
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
        _ = try #require(engine.add(FaultSpec(trigger: .requests(operation: "any", count: 1), effect: .delay(3))))
        #expect(engine.remove(nil).count == 2)
        #expect(engine.requestEffects(operation: "Get-Jobs").isEmpty)
    }

    @Test func anyOperationMatchesEveryOperation() throws {
        let engine = FaultEngine()
        let busy = try #require(IPPStatus(keyword: "server-error-busy"))
        _ = engine.add(FaultSpec(trigger: .requests(operation: "any", count: 3), effect: .status(busy, message: "b")))
        _ = engine.add(FaultSpec(trigger: .requests(operation: "Get-Jobs", count: 1), effect: .delay(2)))
        #expect(engine.requestEffects(operation: "Get-Jobs") == [.status(busy, message: "b"), .delay(2)])
        #expect(engine.requestEffects(operation: "Print-Job") == [.status(busy, message: "b")])
        #expect(engine.requestEffects(operation: "Cancel-Job") == [.status(busy, message: "b")])
        #expect(engine.requestEffects(operation: "Cancel-Job").isEmpty)
    }

    @Test func removeOneFaultLeavesTheOthers() throws {
        let engine = FaultEngine()
        let first = try #require(engine.add(FaultSpec(trigger: .now, effect: jam)))
        let second = try #require(engine.add(FaultSpec(trigger: .atPage(1), effect: jam)))
        #expect(engine.remove(first.id).map(\.id) == [first.id])
        #expect(engine.faults.map(\.id) == [second.id])
        #expect(engine.remove(first.id).isEmpty)
        #expect(engine.page(1).map(\.id) == [second.id])
    }

    @Test func removeAllAlsoDropsPendingAbortAndHold() throws {
        let engine = FaultEngine()
        _ = engine.add(FaultSpec(trigger: .now, effect: jam))
        _ = engine.add(FaultSpec(trigger: .afterJobs(1), effect: jam))
        engine.setPendingAbort(reason: "aborted-by-system", message: "m")
        engine.setPendingHold("job-held-for-review")
        #expect(engine.remove(nil).count == 2)
        #expect(engine.faults.isEmpty)
        #expect(engine.takePendingAbort() == nil)
        #expect(engine.takePendingHold() == nil)
    }

    @Test func pendingAbortAndHoldAreTakenOnce() {
        let engine = FaultEngine()
        engine.setPendingAbort(reason: "aborted-by-system", message: "m")
        engine.setPendingHold("job-held-for-review")
        #expect(engine.takePendingAbort()?.reason == "aborted-by-system")
        #expect(engine.takePendingAbort() == nil)
        #expect(engine.takePendingHold() == "job-held-for-review")
        #expect(engine.takePendingHold() == nil)
    }

    @Test func removedFaultCannotFire() throws {
        let engine = FaultEngine()
        let fault = try #require(engine.add(FaultSpec(trigger: .afterSeconds(1), effect: jam)))
        _ = engine.remove(fault.id)
        #expect(engine.markFired(fault.id, at: 2) == nil)
    }

    @Test func engineHoldsAtMostMaximumFaults() {
        let engine = FaultEngine()
        for _ in 0..<FaultEngine.maximumFaults {
            #expect(engine.add(FaultSpec(trigger: .atPage(1), effect: jam)) != nil)
        }
        #expect(engine.add(FaultSpec(trigger: .atPage(1), effect: jam)) == nil)
        #expect(engine.faults.count == FaultEngine.maximumFaults)
        _ = engine.remove(engine.faults.first?.id)
        #expect(engine.add(FaultSpec(trigger: .atPage(1), effect: jam)) != nil)
    }
}
