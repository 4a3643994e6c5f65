import Testing

@testable import DNSSD

@Suite struct RegistrationLimitTests {
    static func registration(name: String = "P", txt: [(key: String, value: String)] = []) -> DNSSDRegistration {
        DNSSDRegistration(name: name, services: [.ipp(port: 631, txt: txt)])
    }

    @Test func nameAtTheLabelLimitIsAcceptedAndOneByteMoreIsNot() throws {
        try Self.registration(name: String(repeating: "n", count: DNSSDLimits.maximumNameBytes)).validate()
        #expect(throws: DNSSDError.self) {
            try Self.registration(name: String(repeating: "n", count: DNSSDLimits.maximumNameBytes + 1)).validate()
        }
        #expect(throws: DNSSDError.self) { try Self.registration(name: "").validate() }
    }

    @Test func txtEntryAtTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        // "k=" plus the value: the limit counts the whole string.
        let fits = String(repeating: "v", count: DNSSDLimits.maximumTXTEntryBytes - 2)
        try Self.registration(txt: [("k", fits)]).validate()
        #expect(throws: DNSSDError.self) { try Self.registration(txt: [("k", fits + "v")]).validate() }
    }

    @Test func txtRecordPastTheRecordLimitIsRefused() throws {
        // Each entry is 1 length byte + "kNN=" + 96 bytes = 101 bytes.
        func entries(_ count: Int) -> [(key: String, value: String)] {
            (0..<count).map { (key: "k\($0 < 10 ? "0" : "")\($0)", value: String(repeating: "v", count: 96)) }
        }
        let fitting = DNSSDLimits.maximumTXTRecordBytes / 101
        try Self.registration(txt: entries(fitting)).validate()
        #expect(throws: DNSSDError.self) { try Self.registration(txt: entries(fitting + 1)).validate() }
    }

    @Test func badKeysAreRefused() {
        #expect(throws: DNSSDError.self) { try Self.registration(txt: [("", "x")]).validate() }
        #expect(throws: DNSSDError.self) { try Self.registration(txt: [("a=b", "x")]).validate() }
        #expect(throws: DNSSDError.self) { try Self.registration(txt: [("Color", "T"), ("color", "F")]).validate() }
    }

    @Test func serviceTypesMustBeUnderscoreLabelsOverTCPOrUDP() throws {
        for type in ["ipp._tcp", "_ipp", "_ipp._sctp", "_._tcp", "_a-very-long-label._tcp", "_ipp._tcp.local"] {
            let registration = DNSSDRegistration(name: "P", services: [DNSSDService(type: type, port: 1)])
            #expect(throws: DNSSDError.invalidServiceType(type)) { try registration.validate() }
        }
        let longest = "_" + String(repeating: "x", count: DNSSDLimits.maximumServiceLabelBytes) + "._udp"
        try DNSSDRegistration(name: "P", services: [DNSSDService(type: longest, port: 1)]).validate()
    }

    @Test func aRegistrationNeedsDistinctServiceTypes() {
        #expect(throws: DNSSDError.self) { try DNSSDRegistration(name: "P", services: []).validate() }
        let twice = DNSSDRegistration(name: "P", services: [.web(port: 1), .web(port: 2)])
        #expect(throws: DNSSDError.self) { try twice.validate() }
    }

    @Test func publishRefusesAnInvalidRegistrationWithoutADaemon() {
        let publisher = DNSSDPublisher { _ in }
        #expect(throws: DNSSDError.self) { _ = try publisher.publish(Self.registration(name: "")) }
    }

    @Test func updatingAnUnknownRegistrationOrTypeIsAnError() throws {
        let publisher = DNSSDPublisher { _ in }
        #expect(throws: DNSSDError.unknownRegistration(DNSSDRegistrationID(rawValue: 42))) {
            try publisher.update(DNSSDRegistrationID(rawValue: 42), txt: [], forType: "_ipp._tcp")
        }
        let id = try publisher.publish(Self.registration())
        #expect(throws: DNSSDError.unknownServiceType("_ipps._tcp")) {
            try publisher.update(id, txt: [], forType: "_ipps._tcp")
        }
        #expect(throws: DNSSDError.self) { try publisher.update(id, txt: [("a=b", "")], forType: "_ipp._tcp") }
    }
}
