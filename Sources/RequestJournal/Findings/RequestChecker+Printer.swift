import IPP
import PrintModel

/// What a request asks of the printer that it does not advertise: an operation, a document format, a compression,
/// job attributes it takes only at job creation, attributes Get-Printer-Attributes cannot return; and, from the
/// answer and the document, values it does not support and bytes that are not the format named.
extension RequestChecker {
    /// The requested-attributes keywords that name groups of attributes, not attributes (RFC 8011 section
    /// 4.2.5.1; PWG 5100.7 media-col-database and the rest are attributes the printer may have).
    static let groupNames: Set<String> = [
        "all", "printer-description", "job-template", "job-description", "job-status", "document-description",
        "document-status", "document-template", "printer-defaults", "subscription-description", "subscription-template",
        "system-description", "system-status",
    ]

    func checkAdvertised(_ message: IPPMessage, printer: any AdvertisedAttributes, into found: inout [ClientFinding]) {
        guard let operation = message[group: .operationAttributes] else { return }
        if let supported = printer.advertised("operations-supported"),
            !supported.values.contains(.enumValue(Int32(message.code)))
        {
            found.append(
                ClientFinding(
                    .operationNotSupported, "\(message.operation) is not in operations-supported",
                    attribute: "operations-supported"))
        }
        if Self.documentOperations.contains(message.operation) {
            check(operation["document-format"], against: "document-format-supported", rule: .documentFormatUnsupported)
            check(operation["compression"], against: "compression-supported", rule: .compressionUnsupported)
        }
        if Self.jobCreationOperations.contains(message.operation),
            let creation = printer.advertised("job-creation-attributes-supported"),
            let job = message[group: .jobAttributes]
        {
            let names = Set(creation.values.compactMap(\.stringValue))
            for attribute in job.attributes
            where !names.contains(attribute.name) && printer.advertised("\(attribute.name)-supported") != nil {
                found.append(
                    ClientFinding(
                        .notCreationAttribute,
                        "\(attribute.name) is not in job-creation-attributes-supported: the printer does not take it "
                            + "when a job is created",
                        attribute: attribute.name))
            }
        }
        if message.operation == .getPrinterAttributes, let requested = operation["requested-attributes"] {
            var unknown: [String] = []
            for value in requested.values {
                guard case .keyword(let name) = value, !Self.groupNames.contains(name), !printer.hasAttribute(name)
                else { continue }
                unknown.append(name)
            }
            if !unknown.isEmpty {
                found.append(
                    ClientFinding(
                        .unknownRequestedAttribute,
                        "requested-attributes names \(unknown.count == 1 ? "an attribute" : "attributes") this "
                            + "printer does not have: \(unknown.prefix(Self.listedValues).joined(separator: ", "))"
                            + (unknown.count > Self.listedValues ? ", ... (\(unknown.count) in all)" : ""),
                        attribute: "requested-attributes"))
            }
        }

        func check(_ attribute: IPPAttribute?, against name: String, rule: ClientRule) {
            guard let attribute, let value = attribute.value?.stringValue,
                let supported = printer.advertised(name),
                !supported.values.contains(where: { $0.stringValue?.lowercased() == value.lowercased() })
            else { return }
            found.append(
                ClientFinding(
                    rule, "\(attribute.name) \(value) is not in \(name): \(Self.list(supported))",
                    attribute: attribute.name))
        }
    }

    /// What the answer's unsupported-attributes group shows: job template values the printer does not support
    /// (named with the values it does) and attributes it does not support at all. Attributes another rule already
    /// judged (document-format, compression, a repeated attribute, requested-attributes) are left to it.
    public func findings(answer unsupported: [IPPAttribute], to message: IPPMessage) -> [ClientFinding] {
        guard !unsupported.isEmpty else { return [] }
        let judgedElsewhere: Set<String> = [
            "document-format", "compression", "attributes-charset", "attributes-natural-language",
            "requested-attributes", "ipp-versions-supported",
        ]
        var repeated: Set<String> = []
        for group in message.groups {
            var seen: Set<String> = []
            for attribute in group.attributes where !seen.insert(attribute.name).inserted {
                repeated.insert(attribute.name)
            }
        }
        var found: [ClientFinding] = []
        var reported: Set<String> = []
        for attribute in unsupported
        where !judgedElsewhere.contains(attribute.name) && !repeated.contains(attribute.name)
            && reported.insert(attribute.name).inserted
        {
            let name = attribute.name
            if attribute.values == [.outOfBand(.unsupported)] {
                found.append(
                    ClientFinding(
                        .unsupportedAttribute, "the printer does not support \(name) (it has no \(name)-supported)",
                        attribute: name))
            } else if let supported = printer?.advertised("\(name)-supported") {
                let sent = SecretAttributes.redacted(attribute).values.map {
                    JournaledValue($0, attribute: name).matchText ?? "\($0.tag)"
                }
                found.append(
                    ClientFinding(
                        .unsupportedValue,
                        "\(name) \(sent.joined(separator: ", ")) is not in \(name)-supported: \(Self.list(supported))",
                        attribute: name))
            } else {
                found.append(
                    ClientFinding(.unsupportedValue, "the printer does not support this \(name)", attribute: name))
            }
        }
        return found
    }

    /// Whether the bytes sent are the format the request named: a declared format the detector finds another
    /// format in is a mismatch (application/octet-stream asks the printer to find out, and PCLm is a PDF).
    public func findings(document: JournalEntry.Document) -> [ClientFinding] {
        guard let detectedName = document.detectedFormat,
            DocumentFormat(rawValue: document.format).isContradicted(byDetected: DocumentFormat(rawValue: detectedName))
        else { return [] }
        return [
            ClientFinding(
                .documentFormatMismatch,
                "document-format is \(document.format) but the \(document.size) bytes sent are \(detectedName)",
                attribute: "document-format")
        ]
    }
}
