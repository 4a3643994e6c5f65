import DNSSD
import Foundation
import Synchronization
import TestSupport
import Testing

/// The Avahi daemon that the test command started (scripts/lib/services.sh, through the test harness's
/// vptest.services).
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
        var status = try services("reachable").status
        for _ in 1..<reachableAttempts where status != 0 {
            status = try services("reachable").status
        }
        try #require(
            status == 0,
            "no avahi-daemon answers on \(bus): start one first (docs/dnssd.md, \"Running the DNSSD tests\")")
    }

    /// Runs commands of the test harness's services (`python3 -m vptest.services COMMAND`, for example
    /// `restart-daemon`) one after the other, under the system python3, until one fails; its exit status and
    /// output (standard output, then standard error), or the last one's.
    ///
    /// Through ChildProcess: the daemons they start outlive the call, and must not keep a copy of another test's
    /// pipe or socket (ChildProcess hands the child none), nor of this call's output (which goes through a file).
    @discardableResult
    static func services(_ commands: String...) throws -> (status: Int32, output: String) {
        let harness = root.appendingPathComponent("scripts/harness").path
        var last = (status: Int32(0), output: "")
        for command in commands {
            let result = try ChildProcess.run(
                "/usr/bin/python3", ["-m", "vptest.services", command], environment: ["PYTHONPATH": harness],
                limit: AvahiBrowser.commandLimit)
            last = (result.status, result.outputText + result.errorOutput)
            if last.status != 0 { break }
        }
        return last
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
