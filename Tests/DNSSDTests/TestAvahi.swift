import DNSSD
import Foundation
import Synchronization
import Testing

/// The Avahi daemon that the test command started with scripts/lib/avahi.sh.
enum TestAvahi {
    /// True when the test command says it started Avahi (`VPRINTER_TEST_AVAHI=1`).
    static let enabled = ProcessInfo.processInfo.environment["VPRINTER_TEST_AVAHI"] == "1"

    /// The repository's root folder, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// How many times the daemon is asked (2 s each) before a test gives up on it: one busy with thousands of
    /// other engineers' services on the shared loopback may miss one answer.
    static let reachableAttempts = 3

    /// Fails the test with instructions when no daemon answers on the bus the test command exported.
    static func requireDaemon() throws {
        let bus = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "(default system bus)"
        var status = try shell("vp_avahi_reachable").status
        for _ in 1..<reachableAttempts where status != 0 {
            status = try shell("vp_avahi_reachable").status
        }
        try #require(
            status == 0,
            "no avahi-daemon answers on \(bus): start one with scripts/lib/avahi.sh (vp_avahi_start) first")
    }

    /// Runs one function of scripts/lib/avahi.sh (for example `vp_avahi_restart_daemon`) in bash.
    @discardableResult
    static func shell(_ function: String) throws -> (status: Int32, output: String) {
        let library = root.appendingPathComponent("scripts/lib/avahi.sh").path
        return try AvahiBrowser.run("/bin/bash", ["-c", "source '\(library)' && \(function)"])
    }

    /// A service name no other test run uses.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix) \(UInt32.random(in: 0..<UInt32.max))"
    }
}

/// Collects a publisher's events so that tests can wait for them.
final class EventRecorder: Sendable {
    private let events = Mutex<[DNSSDEvent]>([])

    /// The callback to hand to ``DNSSDPublisher/init(onEvent:)``.
    var callback: @Sendable (DNSSDEvent) -> Void {
        { [self] event in record(event) }
    }

    /// Adds an event.
    func record(_ event: DNSSDEvent) {
        events.withLock { $0.append(event) }
    }

    /// Every event so far, in order.
    var all: [DNSSDEvent] {
        events.withLock { $0 }
    }

    /// Waits until an event satisfies `predicate` or `seconds` have passed; returns whether one did.
    func waitFor(seconds: Double = 5, _ predicate: (DNSSDEvent) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if all.contains(where: predicate) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return all.contains(where: predicate)
    }
}
