import Foundation
import IPP
import RequestJournal
import Testing

/// Secrets a request carries are never journaled: not in the entry's memory, its JSON (the API, the events, the
/// page), nor the journal file, which only its owner may read.
@Suite struct SecretAttributesTests {
    /// The secrets the request below sends.
    static let secrets = ["8642", "s3cret", "hunter2"]

    /// A Print-Job with the PIN of PWG 5100.11 section 7.1.2 (job-password), the PDF password of PWG 5100.13
    /// section 6.1.2 (document-password), and a URI with a password in its user information (RFC 3986 section
    /// 3.2.1) in a collection.
    static func request() -> IPPMessage {
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("attributes-natural-language", .naturalLanguage("en"))
        operation.append("printer-uri", .uri("ipp://alice@localhost/ipp/print"))
        operation.append("job-password", .octetString(Array("8642".utf8)))
        operation.append("job-password-encryption", .keyword("none"))
        operation.append("document-password", .octetString(Array("s3cret".utf8)))
        var job = IPPAttributeGroup(tag: .jobAttributes)
        job.append(
            "finishings-col", .collection([IPPAttribute("x-source", .uri("http://bob:hunter2@files.example/doc"))]))
        return IPPMessage(operation: .printJob, requestID: 3, groups: [operation, job])
    }

    static func entry(answering unsupported: [IPPAttribute] = []) -> JournalEntry {
        JournalEntry(
            id: 1, time: "t", durationMilliseconds: 1, kind: .ipp, connection: 1,
            client: .init(address: "127.0.0.1", port: 1, userAgent: nil), tls: false, user: nil, printer: "office",
            http: .init(method: "POST", path: "/ipp/print", status: 200),
            ipp: .init(
                request: request(), document: nil, status: .successfulOK, statusCode: 0, unsupported: unsupported,
                jobID: 1))
    }

    static func expectNoSecret(in text: String, _ comment: Comment? = nil) {
        for secret in secrets { #expect(!text.contains(secret), comment) }
    }

    @Test func secretsAreKeptAsTheirLengthWithTheirTag() throws {
        let ipp = try #require(Self.entry().ipp)
        let pin = try #require(ipp.attribute("job-password")?.values.first)
        #expect(pin.tag == "octetString")
        #expect(pin.value == .string("(redacted, 4 bytes)"))
        #expect(ipp.attribute("document-password")?.values.first?.value == .string("(redacted, 6 bytes)"))
        // What is no secret stays as sent: the user without a password, the encryption's keyword.
        #expect(ipp.attribute("printer-uri")?.values.first?.value == .string("ipp://alice@localhost/ipp/print"))
        #expect(ipp.attribute("job-password-encryption")?.values.first?.value == .string("none"))
        let member = ipp.attribute("finishings-col")?.values.first?.members?.first?.values.first
        #expect(member?.value == .string("http://bob:(redacted, 7 bytes)@files.example/doc"))
    }

    @Test func noFormOfTheEntryHoldsASecret() throws {
        let entry = Self.entry(answering: [IPPAttribute("job-password", .octetString(Array("8642".utf8)))])
        Self.expectNoSecret(in: String(decoding: try JSONEncoder().encode(entry), as: UTF8.self), "Codable")
        Self.expectNoSecret(in: String(decoding: entry.jsonLine(), as: UTF8.self), "the file's line")
        Self.expectNoSecret(in: String(decoding: JournalEntry.jsonArray([entry]), as: UTF8.self), "the API's array")
        // In memory: the groups as decoded are the redacted ones too.
        Self.expectNoSecret(in: String(describing: entry), "memory")
        #expect(entry.ipp?.unsupported.first?.values.first?.value == .string("(redacted, 4 bytes)"))
    }

    @Test func theCheckerNamesNoSecretAnAnswerRefused() {
        let advertised = AttributeList([IPPAttribute("job-password-supported", .integer(2))])
        let refused = IPPAttribute("job-password", .octetString(Array("8642".utf8)))
        let findings = RequestChecker(printer: advertised).findings(answer: [refused], to: Self.request())
        #expect(findings.count == 1)
        Self.expectNoSecret(in: findings.map(\.message).joined(), "findings")
    }

    @Test func everySyntaxOfASecretIsRedactedToItsLength() {
        let values: [(IPPValue, String)] = [
            (.text("12345"), "(redacted, 5 bytes)"), (.name("1"), "(redacted, 1 byte)"),
            (.nameWithLanguage(language: "en", name: "abc"), "(redacted, 3 bytes)"),
            (.integer(8642), "(redacted, 4 bytes)"),
        ]
        for (value, text) in values {
            let redacted = SecretAttributes.redacted(IPPAttribute(name: "job-password", values: [value]))
            let journaled = JournaledAttribute(redacted).values.first
            #expect(journaled?.tag == value.tag.description)
            #expect(journaled?.value == .string(text))
        }
        let noValue = IPPAttribute("document-password", .outOfBand(.noValue))
        #expect(SecretAttributes.redacted(noValue) == noValue)
    }

    @Test func groupsWithoutSecretsAreSharedAsTheyAre() {
        let groups = JournalEntryTests.printJob(media: "na_letter_8.5x11in").groups
        let plain = groups.map { group in
            var kept = group
            kept.attributes.removeAll { $0.name == "job-password" }
            return kept
        }
        #expect(!SecretAttributes.holdsSecrets(plain))
        #expect(SecretAttributes.redacted(plain) == plain)
        #expect(SecretAttributes.holdsSecrets(groups))
    }

    @Test func theFileHoldsNoSecretAndOnlyItsOwnerMayReadIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.jsonl").path
        let journal = Journal(settings: .init(filePath: path))
        journal.record(Self.entry())
        journal.flush()
        Self.expectNoSecret(in: try String(contentsOfFile: path, encoding: .utf8))
        #expect(try Self.mode(path) == 0o600)
    }

    @Test func aFileAnEarlierRunLeftReadableIsMadeTheOwnersAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("requests.jsonl").path
        for name in [path, path + ".1"] {
            #expect(FileManager.default.createFile(atPath: name, contents: Data("{}\n".utf8)))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: name)
        }
        let journal = Journal(settings: .init(filePath: path))
        journal.record(Self.entry())
        journal.flush()
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(path + ".1") == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("{}\n{"))
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
