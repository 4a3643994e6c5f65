import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A value kept in several copies, each under a lock of its own, that each thread reaches through the copy its
/// identity falls to: state that every request updates or reads (counts, answers kept for reuse) without the
/// connections answering at once queuing for one lock.
///
/// Vprinter answers each connection on a thread of its own, and Swift's `Mutex` on Linux is a priority-inheritance
/// futex: two threads meeting at one lock cost both a system call. With a copy per stripe they rarely meet.
/// Whoever needs the whole reads every copy (`withEachLock`).
package final class ThreadStriped<Value: Sendable>: Sendable {
    private final class Stripe: Sendable {
        let value: Mutex<Value>
        init(_ value: sending Value) { self.value = Mutex(value) }
    }

    /// How many copies a striped value keeps unless told otherwise.
    package static var defaultStripeCount: Int { 16 }

    private let stripes: [Stripe]

    /// `count` copies, each made by `make`.
    package init(count: Int = defaultStripeCount, _ make: () -> Value) {
        stripes = (0..<max(1, count)).map { _ in Stripe(make()) }
    }

    /// Runs `body` on the calling thread's copy under its lock.
    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        stripes[Self.stripeIndex(count: stripes.count)].value.withLock { value in body(&value) }
    }

    /// Runs `body` on each copy in turn, each under its own lock.
    package func withEachLock(_ body: (inout Value) -> Void) {
        for stripe in stripes {
            stripe.value.withLock { value in body(&value) }
        }
    }

    /// The stripe of the calling thread: its identity, mixed (thread descriptors lie a stack apart, so their low
    /// bits repeat).
    static func stripeIndex(count: Int) -> Int {
        #if canImport(Glibc)
            let identity = UInt64(UInt(pthread_self()))
        #else
            let identity: UInt64 = 0
        #endif
        return Int((identity &* 0x9E37_79B9_7F4A_7C15) >> 32) % count
    }
}
