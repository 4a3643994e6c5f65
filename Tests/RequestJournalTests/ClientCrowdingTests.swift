import IPP
import Testing

@testable import RequestJournal

/// Issue 40: 1,000 junk clients took every place in the clients' report before the client under test came, and it
/// was then counted nowhere. Clients are let go least recently active first now, past more places than a flood
/// of 1,000 takes, and no client's state grows without bound.
@Suite struct ClientCrowdingTests {
    typealias Fixture = ClientFindingTests

    /// The client under test's request: a Print-Job without requesting-user-name (RFC 8011 section 4.2.1.1), a
    /// finding.
    static func underTest() -> JournalEntry {
        let message = Fixture.printJob { operation, _ in operation.remove(at: 3) }
        var entry = JournalEntryTests.entry(request: message, address: "192.0.2.10", agent: "under-test/1")
        entry.findings = Fixture.checker.findings(in: message)
        return entry
    }

    /// One junk request from the `number`th junk address.
    static func junk(_ number: Int) -> JournalEntry {
        JournalEntryTests.entry(
            request: Fixture.getJobAttributes(1),
            address: "10.\(number >> 16 & 255).\(number >> 8 & 255).\(number & 255)",
            agent: nil)
    }

    static func summary(_ journal: Journal) -> ClientSummary? {
        journal.clients().clients.first { $0.address == "192.0.2.10" }
    }

    @Test func aClientThatComesAfterAFloodIsSummedUp() {
        let journal = Journal(settings: .init(capacity: 10))
        for number in 0..<ClientActivity.maximumClients { journal.record(Self.junk(number)) }
        for _ in 0..<3 { journal.record(Self.underTest()) }
        let summary = Self.summary(journal)
        #expect(summary?.requests == 3)
        #expect(summary?.rules.map(\.rule) == [.requestingUserName])
        #expect(journal.clients().clients.count <= ClientActivity.maximumClients)
    }

    @Test func aQuietClientKeepsItsFindingsThrough1000JunkClients() {
        let journal = Journal(settings: .init(capacity: 10))
        journal.record(Self.underTest())
        for number in 0..<1_000 { journal.record(Self.junk(number)) }
        #expect(Self.summary(journal)?.findings["warning"] == 1)
    }

    /// Past the most clients, the least recently active go, not the client that goes on sending; what they sent
    /// counts in `untrackedRequests`.
    @Test func theLeastRecentlyActiveAreLetGoFirst() {
        let journal = Journal(settings: .init(capacity: 10))
        let flood = 2 * ClientActivity.maximumClients
        var sent = 0
        for number in 0..<flood {
            if number % 500 == 0 {
                journal.record(Self.underTest())
                sent += 1
            }
            journal.record(Self.junk(number))
        }
        let report = journal.clients()
        #expect(Self.summary(journal)?.requests == sent)
        #expect(report.clients.count <= ClientActivity.maximumClients)
        #expect(report.untrackedRequests > 0)
        #expect(report.clients.reduce(0) { $0 + $1.requests } + report.untrackedRequests == flood + sent)
        // The junk left is the latest.
        #expect(report.clients.contains { $0.address == Self.junk(flood - 1).client.address })
        #expect(!report.clients.contains { $0.address == Self.junk(0).client.address })
    }

    /// A run of fast polls is found although 12,000 other series (more than `maximumTracked`) start meanwhile: the
    /// series let go are the least recent, not every one.
    @Test func aPollingRunSurvivesAFloodOfOtherSeries() {
        let journal = Journal(settings: .init(capacity: 10, pollInterval: 1))
        var junk = 0
        for poll in 0..<5 {
            journal.record(Fixture.entry(Fixture.getJobAttributes(4), jobID: 4), now: 100 + Double(poll) * 0.2)
            for _ in 0..<3_000 {
                journal.record(Self.junk(junk), now: 100 + Double(poll) * 0.2 + 0.1)
                junk += 1
            }
        }
        let poller = journal.clients().clients.first { $0.userAgent == "poller/1" }
        #expect(poller?.rules.map(\.rule) == [.pollingRate])
    }

    /// A client sending every operation code there is holds a bounded count of them.
    @Test func aClientCountsABoundedNumberOfOperationNames() {
        let journal = Journal(settings: .init(capacity: 10))
        for code in 0..<200 {
            var message = Fixture.getJobAttributes(1)
            message.code = UInt16(0x4000 + code)
            journal.record(JournalEntryTests.entry(request: message, address: "192.0.2.10", agent: "under-test/1"))
        }
        let operations = Self.summary(journal)?.operations ?? [:]
        #expect(operations.count == ClientSummary.countedOperations + 1)
        #expect(operations[ClientSummary.otherOperations] == 200 - ClientSummary.countedOperations)
        #expect(operations.values.reduce(0, +) == 200)
    }
}
