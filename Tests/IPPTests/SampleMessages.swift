import IPP

/// Valid messages that together use every value syntax the codec models, shared by the round-trip,
/// truncation and mutation tests.
enum SampleMessages {
    /// One value of every syntax, each as its own attribute.
    static let everySyntaxValues: [(name: String, value: IPPValue)] = [
        ("copies", .integer(-2_147_483_648)),
        ("ipp-attribute-fidelity", .boolean(true)),
        ("orientation-requested", .enumValue(4)),
        ("job-password", .octetString([0x00, 0xFF, 0x7F, 0x80])),
        (
            "printer-current-time",
            .dateTime(IPPDateTime(year: 2026, month: 11, day: 29, hour: 17, minutes: 1, seconds: 19))
        ),
        ("printer-resolution", .resolution(IPPResolution(crossFeed: 600, feed: 1200, units: .dotsPerCentimeter))),
        ("page-ranges", .rangeOfInteger(-5...2_147_483_647)),
        ("job-name", .nameWithLanguage(language: "fr-CA", name: "Relevé")),
        ("job-message-to-operator", .textWithLanguage(language: "de", text: "Grüße")),
        ("printer-info", .text("Ünïcode text ✓")),
        ("requesting-user-name", .name("tester")),
        ("sides", .keyword("two-sided-long-edge")),
        ("printer-uri", .uri("ipp://localhost:8631/ipp/print")),
        ("document-uri-scheme", .uriScheme("ipps")),
        ("charset-configured", .charset("utf-8")),
        ("natural-language-configured", .naturalLanguage("en-us")),
        ("document-format", .mimeMediaType("application/pdf")),
        ("printer-geo-location", .outOfBand(.unknown)),
        ("job-sheets-col", .outOfBand(.noValue)),
        ("vendor-extension", .other(tag: .extension, bytes: [0x40, 0x00, 0x00, 0x01, 0xAB])),
        ("vendor-unknown", .other(tag: IPPTag(rawValue: 0x38), bytes: [1, 2, 3])),
        ("empty-text", .text("")),
    ]

    /// `media-col` with a nested `media-size`, as RFC 8011 and PWG 5100.7 define it.
    static let mediaCol = IPPAttribute(
        "media-col",
        .collection([
            IPPAttribute("media-source", .keyword("main")),
            IPPAttribute(
                "media-size",
                .collection([
                    IPPAttribute("x-dimension", .integer(21000)),
                    IPPAttribute("y-dimension", .integer(29700)),
                ])),
            IPPAttribute("media-type", .keyword("stationery"), .keyword("photographic")),
        ]))

    /// A request that carries every syntax in its job group, a nested collection and a 1setOf of mixed tags.
    static var everySyntaxRequest: IPPMessage {
        var job = IPPAttributeGroup(tag: .jobAttributes)
        for (name, value) in everySyntaxValues {
            job.append(IPPAttribute(name: name, values: [value]))
        }
        job.append(mediaCol)
        job.append("number-up-supported", .integer(1), .rangeOfInteger(2...4), .outOfBand(.noValue))
        return request(.printJob, groups: [job])
    }

    /// A Get-Printer-Attributes response with several groups, as a printer sends it.
    static var printerResponse: IPPMessage {
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("attributes-natural-language", .naturalLanguage("en"))
        operation.append("status-message", .text("successful-ok"))
        var unsupported = IPPAttributeGroup(tag: .unsupportedAttributes)
        unsupported.append("print-scaling", .keyword("stretch"))
        var printer = IPPAttributeGroup(tag: .printerAttributes)
        printer.append("printer-state", .enumValue(3))
        printer.append("operations-supported", .enumValue(2), .enumValue(4), .enumValue(11))
        printer.append(
            IPPAttribute(name: "media-col-ready", values: [mediaCol.values[0], mediaCol.values[0]]))
        return IPPMessage(
            version: .v1_1, status: .successfulOK, requestID: 7, groups: [operation, unsupported, printer])
    }

    /// The encodings of every sample message.
    static var encodings: [(name: String, bytes: [UInt8])] {
        [
            ("every syntax request", IPPEncoder.encode(everySyntaxRequest)),
            ("printer response", IPPEncoder.encode(printerResponse)),
            ("empty message", IPPEncoder.encode(IPPMessage(operation: .getJobs, requestID: 1))),
        ]
    }
}
