import Synchronization

/// Whether a printer is switched on. Off, it is withdrawn from DNS-SD, its own port (if it has one) refuses
/// connections and its path on a shared port leaves them without an answer; jobs it had already accepted still
/// finish.
///
/// The API, the System Service and the `power` fault effect switch it; whoever must follow it (the advertiser)
/// observes it.
public final class PowerSwitch: Sendable {
    private let on = Atomic<Bool>(true)
    private let observers = Mutex<[@Sendable (Bool) -> Void]>([])

    public init() {}

    /// True while the printer is on (the default).
    public var isOn: Bool { on.load(ordering: .acquiring) }

    /// Switches the printer on or off; returns false when it already was. Observers run on the caller's thread.
    @discardableResult
    public func set(on value: Bool) -> Bool {
        guard on.exchange(value, ordering: .acquiringAndReleasing) != value else { return false }
        for observer in observers.withLock({ $0 }) { observer(value) }
        return true
    }

    /// Calls `observer` with the new state after every change.
    public func observe(_ observer: @escaping @Sendable (Bool) -> Void) {
        observers.withLock { $0.append(observer) }
    }
}
