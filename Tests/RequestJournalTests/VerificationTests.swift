import IPP
import PrintModel
import RequestJournal
import Testing

/// Filters, matchers and verifications: what passes, what fails, and how a failure names its near misses.
@Suite struct VerificationTests {
    typealias Fixture = JournalEntryTests

    static func getAttributes(id: Int) -> JournalEntry {
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("requested-attributes", .keyword("all"))
        return Fixture.entry(
            id: id, request: IPPMessage(operation: .getPrinterAttributes, requestID: 1, groups: [operation]))
    }

    /// Get-Printer-Attributes, Print-Job on A4, Get-Printer-Attributes, Print-Job on letter (refused).
    static let journal: [JournalEntry] = [
        getAttributes(id: 1), Fixture.entry(id: 2), getAttributes(id: 3),
        Fixture.entry(
            id: 4, request: Fixture.printJob(media: "na_letter_8.5x11in", copies: 2),
            status: .clientErrorAttributesOrValuesNotSupported, user: "bob", agent: "aioipp/0.1"),
    ]

    static func verify(_ json: JSONValue) throws -> VerificationResult {
        try Verification(json: json).evaluate(journal)
    }

    @Test func aFilterLetsThroughWhatMeetsEveryCondition() throws {
        let printJobs = try RequestFilter(parameters: [("operation", "print-job")])
        #expect(Self.journal.filter(printJobs.matches).map(\.id) == [2, 4])
        let refused = try RequestFilter(parameters: [("status", "client-error-attributes-or-values-not-supported")])
        #expect(Self.journal.filter(refused.matches).map(\.id) == [4])
        let later = try RequestFilter(parameters: [("since", "2"), ("client", "AIOIPP")])
        #expect(Self.journal.filter(later.matches).map(\.id) == [4])
        let byTime = try RequestFilter(parameters: [("since", "2025-12-01T09:30:02Z")])
        #expect(Self.journal.filter(byTime.matches).map(\.id) == [3, 4])
        #expect(Self.journal.filter(try RequestFilter(parameters: [("job", "4"), ("user", "bob")]).matches).count == 1)
    }

    @Test func aFilterNamesTheParameterItCannotUse() {
        #expect(throws: JournalError.unknownParameter(name: "operaton", known: RequestFilter.parameterNames)) {
            try RequestFilter(parameters: [("operaton", "Print-Job")])
        }
        #expect(throws: JournalError.self) { try RequestFilter(parameters: [("job", "seven")]) }
        #expect(throws: JournalError.self) { try RequestFilter(parameters: [("since", "yesterday")]) }
        #expect(throws: JournalError.self) { try RequestFilter(parameters: [("kind", "ftp")]) }
    }

    @Test func countsPassAndFail() throws {
        let printJob: JSONValue = .object(["operation": .string("Print-Job")])
        #expect(try Self.verify(.object(["request": printJob, "count": .number(2)])).pass)
        #expect(try !Self.verify(.object(["request": printJob, "count": .number(1)])).pass)
        #expect(try Self.verify(.object(["request": printJob, "atLeast": .number(1), "atMost": .number(2)])).pass)
        #expect(try !Self.verify(.object(["request": printJob, "atMost": .number(1)])).pass)
        #expect(try Self.verify(.object(["request": printJob])).pass)
        let cancel: JSONValue = .object(["operation": .string("Cancel-Job")])
        #expect(try !Self.verify(.object(["request": cancel])).pass)
        #expect(try Self.verify(.object(["request": cancel, "count": .number(0)])).pass)
        #expect(try Self.verify(.object(["request": printJob, "since": .number(2), "count": .number(1)])).pass)
    }

    @Test func attributeConditionsLookAtValuesAndTags() throws {
        func count(_ condition: [String: JSONValue]) throws -> Int {
            try Self.verify(
                .object(["request": .object(["attributes": .array([.object(condition)])]), "atLeast": .number(0)])
            ).matched
        }
        #expect(try count(["name": .string("media"), "equals": .string("iso_a4_210x297mm")]) == 1)
        #expect(try count(["name": .string("copies"), "equals": .number(2)]) == 1)
        #expect(try count(["name": .string("orientation-requested"), "equals": .number(4)]) == 2)
        #expect(try count(["name": .string("orientation-requested"), "equals": .string("landscape")]) == 2)
        #expect(try count(["name": .string("job-name"), "contains": .string("invoice")]) == 2)
        #expect(try count(["name": .string("job-name"), "tag": .string("nameWithLanguage")]) == 2)
        #expect(try count(["name": .string("requested-attributes"), "present": .bool(true)]) == 2)
        #expect(try count(["name": .string("media"), "absent": .bool(true)]) == 2)
    }

    @Test func aFailureNamesTheClosestRequestsAndWhatEachMissed() throws {
        let result = try Self.verify(
            .object([
                "request": .object([
                    "operation": .string("Print-Job"), "status": .string("successful-ok"),
                    "attributes": .array([.object(["name": .string("media"), "equals": .string("na_letter_8.5x11in")])]
                    ),
                ])
            ]))
        #expect(!result.pass)
        #expect(result.nearMisses.map(\.id) == [4, 2, 3, 1])
        #expect(
            result.nearMisses[0].missed == [
                "status: client-error-attributes-or-values-not-supported, not successful-ok"
            ])
        #expect(result.nearMisses[1].missed == ["attribute media: iso_a4_210x297mm, not na_letter_8.5x11in"])
        #expect(result.nearMisses[2].missed.first == "operation: Get-Printer-Attributes, not Print-Job")
    }

    @Test func nearMissesAreLimited() throws {
        let many = (1...20).map { Self.getAttributes(id: $0) }
        let result = try Verification(json: .object(["request": .object(["operation": .string("Print-Job")])]))
            .evaluate(many)
        #expect(result.nearMisses.count == Verification.nearMissLimit)
        #expect(result.nearMisses.first?.id == 20)
    }

    /// The best five kept while scanning are those sorting every miss would give: fewest parts missed first, the
    /// latest first among equals, whatever order the misses come in.
    @Test func theNearMissesKeptWhileScanningAreTheBestOfAll() {
        let matcher = RequestMatcher(
            operation: "Print-Job", status: "successful-ok", printer: "office", user: "carol", client: "10.0.0.9")
        // Entries missing 1 to 5 parts, in a scrambled order of ids and miss counts.
        let entries = (1...200).map { id -> JournalEntry in
            let spread = (id * 37) % 5
            var entry = Fixture.entry(id: id, user: "carol", address: "10.0.0.9")
            if spread >= 1 { entry.client.address = "10.0.0.1" }
            if spread >= 2 { entry.printer = "other" }
            if spread >= 3 { entry.user = "dave" }
            if spread >= 4 { entry.ipp?.status = "client-error-not-found" }
            entry.ipp?.operation = "Get-Jobs"
            return entry
        }
        let kept = Verification(question: .count(matcher, atLeast: 1, atMost: nil)).evaluate(entries).nearMisses
        let sorted = entries.map { ($0.id, matcher.misses($0).count) }
            .sorted { ($0.1, -$0.0) < ($1.1, -$1.0) }.prefix(Verification.nearMissLimit).map(\.0)
        #expect(kept.map(\.id) == sorted)
        #expect(kept.allSatisfy { $0.missed.count == 1 })
    }

    /// A miss shows the first values of an attribute of many, and how many there are.
    @Test func aMissOfAnAttributeOfManyValuesShowsTheFirst() {
        var request = Fixture.printJob()
        request.groups[1].append(IPPAttribute(name: "x-many", values: (1...100_000).map { .integer(Int32($0)) }))
        let condition = RequestMatcher.AttributeCondition(name: "x-many", test: .equals("0"))
        let missed = RequestMatcher(attributes: [condition]).misses(Fixture.entry(request: request))
        #expect(missed == ["attribute x-many: 1,2,3,4,5,6,7,8,... (100000 in all), not 0"])
    }

    @Test func aSequencePassesInOrderAndNamesTheStepThatFailed() throws {
        let gpa: JSONValue = .object(["operation": .string("Get-Printer-Attributes")])
        let printJob: JSONValue = .object(["operation": .string("Print-Job")])
        let inOrder = try Self.verify(.object(["sequence": .array([gpa, printJob, gpa, printJob])]))
        #expect(inOrder.pass && inOrder.requests == [1, 2, 3, 4])
        let cancel: JSONValue = .object(["operation": .string("Cancel-Job")])
        let broken = try Self.verify(.object(["sequence": .array([printJob, cancel])]))
        #expect(!broken.pass)
        #expect(broken.message == "step 2 of 2 matched no request after request 2")
        #expect(broken.nearMisses.map(\.id) == [4, 3])
        #expect(try !Self.verify(.object(["sequence": .array([printJob, printJob, printJob])])).pass)
    }

    @Test func aMisspeltKeyIsAnErrorNotAMatchForEverything() {
        let cases: [JSONValue] = [
            .object(["request": .object(["operaton": .string("Print-Job")])]),
            .object(["request": .object([:]), "cout": .number(1)]),
            .object([
                "request": .object(["attributes": .array([.object(["name": .string("media"), "equal": .string("a")])])])
            ]),
            .object(["request": .object(["attributes": .array([.object(["name": .string("media")])])])]),
            .object(["request": .object([:]), "count": .number(1), "atMost": .number(2)]),
            .object(["request": .object([:]), "atLeast": .number(3), "atMost": .number(2)]),
            .object(["sequence": .array([])]),
            .object(["request": .object([:]), "count": .number(-1)]),
            .string("Print-Job"),
        ]
        for json in cases {
            #expect(throws: JournalError.self, "\(json)") { try Verification(json: json) }
        }
    }
}
