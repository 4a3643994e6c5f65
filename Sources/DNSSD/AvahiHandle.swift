/// A pointer to an Avahi object (client, entry group, timer), so that it can be kept in the publisher's
/// `Mutex`-guarded state.
///
/// `@unchecked Sendable` is safe because: the wrapper only carries the address; every dereference is a call
/// into Avahi that ``DNSSDPublisher`` makes on the threaded poll's thread or with its lock held, so no two
/// threads ever use the object at once, and the object is freed under that same lock after its handle was
/// removed from the state.
struct AvahiHandle: Hashable, @unchecked Sendable {
    /// The Avahi object.
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}
