import Glibc

/// Starts POSIX threads for the accept loops and the connections (one thread per connection, by design).
enum ThreadLauncher {
    /// Stack size of every thread the server starts; handlers run on these stacks.
    static let stackSize = 1024 * 1024

    /// The closure a new thread runs, carried through `pthread_create`'s context pointer.
    private final class Entry {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`. A detached thread cleans up after itself; a joinable one must be
    /// passed to `join`.
    @discardableResult
    static func start(joinable: Bool, _ body: @escaping @Sendable () -> Void) throws(HTTPServerError) -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(joinable ? PTHREAD_CREATE_JOINABLE : PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Entry(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Entry>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Entry>.fromOpaque(context).release()
            throw .system(call: "pthread_create", errno: result)
        }
        return thread
    }

    /// Waits for a joinable thread to end.
    static func join(_ thread: pthread_t) {
        pthread_join(thread, nil)
    }
}
