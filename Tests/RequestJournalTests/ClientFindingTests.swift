import Foundation
import IPP
import RequestJournal
import Testing

/// The checks of a client's requests: each rule found where it is broken and not where it is kept, the answer's
/// and the document's findings, and what only a series of requests shows (polling, a Create-Job left open).
@Suite struct ClientFindingTests {
    /// A printer that supports A4 and Letter, 1 to 99 copies, PDF and JPEG, and takes media and copies at creation.
    static let printer = AttributeList(
        [
            IPPAttribute(name: "ipp-versions-supported", values: [.keyword("1.1"), .keyword("2.0")]),
            IPPAttribute(name: "charset-supported", values: [.charset("utf-8")]),
            IPPAttribute(
                name: "operations-supported",
                values: [
                    IPPOperation.printJob, .validateJob, .createJob, .sendDocument, .getPrinterAttributes,
                    .getJobAttributes, .getJobs, .cancelJob,
                ]
                .map { .enumValue(Int32($0.rawValue)) }),
            IPPAttribute(
                name: "media-supported",
                values: ["iso_a4_210x297mm", "na_letter_8.5x11in"].map(IPPValue.keyword)),
            IPPAttribute("copies-supported", .rangeOfInteger(1...99)),
            IPPAttribute("sides-supported", .keyword("one-sided")),
            IPPAttribute(
                name: "document-format-supported",
                values: ["application/pdf", "image/jpeg"].map(IPPValue.mimeMediaType)),
            IPPAttribute(name: "compression-supported", values: [.keyword("none"), .keyword("gzip")]),
            IPPAttribute(name: "job-creation-attributes-supported", values: [.keyword("media"), .keyword("copies")]),
        ], otherNames: ["printer-state"])

    static let checker = RequestChecker(printer: printer)

    /// A Print-Job as a careful client sends it, with `change` applied to its operation and job groups.
    static func printJob(
        _ operation: IPPOperation = .printJob,
        change: (inout [IPPAttribute], inout [IPPAttribute]) -> Void = { _, _ in }
    ) -> IPPMessage {
        var operationAttributes = [
            IPPAttribute("attributes-charset", .charset("utf-8")),
            IPPAttribute("attributes-natural-language", .naturalLanguage("en")),
            IPPAttribute("printer-uri", .uri("ipp://localhost/ipp/print")),
            IPPAttribute("requesting-user-name", .name("alice")),
            IPPAttribute("job-name", .name("invoice")),
            IPPAttribute("document-format", .mimeMediaType("application/pdf")),
        ]
        var job = [IPPAttribute("media", .keyword("iso_a4_210x297mm")), IPPAttribute("copies", .integer(2))]
        change(&operationAttributes, &job)
        var groups = [IPPAttributeGroup(tag: .operationAttributes, attributes: operationAttributes)]
        if !job.isEmpty { groups.append(IPPAttributeGroup(tag: .jobAttributes, attributes: job)) }
        return IPPMessage(operation: operation, requestID: 3, groups: groups)
    }

    static func rules(_ message: IPPMessage) -> [ClientRule] {
        checker.findings(in: message).map(\.rule)
    }

    @Test func aCarefulRequestHasNoFinding() {
        #expect(Self.checker.findings(in: Self.printJob()).isEmpty)
    }

    @Test func eachBrokenRuleIsFound() {
        func broken(_ change: @escaping (inout [IPPAttribute], inout [IPPAttribute]) -> Void) -> [ClientRule] {
            Self.rules(Self.printJob(change: change))
        }
        #expect(
            broken { operation, _ in operation.swapAt(0, 1) } == [.operationAttributesOrder, .operationAttributesOrder])
        #expect(broken { operation, _ in operation.swapAt(2, 3) } == [.targetOrder])
        #expect(broken { operation, _ in operation.remove(at: 3) } == [.requestingUserName])
        #expect(broken { _, job in job[1] = IPPAttribute("copies", .keyword("2")) } == [.valueTag])
        #expect(broken { _, job in job[1] = IPPAttribute("copies", .integer(0)) } == [.valueRange])
        #expect(
            broken { _, job in job[1] = IPPAttribute(name: "copies", values: [.integer(1), .integer(2)]) } == [
                .valueCount
            ])
        #expect(broken { _, job in job[0] = IPPAttribute("media", .keyword("ISO A4")) } == [.keywordSyntax])
        #expect(
            broken { _, job in job.append(IPPAttribute("media", .keyword("iso_a4_210x297mm"))) } == [
                .duplicateAttribute
            ])
        #expect(broken { operation, job in operation.append(job.removeLast()) } == [.wrongGroup])
        #expect(
            broken { operation, _ in operation[5] = IPPAttribute("document-format", .mimeMediaType("image/png")) } == [
                .documentFormatUnsupported
            ])
        #expect(
            broken { operation, _ in operation.append(IPPAttribute("compression", .keyword("deflate"))) } == [
                .compressionUnsupported
            ])
        #expect(
            broken { _, job in job.append(IPPAttribute("sides", .keyword("one-sided"))) } == [.notCreationAttribute])
        #expect(Self.rules(Self.printJob(.restartJob)) == [.missingOperationAttribute, .operationNotSupported])
    }

    /// RFC 8011 section 4.1.3: an attribute appears once in its group. Each repeat is found once, among 100,000
    /// attributes (the decoder's most values, `IPPLimits`), with a set of the names seen rather than a scan of them.
    @Test func eachRepeatAmongManyAttributesIsFoundOnce() {
        let message = Self.printJob { _, job in
            job = (0..<100_000).map { IPPAttribute("x-extension-\($0 % 90_000)", .integer(1)) }
        }
        let repeats = RequestChecker(printer: nil).findings(in: message).filter { $0.rule == .duplicateAttribute }
        #expect(repeats.count == 10_000)
        #expect(repeats.first?.attribute == "x-extension-0" && repeats.last?.attribute == "x-extension-9999")
        #expect(Set(repeats.compactMap(\.attribute)).count == 10_000)
    }

    @Test func theHeaderAndGroupsAreChecked() {
        var message = Self.printJob()
        message.version = IPPVersion(major: 2, minor: 2)
        message.requestID = 0
        message.groups.reverse()
        #expect(Self.rules(message) == [.ippVersion, .requestID, .groupOrder])
        let empty = IPPMessage(operation: .getPrinterAttributes, requestID: 1, groups: [])
        #expect(Self.rules(empty) == [.operationAttributesOrder])
    }

    @Test func aJobOperationNeedsItsJobAndSendDocumentItsLastDocument() {
        let send = Self.printJob(.sendDocument) { operation, job in
            operation.insert(IPPAttribute("job-id", .integer(4)), at: 4)
            job = []
        }
        #expect(Self.rules(send) == [.targetOrder, .missingOperationAttribute])
        let finding = Self.checker.findings(in: send)[1]
        #expect(finding.reference == "RFC 8011 §4.3.1.1" && finding.attribute == "last-document")
    }

    @Test func unknownRequestedAttributesAreInfoAndGroupNamesAreFine() {
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("attributes-natural-language", .naturalLanguage("en"))
        operation.append("printer-uri", .uri("ipp://localhost/ipp/print"))
        operation.append(
            IPPAttribute(
                name: "requested-attributes",
                values: ["all", "media-col-database", "printer-state", "printer-fax-log-uri"].map(IPPValue.keyword)))
        let findings = Self.checker.findings(
            in: IPPMessage(operation: .getPrinterAttributes, requestID: 1, groups: [operation]))
        #expect(findings.map(\.rule) == [.unknownRequestedAttribute])
        #expect(findings[0].severity == .info)
        #expect(findings[0].message.hasSuffix("media-col-database, printer-fax-log-uri"))
    }

    @Test func anUnsupportedValueNamesTheSupportedOnes() {
        let findings = Self.checker.findings(
            answer: [
                IPPAttribute("media", .keyword("iso_a3_297x420mm")),
                IPPAttribute("finishings", .outOfBand(.unsupported)),
            ], to: Self.printJob())
        #expect(findings.map(\.rule) == [.unsupportedValue, .unsupportedAttribute])
        #expect(
            findings[0].message
                == "media iso_a3_297x420mm is not in media-supported: iso_a4_210x297mm, na_letter_8.5x11in")
        #expect(findings[0].severity == .error && findings[1].severity == .warning)
    }

    @Test func aRangeThatEndsBeforeItStartsIsOutOfRange() throws {
        let reversed = Self.printJob { _, job in
            job.append(IPPAttribute("page-ranges", .other(tag: .rangeOfInteger, bytes: [0, 0, 0, 5, 0, 0, 0, 2])))
        }
        let findings = Self.checker.findings(in: reversed)
        #expect(findings.map(\.rule) == [.valueRange])
        #expect(findings.first?.message == "page-ranges 5-2 ends before it starts")
        let value = JournaledValue(
            .other(tag: .rangeOfInteger, bytes: [0, 0, 0, 5, 0, 0, 0, 2]), attribute: "page-ranges")
        #expect(value.matchText == "5-2")
    }

    @Test func aLongSupportedListIsCut() {
        let many = IPPAttribute(name: "media-supported", values: (1...12).map { .keyword("size_\($0)") })
        #expect(RequestChecker.list(many).hasSuffix("size_8, ... (12 in all)"))
    }

    @Test func bytesThatAreNotTheNamedFormatAreFound() {
        let checker = RequestChecker(printer: nil)
        let mismatch = JournalEntry.Document(
            format: "application/pdf", detectedFormat: "image/jpeg", size: 9, sha256: "")
        #expect(checker.findings(document: mismatch).map(\.rule) == [.documentFormatMismatch])
        let detect = JournalEntry.Document(
            format: "application/octet-stream", detectedFormat: "image/jpeg", size: 9, sha256: "")
        let pclm = JournalEntry.Document(
            format: "application/pdf", detectedFormat: "application/PCLm", size: 9, sha256: "")
        let unknown = JournalEntry.Document(format: "text/plain", detectedFormat: nil, size: 9, sha256: "")
        #expect([detect, pclm, unknown].allSatisfy { checker.findings(document: $0).isEmpty })
    }

    static func entry(_ message: IPPMessage, agent: String = "poller/1", jobID: Int? = nil) -> JournalEntry {
        var entry = JournalEntryTests.entry(request: message, agent: agent)
        entry.ipp?.jobID = jobID
        return entry
    }

    static func getJobAttributes(_ jobID: Int32) -> IPPMessage {
        Self.printJob(.getJobAttributes) { operation, job in
            operation.insert(IPPAttribute("job-id", .integer(jobID)), at: 3)
            job = []
        }
    }

    @Test func fastPollingIsFoundOnceForARun() {
        let journal = Journal(settings: .init(pollInterval: 1))
        let times = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 5.0, 5.1, 5.2, 5.3, 5.4, 7.0, 7.5, 8.0, 8.5]
        for time in times { journal.record(Self.entry(Self.getJobAttributes(4), jobID: 4), now: 100 + time) }
        // The fifth poll of each run of fast ones: a pause starts a new run, and four fast polls are no finding.
        let recorded = journal.entries()
        let found = recorded.indices.filter { recorded[$0].findings?.map(\.rule) == [.pollingRate] }
        #expect(found == [4, 10])
        // Another client polling at the same time is its own series.
        let other = journal.record(Self.entry(Self.getJobAttributes(4), agent: "other/2", jobID: 4), now: 108.6)
        #expect(journal.entries().last?.id == other && journal.entries().last?.findings == nil)
        let warnings = journal.clients().clients.map { ($0.userAgent ?? "", $0.findings["warning"] ?? 0) }
        #expect(Dictionary(uniqueKeysWithValues: warnings) == ["poller/1": 2, "other/2": 0])
    }

    @Test func aCreateJobWithoutItsDocumentIsFoundWhenItsTimeRunsOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.jsonl").path
        let journal = Journal(settings: .init(filePath: path))
        let create = Self.printJob(.createJob) { operation, _ in operation.remove(at: 5) }
        let left = journal.record(Self.entry(create, jobID: 7), openJobTimeout: 30, now: 1000)
        journal.record(Self.entry(create, jobID: 8), openJobTimeout: 30, now: 1001)
        let send = Self.printJob(.sendDocument) { operation, job in
            operation.insert(IPPAttribute("job-id", .integer(8)), at: 3)
            operation.append(IPPAttribute("last-document", .boolean(true)))
            job = []
        }
        journal.record(Self.entry(send, jobID: 8), now: 1002)
        #expect(journal.entries(now: 1029).compactMap(\.findings).isEmpty)
        let entries = journal.entries(now: 1031)
        #expect(entries.map { $0.findings?.map(\.rule) ?? [] } == [[.createJobWithoutDocument], [], []])
        #expect(entries[0].findings?.first?.message.contains("job 7") == true)
        #expect(
            journal.entries(matching: try RequestFilter(parameters: [("rule", "create-job-without-document")]))
                .map(\.id) == [left])
        #expect(journal.clients().clients[0].rules.map(\.requests) == [[left]])
        journal.flush()
        // The entry's line is written again with its finding: the last line of a number wins.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let last = try JSONDecoder().decode(JournalEntry.self, from: Data(lines.last!.utf8))
        #expect(lines.count == 4 && last.id == left && last.findings?.first?.rule == .createJobWithoutDocument)
    }

    @Test func theSeverityFilterAndTheReportCountAtOrAboveALevel() throws {
        let journal = Journal()
        var missingUser = Self.printJob { operation, _ in operation.remove(at: 3) }
        missingUser.requestID = 9
        var entry = Self.entry(missingUser)
        entry.findings = Self.checker.findings(in: missingUser)
        journal.record(entry)
        journal.record(Self.entry(Self.printJob()))
        #expect(journal.entries(matching: try RequestFilter(parameters: [("finding", "warning")])).count == 1)
        #expect(journal.entries(matching: try RequestFilter(parameters: [("finding", "error")])).isEmpty)
        let report = journal.clients()
        #expect(report.hasFinding(atLeast: .warning) && !report.hasFinding(atLeast: .error))
        #expect(report.clients[0].requests == 2 && report.clients[0].operations == ["Print-Job": 2])
        #expect(throws: JournalError.self) { try RequestFilter(parameters: [("finding", "fatal")]) }
        journal.clear()
        #expect(journal.clients().clients.isEmpty)
    }

    @Test func aFindingRoundTripsThroughTheJournalLine() throws {
        var entry = JournalEntryTests.entry()
        entry.findings = [ClientFinding(.targetOrder, "printer-uri must be the third", attribute: "printer-uri")]
        let decoded = try JSONDecoder().decode(JournalEntry.self, from: Data(entry.jsonLine()))
        #expect(decoded == entry)
        #expect(String(decoding: entry.jsonLine(), as: UTF8.self).contains(#""reference":"RFC 8011 §4.1.5""#))
    }
}
