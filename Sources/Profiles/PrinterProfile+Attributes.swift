import IPP

extension PrinterProfile {
    /// Every static printer description and job template attribute of a printer with this profile.
    ///
    /// Static means: fixed while the printer runs. The printer adds the dynamic ones itself, which this list
    /// never holds: printer-name, printer-uuid, printer-dns-sd-name, printer-uri-supported,
    /// uri-security-supported, uri-authentication-supported, printer-state, printer-state-reasons,
    /// printer-state-message, printer-is-accepting-jobs, printer-up-time, printer-current-time,
    /// printer-state-change-date-time, printer-state-change-time, printer-config-change-date-time,
    /// printer-config-change-time, queued-job-count, printer-icons, printer-more-info, printer-supply-info-uri.
    ///
    /// The list holds media-col-database, which Get-Printer-Attributes returns only when it is named
    /// (PWG 5100.7 section 6.4.x; CUPS's ipp-everywhere.test). The profile's raw `attributes` come last in
    /// effect: each replaces the derived attribute of its name in place, or is appended; one whose only value is
    /// the out-of-band delete-attribute removes the derived attribute. Derivation rules: docs/profiles.md.
    public func printerAttributes(context: ProfileAttributeContext) -> [IPPAttribute] {
        var attributes = descriptionAttributes(context: context)
        attributes += jobTemplateAttributes()
        attributes += mediaAttributes()
        attributes += rasterAttributes()
        attributes += deviceAttributes()
        attributes += clientAttributes()
        return applyingOverrides(to: applyingFeatures(to: attributes))
    }

    /// Printer description attributes of RFC 8011 section 5.4 and PWG 5100.x that do not describe media,
    /// job templates or the device's parts.
    func descriptionAttributes(context: ProfileAttributeContext) -> [IPPAttribute] {
        [
            IPPAttribute("charset-configured", .charset("utf-8")),
            IPPAttribute("charset-supported", .charset("utf-8"), .charset("us-ascii")),
            IPPAttribute("natural-language-configured", .naturalLanguage("en")),
            IPPAttribute("generated-natural-language-supported", .naturalLanguage("en")),
            IPPAttribute("color-supported", .boolean(color)),
            keywords("compression-supported", ["none", "deflate", "gzip"]),
            IPPAttribute("document-format-default", .mimeMediaType(documentFormatDefault)),
            IPPAttribute(
                name: "document-format-supported", values: documentFormats.map { .mimeMediaType(canonicalFormat($0)) }),
            keywords("identify-actions-default", [identifyActionDefault]),
            keywords("identify-actions-supported", identifyActions),
            // PWG 5100.14: an IPP Everywhere printer takes PWG raster; one that does not claims no such feature.
            keywords("ipp-features-supported", supports("image/pwg-raster") ? ["ipp-everywhere"] : ["none"]),
            keywords("ipp-versions-supported", ["1.0", "1.1", "2.0"]),
            IPPAttribute("job-ids-supported", .boolean(true)),
            IPPAttribute("multiple-document-jobs-supported", .boolean(multipleDocumentJobs)),
            IPPAttribute("multiple-operation-time-out", .integer(context.multipleOperationTimeOut)),
            keywords("multiple-operation-time-out-action", [context.multipleOperationTimeOutAction]),
            IPPAttribute(
                name: "operations-supported", values: context.operations.map { .enumValue(Int32($0.rawValue)) }),
            IPPAttribute("pages-per-minute", .integer(pagesPerMinute)),
        ] + (pagesPerMinuteColor.map { [IPPAttribute("pages-per-minute-color", .integer($0))] } ?? []) + [
            keywords("pdl-override-supported", ["attempted"]),
            IPPAttribute("preferred-attributes-supported", .boolean(false)),
            keywords("printer-get-attributes-supported", ["document-format"]),
            IPPAttribute("printer-info", .text(info ?? context.printerName)),
            IPPAttribute("printer-location", .text(location)),
            IPPAttribute("printer-make-and-model", .text(makeAndModel)),
            IPPAttribute("printer-device-id", .text(deviceID)),
            IPPAttribute("printer-organization", .text(organization)),
            IPPAttribute("printer-organizational-unit", .text(organizationalUnit)),
            IPPAttribute("printer-geo-location", geoLocation.map { .uri($0) } ?? .outOfBand(.unknown)),
            keywords("printer-kind", kind),
            IPPAttribute("printer-firmware-name", .name(firmwareName)),
            IPPAttribute("printer-firmware-string-version", .text(firmwareVersion)),
            IPPAttribute("printer-firmware-version", .octetString(Array(firmwareVersion.utf8))),
            keywords("which-jobs-supported", context.whichJobs),
        ]
    }

    /// The derived attributes with the profile's raw `attributes` applied.
    func applyingOverrides(to derived: [IPPAttribute]) -> [IPPAttribute] {
        var result = derived
        for override in attributes {
            let deletes = override.values == [.outOfBand(.deleteAttribute)]
            if let index = result.firstIndex(where: { $0.name == override.name }) {
                if deletes { result.remove(at: index) } else { result[index] = override }
            } else if !deletes {
                result.append(override)
            }
        }
        return result
    }

    /// An attribute of keyword values.
    func keywords(_ name: String, _ values: [String]) -> IPPAttribute {
        IPPAttribute(name: name, values: values.map { .keyword($0) })
    }

    /// An attribute of integer values.
    func integers(_ name: String, _ values: [Int32]) -> IPPAttribute {
        IPPAttribute(name: name, values: values.map { .integer($0) })
    }
}
