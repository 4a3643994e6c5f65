import Synchronization

/// The faults added to one printer, waiting for their trigger or fired and not yet cleared.
package final class FaultEngine: Sendable {
    /// The most faults one printer holds at once.
    static let maximumFaults = 256

    package struct Fault: Sendable {
        package var id: Int
        package var spec: FaultSpec
        /// Jobs ended when the fault was added (after-jobs counts from there).
        var jobsAtStart: Int
        /// Requests left to affect (request triggers).
        var remaining: Int
        package var firedAt: Double?
    }

    private struct State {
        var nextID = 1
        var faults: [Fault] = []
        var jobsEnded = 0
        /// Effects waiting for the next job to start (abort) or be created (hold).
        var pendingAbort: (reason: String, message: String)?
        var pendingHold: String?
    }

    private let state = Mutex(State())
    /// How many of the faults have a request trigger: every IPP request asks for its effects, and a printer
    /// without such a fault answers from this count, without the lock (eight connections meeting at it took 9 % of
    /// the printer's samples under a Get-Printer-Attributes load, most of them waiting in the kernel). Set under
    /// the lock, after each change of the faults.
    private let requestFaults = Atomic<Int>(0)

    /// Changes the faults under the lock, then counts those with a request trigger.
    private func change<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            let result = body(&state)
            let count = state.faults.count(where: { fault in
                if case .requests = fault.spec.trigger { return true }
                return false
            })
            requestFaults.store(count, ordering: .releasing)
            return result
        }
    }

    /// Adds a fault; nil when the printer already holds `maximumFaults`.
    func add(_ spec: FaultSpec) -> Fault? {
        change { state in
            guard state.faults.count < Self.maximumFaults else { return nil }
            var remaining = 0
            if case .requests(_, let count) = spec.trigger { remaining = count }
            let fault = Fault(id: state.nextID, spec: spec, jobsAtStart: state.jobsEnded, remaining: remaining)
            state.nextID += 1
            state.faults.append(fault)
            return fault
        }
    }

    /// The faults now held.
    package var faults: [Fault] { state.withLock { $0.faults } }

    /// Removes one fault (or every fault when `id` is nil); returns those removed.
    func remove(_ id: Int?) -> [Fault] {
        change { state in
            let removed = state.faults.filter { id == nil || $0.id == id }
            state.faults.removeAll { id == nil || $0.id == id }
            if id == nil {
                state.pendingAbort = nil
                state.pendingHold = nil
            }
            return removed
        }
    }

    /// Removes the faults `matches` picks; returns those removed.
    func remove(where matches: (Fault) -> Bool) -> [Fault] {
        change { state in
            let removed = state.faults.filter(matches)
            state.faults.removeAll(where: matches)
            return removed
        }
    }

    /// Marks a fault fired; returns it, or nil if it was removed or had fired already (faults fire once, but
    /// request faults fire on each request).
    func markFired(_ id: Int, at time: Double) -> Fault? {
        state.withLock { state in
            guard let index = state.faults.firstIndex(where: { $0.id == id }), state.faults[index].firedAt == nil else {
                return nil
            }
            state.faults[index].firedAt = time
            return state.faults[index]
        }
    }

    /// Counts an ended job; returns the after-jobs faults that are now due.
    func jobEnded() -> [Fault] {
        state.withLock { state in
            state.jobsEnded += 1
            return state.faults.filter { fault in
                guard fault.firedAt == nil, case .afterJobs(let count) = fault.spec.trigger else { return false }
                return state.jobsEnded - fault.jobsAtStart >= count
            }
        }
    }

    /// The page faults due when a job prints impression `number`.
    func page(_ number: Int) -> [Fault] {
        state.withLock { state in
            state.faults.filter { fault in
                guard fault.firedAt == nil, case .atPage(let page) = fault.spec.trigger else { return false }
                return page == number
            }
        }
    }

    /// The request effects for one request of an operation; exhausted request faults are removed.
    func requestEffects(operation: String) -> [FaultEffect] {
        guard requestFaults.load(ordering: .acquiring) > 0 else { return [] }
        return change { state in
            var effects: [FaultEffect] = []
            for index in state.faults.indices {
                guard case .requests(let name, _) = state.faults[index].spec.trigger,
                    name == "any" || name == operation, state.faults[index].remaining > 0
                else { continue }
                state.faults[index].remaining -= 1
                effects.append(state.faults[index].spec.effect)
            }
            state.faults.removeAll { fault in
                if case .requests = fault.spec.trigger { return fault.remaining == 0 }
                return false
            }
            return effects
        }
    }

    /// Sets the abort waiting for the next job to start.
    func setPendingAbort(reason: String, message: String) {
        state.withLock { $0.pendingAbort = (reason, message) }
    }

    /// Takes the abort waiting for the next job, if any.
    func takePendingAbort() -> (reason: String, message: String)? {
        state.withLock { state in
            defer { state.pendingAbort = nil }
            return state.pendingAbort
        }
    }

    /// Sets the hold waiting for the next job created.
    func setPendingHold(_ reason: String) {
        state.withLock { $0.pendingHold = reason }
    }

    /// Takes the hold waiting for the next job, if any.
    func takePendingHold() -> String? {
        state.withLock { state in
            defer { state.pendingHold = nil }
            return state.pendingHold
        }
    }
}
