import Synchronization

/// A value that every request reads and that seldom changes (the printers of a process, a printer's attributes):
/// read from a copy kept in the reading thread's stripe (`ThreadStriped`) while no change was made since, so that
/// the connections answering at once do not queue for one lock. A change takes the lock, numbers itself, and each
/// stripe takes the new value at its next read.
///
/// Eight connections meeting at one `Mutex` (a priority-inheritance futex on Linux) for each request cost a system
/// call each: under a Get-Printer-Attributes load, the printers' lookup and the attributes' lock each took 5 to 6 %
/// of the printer's samples, most of them waiting in the kernel.
package final class ReadMostly<Value: Sendable>: Sendable {
    /// The value as of a numbered change.
    private struct Numbered: Sendable {
        var change: Int
        var value: Value
    }

    private let latest: Mutex<Numbered>
    /// The number of the latest change, read without the lock.
    private let changes = Atomic<Int>(0)
    private let kept = ThreadStriped<Numbered?> { nil }

    package init(_ value: Value) {
        latest = Mutex(Numbered(change: 0, value: value))
    }

    /// The value as of the latest change.
    package var value: Value { read { $0 } }

    /// Runs `body` on the value as of the latest change: this thread's stripe's copy when it is current, else a
    /// copy taken under the lock (and kept in the stripe). `body` runs under the stripe's lock: it must not read this
    /// value again.
    package func read<Result>(_ body: (Value) -> Result) -> Result {
        let change = changes.load(ordering: .acquiring)
        return kept.withLock { kept in
            if let current = kept, current.change == change { return body(current.value) }
            let current = latest.withLock { $0 }
            kept = current
            return body(current.value)
        }
    }

    /// Changes the value under the lock and numbers the change; every read after it returns sees it.
    package func change<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try latest.withLock { (latest) throws(Failure) -> Result in
            let result = try body(&latest.value)
            latest.change += 1
            changes.store(latest.change, ordering: .releasing)
            return result
        }
    }
}
