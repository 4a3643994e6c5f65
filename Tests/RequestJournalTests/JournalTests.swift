import Dispatch
import Foundation
import IPP
import Testing

@testable import RequestJournal

/// The journal's memory ring, numbering, listeners and file rotation.
@Suite struct JournalTests {
    static func record(_ journal: Journal, count: Int) {
        for _ in 0..<count {
            journal.record(JournalEntryTests.entry())
        }
    }

    @Test func theRingKeepsTheLatestEntriesInOrder() {
        let journal = Journal(settings: .init(capacity: 3))
        Self.record(journal, count: 7)
        #expect(journal.entries().map(\.id) == [5, 6, 7])
        #expect(journal.lastID == 7)
    }

    /// An entry holding `valueBytes` bytes of attribute values.
    static func largeEntry(valueBytes: Int) -> JournalEntry {
        var request = JournalEntryTests.printJob()
        request.groups[1].append("x-large", .octetString([UInt8](repeating: 0x41, count: valueBytes)))
        return JournalEntryTests.entry(request: request)
    }

    @Test func anEntrysEstimateCountsWhatItsValuesHold() {
        let small = JournalEntryTests.entry().retainedBytes
        let large = Self.largeEntry(valueBytes: 100_000).retainedBytes
        #expect(small > 500 && small < 10_000)
        #expect(large >= small + 100_000 && large < small + 101_000)
        var many = JournalEntryTests.printJob()
        many.groups[1].append(IPPAttribute(name: "x-many", values: Array(repeating: .integer(1), count: 100_000)))
        #expect(JournalEntryTests.entry(request: many).retainedBytes >= 100_000 * MemoryLayout<IPPValue>.stride)
    }

    @Test func theOldestDropOutPastTheByteLimitAndTheCountStillHolds() {
        let entryBytes = Self.largeEntry(valueBytes: 100_000).retainedBytes
        let journal = Journal(settings: .init(capacity: 100, byteLimit: entryBytes * 5 + entryBytes / 2))
        for _ in 0..<20 { journal.record(Self.largeEntry(valueBytes: 100_000)) }
        #expect(journal.entries().map(\.id) == Array(16...20))
        #expect(journal.retained.count == 5 && journal.retained.bytes == entryBytes * 5)
        // Small entries fill the same journal up to its count.
        Self.record(journal, count: 150)
        #expect(journal.entries().map(\.id) == Array(71...170))
        #expect(journal.retained.bytes <= journal.settings.byteLimit)
    }

    @Test func theNewestEntryIsKeptWhateverItHolds() {
        let journal = Journal(settings: .init(byteLimit: 1000))
        Self.record(journal, count: 3)
        journal.record(Self.largeEntry(valueBytes: 10_000))
        #expect(journal.entries().map(\.id) == [4])
        Self.record(journal, count: 1)
        #expect(journal.entries().map(\.id) == [5])
    }

    /// The places of dropped entries are given back (`compactionThreshold`): numbering, `since` and late findings
    /// find the entries where they are after it.
    @Test func sinceFindsItsPlaceAcrossTheRingsCompaction() {
        let journal = Journal(settings: .init(capacity: 700))
        Self.record(journal, count: 3000)
        #expect(journal.retained.count == 700)
        var filter = RequestFilter()
        filter.since = .entry(2990)
        #expect(journal.entries(matching: filter).map(\.id) == Array(2991...3000))
        filter.since = .entry(10)
        #expect(journal.entries(matching: filter).map(\.id) == Array(2301...3000))
        filter.since = .entry(3000)
        #expect(journal.entries(matching: filter).isEmpty)
    }

    /// A page stops at its count or its bytes, holding its first entry whatever it holds, and says how far it looked.
    @Test func aPageHoldsAtMostItsCountAndItsBytes() {
        let entryBytes = Self.largeEntry(valueBytes: 50_000).retainedBytes
        let journal = Journal(settings: .init(capacity: 100, byteLimit: 100 * entryBytes))
        for _ in 0..<10 { journal.record(Self.largeEntry(valueBytes: 50_000)) }
        let byBytes = journal.page(matching: RequestFilter(), limit: 100, byteLimit: entryBytes * 7 / 2)
        #expect(byBytes.entries.map(\.id) == [1, 2, 3] && byBytes.more && byBytes.through == 3)
        let byCount = journal.page(matching: RequestFilter(), after: 3, limit: 2)
        #expect(byCount.entries.map(\.id) == [4, 5] && byCount.more && byCount.through == 5)
        let single = journal.page(matching: RequestFilter(), after: 5, limit: 100, byteLimit: 1)
        #expect(single.entries.map(\.id) == [6] && single.more)
        let rest = journal.page(matching: RequestFilter(), after: 6, limit: 100)
        #expect(rest.entries.map(\.id) == [7, 8, 9, 10] && !rest.more && rest.through == 10)
        // Entries the filter passes over count as looked at: a waiter does not look at them again.
        var none = RequestFilter()
        none.kind = .http
        #expect(journal.page(matching: none, limit: 100).through == 10)
    }

    @Test func aJournalSizeIsACountOrWithAUnitABytes() {
        #expect(JournalBound("10000") == .entries(10000))
        #expect(JournalBound("0") == .entries(0))
        #expect(JournalBound("64MiB") == .bytes(64 << 20))
        #expect(JournalBound("500KB") == .bytes(500_000))
        #expect(JournalBound("16m") == .bytes(16 << 20))
        for refused in ["-1", "0MiB", "64XB", "", "MiB", "1.5MiB", "99999999999999999999GiB"] {
            #expect(JournalBound(refused) == nil, "\(refused)")
        }
    }

    @Test func entriesRecordedOnManyThreadsAreEachKeptOnceInTheOrderOfTheirNumbers() {
        let journal = Journal(settings: .init(capacity: 100_000))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<2_000 {
                var entry = JournalEntryTests.entry()
                entry.connection = thread
                journal.record(entry)
            }
        }
        #expect(journal.lastID == 16_000)
        #expect(journal.entries().map(\.id) == Array(1...16_000))
        #expect(journal.clients().clients.map(\.requests) == [16_000])
    }

    @Test func clearingEmptiesMemoryAndNumberingGoesOn() {
        let journal = Journal()
        Self.record(journal, count: 2)
        journal.clear()
        #expect(journal.entries().isEmpty)
        Self.record(journal, count: 1)
        #expect(journal.entries().map(\.id) == [3])
    }

    @Test func aWaiterWakesForANewEntryAndTimesOutWithout() async {
        let journal = Journal()
        Self.record(journal, count: 1)
        #expect(journal.waitForEntries(after: 0, timeout: 0))
        #expect(!journal.waitForEntries(after: 1, timeout: 0.05))
        let waiter = Task.detached { journal.waitForEntries(after: 1, timeout: 30) }
        Self.record(journal, count: 1)
        #expect(await waiter.value)
    }

    @Test func theFileHoldsEveryEntryAndRotatesBySize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.jsonl").path
        let journal = Journal(settings: .init(capacity: 10, filePath: path, rotationBytes: 0, rotatedFiles: 2))
        #expect(journal.settings.rotationBytes == 64 << 10)
        let lineBytes = JournalEntryTests.entry().jsonLine().count
        let perFile = (64 << 10) / lineBytes
        Self.record(journal, count: perFile * 3 + 1)
        journal.flush()
        var ids: [Int] = []
        for name in ["requests.jsonl.2", "requests.jsonl.1", "requests.jsonl"] {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                ids.append(try JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8)).id)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".3"))
        // Three files of perFile lines: the oldest file was removed, and the rest are in order with none missing.
        #expect(ids == Array((perFile + 1)...(perFile * 3 + 1)))
    }

    /// Requests recorded faster than the write queue writes them (here while it is held up for a second) wait for
    /// it once `unwrittenLimit` entries are behind: what is held for the file stays bounded, and all of it is written.
    @Test func entriesNotYetWrittenStayBoundedWhenTheFileFallsBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.jsonl").path
        let journal = Journal(settings: .init(capacity: 100, filePath: path, rotationBytes: 1 << 30))
        let bound = Journal.unwrittenLimit + Journal.stripeCount * Journal.stripeLimit
        journal.writes.async { Thread.sleep(forTimeInterval: 1) }
        var entry = JournalEntryTests.entry()
        var most = 0
        for number in 1...(bound * 3) {
            entry.connection = number % 64
            journal.record(entry)
            if number % 256 == 0 { most = max(most, journal.unwrittenCount) }
        }
        #expect(most <= bound, "at most \(bound) held for the file, not \(most)")
        journal.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == bound * 3, "every entry in the file")
    }

    @Test func aRepeatedRequestsLineIsTheSameAsItsEntry() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.jsonl").path
        let journal = Journal(settings: .init(filePath: path))
        // The second line copies the first one's groups; the third has others, and the fourth the first's again.
        for media in ["iso_a4_210x297mm", "iso_a4_210x297mm", "na_letter_8.5x11in", "iso_a4_210x297mm"] {
            journal.record(JournalEntryTests.entry(request: JournalEntryTests.printJob(media: media)))
        }
        journal.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(JournalEntry.self, from: Data($0.utf8)) }
        #expect(decoded == journal.entries())
        #expect(
            decoded.map { $0.ipp?.attribute("media")?.values.first?.matchText } == [
                "iso_a4_210x297mm", "iso_a4_210x297mm", "na_letter_8.5x11in", "iso_a4_210x297mm",
            ])
    }
}
