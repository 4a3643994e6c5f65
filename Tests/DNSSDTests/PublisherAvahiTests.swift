import DNSSD
import Foundation
import Testing

/// The publisher against a real avahi-daemon on loopback, seen through the real `avahi-browse` client.
///
/// The test command starts the daemon (scripts/lib/services.sh) and sets VPRINTER_TEST_AVAHI=1. The suite
/// is serialized: two of its tests stop or restart the daemon.
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(if: TestAvahi.enabled, "needs the test avahi-daemon (scripts/lib/services.sh) and VPRINTER_TEST_AVAHI=1"))
struct PublisherAvahiTests {
    static let txt = PrinterTXTRecord(
        makeAndModel: "vprinter Test Laser", adminURL: "http://localhost:8631/", location: "Test bench",
        product: "Test Laser", documentFormats: ["application/pdf", "image/pwg-raster", "image/urf"],
        uuid: "urn:uuid:0b5c0f2e-1d7a-4c55-9a3b-3f0e6a1c2d4e", color: false, duplex: true,
        maximumMediaWidth: 21590, urfSupported: ["V1.4", "CP1", "DM1", "RS300", "W8"]
    ).entries

    init() throws {
        try TestAvahi.requireDaemon()
    }

    @Test func publishedPrinterIsBrowsableWithItsTXTRecord() async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Browse")
        let id = try publisher.publish(.printer(name: name, port: 18631, txt: Self.txt))
        publisher.start()

        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name]) { $0.contains { $0.name == name } }
        let service = try #require(found.first { $0.name == name })
        #expect(service.port == 18631)
        // avahi-browse lists TXT strings last-on-the-wire first, so txtvers (first on the wire) comes last.
        #expect(service.txt.reversed() == Self.txt.map { "\($0.key)=\($0.value)" })
        #expect(service.txtValues["txtvers"] == "1")
        #expect(service.txtValues["UUID"] == "0b5c0f2e-1d7a-4c55-9a3b-3f0e6a1c2d4e")
        #expect(service.txtValues["URF"] == "V1.4,CP1,DM1,RS300,W8")
        #expect(publisher.hostName == service.host)
        #expect(publisher.currentName(of: id) == name)
    }

    @Test(arguments: [
        "_print._sub._ipp._tcp", "_universal._sub._ipp._tcp", "_printer._tcp", "_printer._sub._http._tcp",
        "_http._tcp",
    ])
    func everyServiceAndSubtypeOfAPrinterIsBrowsable(type: String) async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Subtype")
        let id = try publisher.publish(.printer(name: name, port: 18632, txt: Self.txt))
        publisher.start()

        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })
        let found = try await AvahiBrowser.waitFor(type, names: [name]) { $0.contains { $0.name == name } }
        let service = try #require(found.first { $0.name == name })
        #expect(service.port == (type == "_printer._tcp" ? 0 : 18632))
    }

    @Test func ippsIsAdvertisedOnlyWithTLS() async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let plain = TestAvahi.uniqueName("Plain")
        let secure = TestAvahi.uniqueName("Secure")
        let plainID = try publisher.publish(.printer(name: plain, port: 18633, txt: Self.txt))
        let secureID = try publisher.publish(.printer(name: secure, port: 18634, txt: Self.txt, tls: true))
        publisher.start()

        #expect(try await events.waitFor { $0 == .registered(id: plainID, name: plain) })
        #expect(try await events.waitFor { $0 == .registered(id: secureID, name: secure) })
        let found = try await AvahiBrowser.waitFor("_print._sub._ipps._tcp", names: [secure, plain]) {
            $0.contains { $0.name == secure }
        }
        #expect(found.contains { $0.name == secure && $0.port == 18634 })
        #expect(!found.contains { $0.name == plain })
    }

    @Test func updatedTXTRecordReachesBrowsers() async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Update")
        let id = try publisher.publish(.printer(name: name, port: 18635, txt: Self.txt))
        publisher.start()
        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })

        var changed = Self.txt
        changed[5].value = "Moved to room 12"
        try publisher.update(id, txt: changed, forType: "_ipp._tcp")
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name]) {
            $0.contains { $0.name == name && $0.txtValues["note"] == "Moved to room 12" }
        }
        #expect(found.contains { $0.name == name && $0.txtValues["note"] == "Moved to room 12" })
    }

    @Test func withdrawnRegistrationDisappears() async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Withdraw")
        let id = try publisher.publish(.printer(name: name, port: 18636, txt: Self.txt))
        publisher.start()
        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })

        publisher.withdraw(id)
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name]) { !$0.contains { $0.name == name } }
        #expect(!found.contains { $0.name == name })
        #expect(publisher.currentName(of: id) == nil)
    }

    @Test func secondPublisherWithTheSameNameIsRenamedAndBothAreBrowsable() async throws {
        let firstEvents = EventRecorder()
        let secondEvents = EventRecorder()
        let first = DNSSDPublisher(onEvent: firstEvents.callback)
        let second = DNSSDPublisher(onEvent: secondEvents.callback)
        defer {
            first.stop()
            second.stop()
        }
        let name = TestAvahi.uniqueName("Twin")
        let firstID = try first.publish(.printer(name: name, port: 18637, txt: Self.txt))
        first.start()
        #expect(try await firstEvents.waitFor { $0 == .registered(id: firstID, name: name) })

        let secondID = try second.publish(.printer(name: name, port: 18638, txt: Self.txt))
        second.start()
        let renamed = "\(name) (2)"
        #expect(try await secondEvents.waitFor { $0 == .renamed(id: secondID, from: name, to: renamed) })
        #expect(try await secondEvents.waitFor { $0 == .registered(id: secondID, name: renamed) })
        #expect(second.currentName(of: secondID) == renamed)

        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name, renamed]) { services in
            services.contains { $0.name == name } && services.contains { $0.name == renamed }
        }
        #expect(found.first { $0.name == name }?.port == 18637)
        #expect(found.first { $0.name == renamed }?.port == 18638)
    }

    @Test func printerIsBrowsableAgainAfterTheDaemonRestarts() async throws {
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Restart")
        let id = try publisher.publish(.printer(name: name, port: 18639, txt: Self.txt))
        publisher.start()
        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })

        let restart = try TestAvahi.services("restart-daemon")
        try #require(restart.status == 0, "restart-daemon failed (is the daemon ours?): \(restart.output)")
        let restarted = ContinuousClock.now
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name], seconds: 5) {
            $0.contains { $0.name == name }
        }
        print("browsable again \(ContinuousClock.now - restarted) after the daemon answered")
        #expect(found.contains { $0.name == name }, "not browsable within 5 s of the daemon's restart")
        #expect(events.all.filter { $0 == .daemonUnavailable }.count == 1)
        #expect(try await events.waitFor { $0 == .daemonReconnected })
        #expect(events.all.filter { $0 == .registered(id: id, name: name) }.count == 2)
    }

    @Test func withoutADaemonThePublisherReportsOnceAndAdvertisesWhenItComes() async throws {
        let stopped = try TestAvahi.services("stop-daemon")
        try #require(stopped.status == 0, "stop-daemon failed: \(stopped.output)")
        var restarted = false
        defer {
            if !restarted { _ = try? TestAvahi.services("start-daemon") }
        }
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("Late")
        let id = try publisher.publish(.printer(name: name, port: 18640, txt: Self.txt))
        publisher.start()
        #expect(try await events.waitFor { $0 == .daemonUnavailable })

        let started = try TestAvahi.services("start-daemon")
        restarted = true
        try #require(started.status == 0, "start-daemon failed: \(started.output)")
        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })
        #expect(events.all.filter { $0 == .daemonUnavailable }.count == 1)
        #expect(events.all.contains(.daemonReconnected))
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name]) { $0.contains { $0.name == name } }
        #expect(found.contains { $0.name == name })
    }

    @Test func withoutASystemBusThePublisherReportsOnceAndKeepsTrying() async throws {
        for step in ["stop-daemon", "stop-bus"] {
            let result = try TestAvahi.services(step)
            try #require(result.status == 0, "\(step) failed: \(result.output)")
        }
        var restarted = false
        defer {
            if !restarted { _ = try? TestAvahi.services("start-bus", "start-daemon") }
        }
        let events = EventRecorder()
        let publisher = DNSSDPublisher(onEvent: events.callback)
        defer { publisher.stop() }
        let name = TestAvahi.uniqueName("NoBus")
        let id = try publisher.publish(.printer(name: name, port: 18641, txt: Self.txt))
        publisher.start()
        #expect(try await events.waitFor { $0 == .daemonUnavailable })

        let started = try TestAvahi.services("start-bus", "start-daemon")
        restarted = true
        try #require(started.status == 0, "starting the bus and daemon failed: \(started.output)")
        #expect(try await events.waitFor { $0 == .registered(id: id, name: name) })
        #expect(events.all.filter { $0 == .daemonUnavailable }.count == 1)
        let found = try await AvahiBrowser.waitFor("_ipp._tcp", names: [name]) { $0.contains { $0.name == name } }
        #expect(found.contains { $0.name == name })
    }
}
