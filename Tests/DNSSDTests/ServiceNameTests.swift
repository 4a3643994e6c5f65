import Testing

@testable import DNSSD

@Suite struct ServiceNameTests {
    @Test func firstCollisionAppendsTwoInParentheses() {
        #expect(ServiceName.alternative(to: "Office Laser") == "Office Laser (2)")
    }

    @Test func laterCollisionsCountUp() {
        #expect(ServiceName.alternative(to: "Office Laser (2)") == "Office Laser (3)")
        #expect(ServiceName.alternative(to: "Office Laser (9)") == "Office Laser (10)")
    }

    @Test func parenthesesThatAreNotACounterArePartOfTheName() {
        #expect(ServiceName.alternative(to: "Laser (Floor 2)") == "Laser (Floor 2) (2)")
        #expect(ServiceName.alternative(to: "Laser(2)") == "Laser(2) (2)")
        #expect(ServiceName.alternative(to: "Laser (1)") == "Laser (1) (2)")
    }

    @Test func alternativeOfAFullLengthNameStaysWithinTheLabelLimit() {
        let name = String(repeating: "a", count: DNSSDLimits.maximumNameBytes)
        let next = ServiceName.alternative(to: name)
        #expect(next.utf8.count == DNSSDLimits.maximumNameBytes)
        #expect(next.hasSuffix("a (2)"))
    }

    @Test func truncationNeverSplitsACharacter() {
        // "é" is two bytes of UTF-8: 31 of them are 62 bytes, and the suffix needs 4 more.
        let name = String(repeating: "é", count: 31)
        let next = ServiceName.alternative(to: name)
        #expect(next == String(repeating: "é", count: 29) + " (2)")
        #expect(next.utf8.count <= DNSSDLimits.maximumNameBytes)
    }
}
