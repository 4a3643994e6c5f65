import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

@Suite struct SideTextStoreTests {
    @Test func textsAreKeptByJobAndSideAndForgotten() {
        let store = SideTextStore()
        store.store("front", jobID: 1, number: 1)
        store.store("back", jobID: 1, number: 2)
        store.store("other", jobID: 2, number: 1)
        #expect(store.text(jobID: 1, number: 2) == "back")
        store.forget([1])
        #expect(store.text(jobID: 1, number: 1) == nil && store.text(jobID: 2, number: 1) == "other")
        #expect(store.characterCount == 5)
    }

    @Test func pastTheLimitTheStoreStartsOver() {
        let store = SideTextStore()
        let half = String(repeating: "a", count: SideTextStore.maximumCharacters / 2)
        store.store(half, jobID: 1, number: 1)
        store.store(half, jobID: 2, number: 1)
        #expect(store.characterCount == SideTextStore.maximumCharacters)
        store.store("one more", jobID: 3, number: 1)
        #expect(store.text(jobID: 1, number: 1) == nil && store.text(jobID: 3, number: 1) == "one more")
        #expect(store.characterCount == 8)
    }

    @Test func concurrentRequestsForOneJobRunItsOCROnce() {
        let store = SideTextStore()
        let runs = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            store.once(jobID: 7) {
                runs.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        #expect(runs.load(ordering: .relaxed) >= 1)
        #expect(runs.load(ordering: .relaxed) < 8)
    }
}
