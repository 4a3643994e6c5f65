import IPP

extension PrinterProfile {
    /// The job template attributes an IPP Everywhere printer supports, without media (PWG 5100.14 section 5.2).
    static let jobCreationAttributes = [
        "copies", "finishings", "ipp-attribute-fidelity", "job-name", "media", "media-col",
        "multiple-document-handling",
        "number-up", "orientation-requested", "output-bin", "overrides", "page-ranges",
        "presentation-direction-number-up",
        "print-color-mode", "print-content-optimize", "print-quality", "print-rendering-intent", "print-scaling",
        "printer-resolution", "sides",
    ]

    /// Job template attributes (RFC 8011 section 5.2, PWG 5100.13, PWG 5100.14) with their -default and -supported
    /// values, except media ones.
    func jobTemplateAttributes() -> [IPPAttribute] {
        let hasPDF = documentFormats.contains("application/pdf")
        // Page ranges select pages of a paged vector document: PDF, or PCLm (a PDF subset, rendered by Poppler).
        let hasPageRanges = hasPDF || supports(Self.pclmFormat)
        var creation = Self.jobCreationAttributes.filter { hasPageRanges || $0 != "page-ranges" }
        if finishings.count > 1 { creation.append("finishings-col") }
        var attributes: [IPPAttribute] = [
            keywords("job-creation-attributes-supported", creation.sorted()),
            IPPAttribute("copies-default", .integer(1)),
            IPPAttribute("copies-supported", .rangeOfInteger(1...copiesMax)),
            IPPAttribute("finishings-default", .enumValue(3)),
            IPPAttribute(name: "finishings-supported", values: finishings.compactMap(finishingValue)),
            IPPAttribute(name: "finishings-ready", values: finishings.compactMap(finishingValue)),
            keywords("multiple-document-handling-default", ["separate-documents-collated-copies"]),
            keywords(
                "multiple-document-handling-supported",
                ["separate-documents-uncollated-copies", "separate-documents-collated-copies"]),
            IPPAttribute("number-up-default", .integer(1)),
            integers("number-up-supported", numberUp),
            keywords("presentation-direction-number-up-default", ["toright-tobottom"]),
            keywords(
                "presentation-direction-number-up-supported",
                [
                    "tobottom-toleft", "tobottom-toright", "toleft-tobottom", "toleft-totop", "toright-tobottom",
                    "toright-totop", "totop-toleft", "totop-toright",
                ]),
            IPPAttribute("orientation-requested-default", .enumValue(3)),
            IPPAttribute(name: "orientation-requested-supported", values: (3...7).map { .enumValue($0) }),
            IPPAttribute("landscape-orientation-requested-preferred", .enumValue(4)),
            keywords("output-bin-default", [outputBinDefault]),
            keywords("output-bin-supported", outputBins),
            keywords("print-color-mode-default", [color ? "auto" : "monochrome"]),
            keywords("print-color-mode-supported", color ? ["auto", "color", "monochrome"] : ["monochrome"]),
            keywords("print-content-optimize-default", ["auto"]),
            keywords("print-content-optimize-supported", ["auto", "graphic", "photo", "text", "text-and-graphic"]),
            keywords("print-rendering-intent-default", ["auto"]),
            keywords("print-rendering-intent-supported", ["auto", "perceptual", "relative", "relative-bpc"]),
            keywords("print-scaling-default", ["auto"]),
            keywords("print-scaling-supported", ["auto", "auto-fit", "fill", "fit", "none"]),
            IPPAttribute("print-quality-default", .enumValue(qualityValue(printQualityDefault))),
            IPPAttribute(name: "print-quality-supported", values: printQualities.map { .enumValue(qualityValue($0)) }),
            IPPAttribute(
                "printer-resolution-default",
                .resolution(IPPResolution(crossFeed: resolutionDefault, feed: resolutionDefault))),
            IPPAttribute(
                name: "printer-resolution-supported",
                values: resolutions.map { .resolution(IPPResolution(crossFeed: $0, feed: $0)) }),
            keywords("sides-default", [sidesDefault]),
            keywords("sides-supported", Self.sides(duplex: duplex)),
            IPPAttribute("page-ranges-supported", .boolean(hasPageRanges)),
            // PWG 5100.6 section 6.2.1: what a page override may change; each prints (Imposer).
            keywords(
                "overrides-supported",
                ["document-number", "pages", "media", "media-col", "orientation-requested"] + (duplex ? ["sides"] : [])),
        ]
        if hasPDF {
            // PWG 5100.13 section 6.5.x: the longest document-password accepted, in octets.
            attributes.append(IPPAttribute("document-password-supported", .integer(1023)))
        }
        attributes += finishingsColAttributes()
        return attributes
    }

    /// finishing-template-supported and finishings-col-* (PWG 5100.1), when the printer finishes at all.
    private func finishingsColAttributes() -> [IPPAttribute] {
        guard finishings.count > 1 else { return [] }
        let templates = finishingTemplateDatabase()
        return [
            keywords("finishing-template-supported", finishings),
            IPPAttribute(name: "finishings-col-database", values: templates),
            IPPAttribute("finishings-col-default", .outOfBand(.noValue)),
            IPPAttribute(name: "finishings-col-ready", values: templates),
        ] + finishingDetailAttributes()
    }

    private func finishingValue(_ keyword: String) -> IPPValue? {
        IPPEnumNames.value(attribute: "finishings", keyword: keyword).map { .enumValue($0) }
    }

    /// print-quality enum values: draft 3, normal 4, high 5 (RFC 8011 section 5.2.13).
    private func qualityValue(_ keyword: String) -> Int32 {
        IPPEnumNames.value(attribute: "print-quality", keyword: keyword) ?? 4
    }
}
