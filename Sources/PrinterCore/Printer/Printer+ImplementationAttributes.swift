import IPP

extension Printer {
    /// The operations this printer implements (operations-supported), IPP/2.2 and PWG 5100.11 included.
    public static let supportedOperations: [IPPOperation] = [
        .printJob, .validateJob, .createJob, .sendDocument, .cancelJob, .getJobAttributes, .getJobs,
        .getPrinterAttributes, .holdJob, .releaseJob, .restartJob, .pausePrinter, .resumePrinter, .purgeJobs,
        .setPrinterAttributes, .setJobAttributes, .getPrinterSupportedValues, .createPrinterSubscriptions,
        .createJobSubscriptions, .getSubscriptionAttributes, .getSubscriptions, .renewSubscription,
        .cancelSubscription, .getNotifications, .enablePrinter, .disablePrinter, .pausePrinterAfterCurrentJob,
        .holdNewJobs, .releaseHeldNewJobs, .restartPrinter, .shutdownPrinter, .startupPrinter, .reprocessJob,
        .cancelCurrentJob, .suspendCurrentJob, .resumeJob, .promoteJob, .scheduleJobAfter, .cancelDocument,
        .getDocumentAttributes, .getDocuments, .setDocumentAttributes, .cancelJobs, .cancelMyJobs, .resubmitJob,
        .closeJob, .identifyPrinter, .validateDocument, .printURI, .sendURI,
    ]

    /// The operations only a profile that lists reference-uri-schemes-supported offers (its `documentURI`
    /// feature, or a clone of a printer that offers them): the printer then fetches documents itself.
    static let documentURIOperations: Set<IPPOperation> = [.printURI, .sendURI]

    /// Printer attributes that follow from what this implementation does rather than from the profile: the
    /// operations, which-jobs values, settable attributes, job hold and priority. A profile's own value wins.
    static func implementationAttributes(_ profile: [IPPAttribute]) -> [IPPAttribute] {
        let present = Set(profile.map(\.name))
        func keywords(_ name: String, _ values: [String]) -> IPPAttribute {
            IPPAttribute(name: name, values: values.map { .keyword($0) })
        }
        let settableJob = JobSettableAttributes.names.filter { name in
            name == "job-name" || name == "job-hold-until" || present.contains("\(name)-supported")
        }
        let fetchesDocuments = present.contains("reference-uri-schemes-supported")
        let operations = supportedOperations.filter { fetchesDocuments || !documentURIOperations.contains($0) }
        var attributes =
            [
                IPPAttribute(name: "operations-supported", values: operations.map { .enumValue(Int32($0.rawValue)) }),
                keywords("which-jobs-supported", WhichJobs.supported + WhichJobs.stored(in: profile)),
                keywords("job-settable-attributes-supported", settableJob),
                keywords("printer-settable-attributes-supported", PrinterSettableAttributes.names),
                keywords("document-settable-attributes-supported", ["document-name"]),
                // PWG 5100.5 section 8.1.1: what a Send-Document, Send-URI or Print-Job may say of the document it
                // carries (job template attributes apply to the whole job here, not per document).
                keywords("document-creation-attributes-supported", ["document-name"]),
                IPPAttribute(
                    name: "printer-strings-languages-supported",
                    values: PrinterStrings.languages.map { .naturalLanguage($0) }),
                keywords("job-hold-until-default", ["no-hold"]),
                keywords("job-hold-until-supported", JobHold.keywords),
                IPPAttribute("job-priority-default", .integer(50)),
                IPPAttribute("job-priority-supported", .integer(100)),
                keywords("job-sheets-default", ["none"]),
                keywords("job-sheets-supported", ["none"]),
                keywords("pdl-override-supported", ["attempted"]),
            ] + subscriptionAttributes()
        // The PWG 5100.6 member name is document-numbers; ipp-everywhere.test asks for document-number: both.
        if let overrides = profile.last(where: { $0.name == "overrides-supported" }) {
            var names = overrides.values.compactMap(\.stringValue)
            for name in ["document-number", "document-numbers", "pages"] where !names.contains(name) {
                names.append(name)
            }
            attributes.append(keywords("overrides-supported", names))
        }
        if let creation = profile.last(where: { $0.name == "job-creation-attributes-supported" }) {
            var names = creation.values.compactMap(\.stringValue)
            for name in ["job-hold-until", "job-priority"] where !names.contains(name) { names.append(name) }
            attributes.append(keywords("job-creation-attributes-supported", names))
        }
        return attributes.filter {
            !present.contains($0.name) || $0.name == "operations-supported"
                || $0.name == "which-jobs-supported" || $0.name == "overrides-supported"
                || $0.name == "job-creation-attributes-supported"
        }
    }
}

extension Printer {
    /// The static attributes of a configuration: the profile's, the implementation's, then the profile's raw
    /// attributes again (they win), without those the raw attributes delete.
    static func staticAttributes(_ configuration: PrinterConfiguration) -> [IPPAttribute] {
        let deleted = Set(
            configuration.overridingAttributes.filter { $0.values == [.outOfBand(.deleteAttribute)] }.map(\.name))
        let combined =
            configuration.attributes + implementationAttributes(configuration.attributes)
            + honoured(configuration.overridingAttributes)
        return combined.filter { !deleted.contains($0.name) }
    }

    /// A profile's raw attributes as the printer applies them over its own: all of them, except that
    /// operations-supported keeps only the operations this printer implements, and delete-attribute values
    /// (already applied to the derived list) are left out.
    static func honoured(_ overrides: [IPPAttribute]) -> [IPPAttribute] {
        overrides.compactMap { attribute in
            if attribute.values == [.outOfBand(.deleteAttribute)] { return nil }
            guard attribute.name == "operations-supported" else { return attribute }
            let implemented = Set(supportedOperations.map { Int32($0.rawValue) })
            return IPPAttribute(
                name: attribute.name,
                values: attribute.values.filter { implemented.contains($0.integerValue ?? -1) })
        }
    }
}

/// job-hold-until keywords (RFC 8011 section 5.2.2). Any value but no-hold holds the job until Release-Job:
/// the named periods are not tied to the clock.
enum JobHold {
    static let keywords = [
        "no-hold", "indefinite", "day-time", "evening", "night", "second-shift", "third-shift", "weekend",
    ]
}

/// which-jobs values Get-Jobs accepts (RFC 8011 section 4.2.6.1, PWG 5100.11 section 5.3).
enum WhichJobs {
    static let supported = [
        "completed", "not-completed", "all", "aborted", "canceled", "pending", "pending-held", "processing",
        "processing-stopped", "proof-print",
    ]

    /// The saved, stored-owner, stored-group and stored-public values a profile with job storage lists
    /// (PWG 5100.11).
    static func stored(in profile: [IPPAttribute]) -> [String] {
        let listed = profile.last { $0.name == "which-jobs-supported" }?.values.compactMap(\.stringValue) ?? []
        return listed.filter { $0 == "saved" || $0.hasPrefix("stored-") }
    }
}

/// Job attributes Set-Job-Attributes may change (RFC 3380 section 4.2), before the job prints.
enum JobSettableAttributes {
    static let names = [
        "job-name", "job-hold-until", "job-priority", "copies", "media", "media-col", "sides", "print-color-mode",
        "print-quality", "printer-resolution", "orientation-requested", "page-ranges", "number-up", "print-scaling",
        "output-bin", "finishings",
    ]
}

/// Printer attributes Set-Printer-Attributes may change (RFC 3380 section 4.1).
enum PrinterSettableAttributes {
    static let names = [
        "printer-info", "printer-location", "printer-geo-location", "printer-organization",
        "printer-organizational-unit", "printer-message-from-operator", "media-ready", "media-col-ready",
        "media-default", "media-col-default", "sides-default", "print-color-mode-default", "print-quality-default",
        "printer-resolution-default", "copies-default", "orientation-requested-default", "output-bin-default",
        "print-scaling-default", "printer-input-tray", "printer-supply",
    ]
}
