import Testing

@testable import PrinterCore

/// A value read from per-thread copies: every read after a change returns sees the change, on any thread.
@Suite struct ReadMostlyTests {
    @Test func aReadAfterAChangeSeesIt() {
        let shared = ReadMostly([1])
        #expect(shared.value == [1])
        shared.change { $0.append(2) }
        #expect(shared.value == [1, 2])
        #expect(shared.read { $0.count } == 2)
    }

    @Test func aFailedChangeLeavesTheValueAsItWas() {
        struct Refused: Error {}
        let shared = ReadMostly(1)
        #expect(throws: Refused.self) {
            try shared.change { (value) throws(Refused) in throw Refused() }
        }
        #expect(shared.value == 1)
    }

    /// Readers on many threads while one thread changes the value: each sees the values in order (never an older
    /// one after a newer), and all see the last.
    @Test func readersOnManyThreadsFollowTheChanges() async {
        let shared = ReadMostly(0)
        let inOrder = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var last = 0
                    for _ in 0..<5_000 {
                        let seen = shared.value
                        if seen < last { return false }
                        last = seen
                    }
                    return true
                }
            }
            group.addTask {
                for _ in 0..<1_000 { shared.change { $0 += 1 } }
                return true
            }
            return await group.allSatisfy { $0 }
        }
        #expect(inOrder)
        let last = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { shared.value } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(last == Array(repeating: 1_000, count: 8))
    }
}
