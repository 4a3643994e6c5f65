import Dispatch
import Foundation
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
