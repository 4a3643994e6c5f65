import CAvahi
import Glibc

/// The one owner of an `AvahiThreadedPoll`: the event loop thread on which Avahi runs every callback.
///
/// Any call into avahi-client from another thread must hold the poll's lock (``withLock(_:)``); callbacks
/// already run with it held and must not take it again.
///
/// `@unchecked Sendable` is safe because: `handle` is set once in `init` and freed only in `deinit`, when no
/// other reference exists; the lock functions are Avahi's wrappers of a pthread mutex, made to be called
/// from any thread; `start` and `stop` are only called by ``DNSSDPublisher``, which lets exactly one thread
/// make each of them once (its phase is kept under a `Mutex`).
final class ThreadedPoll: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Creates the poll without starting its thread; nil when Avahi cannot allocate it.
    init?() {
        guard let handle = avahi_threaded_poll_new() else { return nil }
        self.handle = handle
    }

    deinit {
        avahi_threaded_poll_free(handle)
    }

    /// The poll API that avahi-client and timeouts use.
    var api: UnsafePointer<AvahiPoll> {
        avahi_threaded_poll_get(handle)
    }

    /// Starts the event loop thread; false when the thread cannot be created.
    func start() -> Bool {
        avahi_threaded_poll_start(handle) == 0
    }

    /// Stops the event loop thread and waits for it to end. Must not be called from a callback.
    func stop() {
        avahi_threaded_poll_stop(handle)
    }

    /// Runs `body` while holding the poll's lock, so that it may call into avahi-client. Must not be called
    /// from a callback (the lock is not recursive).
    func withLock<Result>(_ body: () -> Result) -> Result {
        avahi_threaded_poll_lock(handle)
        defer { avahi_threaded_poll_unlock(handle) }
        return body()
    }

    /// Arms `timer` (or a new timer, when nil) to call `callback` with `context` on the poll thread after
    /// `milliseconds`, and returns it; nil when Avahi cannot allocate a timer. With the lock held.
    func arm(
        _ timer: OpaquePointer?, afterMilliseconds milliseconds: Int, context: UnsafeMutableRawPointer,
        callback: AvahiTimeoutCallback
    ) -> OpaquePointer? {
        var now = timeval()
        gettimeofday(&now, nil)
        let microseconds = Int(now.tv_usec) + (milliseconds % 1000) * 1000
        var when = timeval()
        when.tv_sec = now.tv_sec + milliseconds / 1000 + microseconds / 1_000_000
        when.tv_usec = __suseconds_t(microseconds % 1_000_000)
        guard let timer else {
            return api.pointee.timeout_new(api, &when, callback, context)
        }
        api.pointee.timeout_update(timer, &when)
        return timer
    }

    /// Frees a timer made by ``arm(_:afterMilliseconds:context:callback:)``; with the lock held.
    func free(timer: OpaquePointer) {
        api.pointee.timeout_free(timer)
    }
}
