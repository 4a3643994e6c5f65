import IPP

extension PrinterProfile {
    /// The PCLm document format (Wi-Fi Direct Print Services, Mopria), spelled as clients compare it: Android's
    /// print service matches the exact string (AOSP BuiltInPrintService `jni/ipphelper/ipphelper.c`).
    public static let pclmFormat = "application/PCLm"

    /// The formats a Mopria client (Android, Windows) prints with: PDF, PCLm, PWG raster.
    static let mopriaFormats = ["application/pdf", pclmFormat, "image/pwg-raster"]

    /// The order in which `document-format-preferred` picks a format: the richest first.
    static let preferredFormatOrder = [
        "application/pdf", pclmFormat, "image/pwg-raster", "image/urf", "image/jpeg", "application/postscript",
    ]

    /// The Mopria version claimed by a printer that takes a Mopria format (as PAPPL and real printers report it).
    public static let mopriaVersion = "1.3"

    /// `pclm-strip-height-supported` (and the first value is `pclm-strip-height-preferred`), in pixels.
    static let pclmStripHeights: [Int32] = [16, 32, 64, 128, 256]

    /// Whether the profile lists `format` (MIME types compare without letter case).
    func supports(_ format: String) -> Bool {
        documentFormats.contains { $0.lowercased() == format.lowercased() }
    }

    /// Attributes that the clients beyond IPP Everywhere read (docs/clients.md): document-format-preferred and
    /// document-format-details-supported (Windows, Android), mopria-certified (Windows, Mopria) when the printer
    /// takes a Mopria format, and for PCLm printers the pclm-* attributes and epcl-version-supported that
    /// Android reads (AOSP BuiltInPrintService `jni/ipphelper/ipphelper.c`, `ippstatus_capabilities.c`).
    func clientAttributes() -> [IPPAttribute] {
        let preferred =
            Self.preferredFormatOrder.first { supports($0) }
            ?? documentFormats.first { $0 != "application/octet-stream" } ?? documentFormatDefault
        var attributes = [
            IPPAttribute("document-format-preferred", .mimeMediaType(canonicalFormat(preferred))),
            // PWG 5100.7 section 5.1.x: the members of document-format-details the printer understands.
            keywords(
                "document-format-details-supported",
                [
                    "document-format", "document-source-application-name", "document-source-application-version",
                    "document-source-os-name", "document-source-os-version",
                ]),
        ]
        if Self.mopriaFormats.contains(where: supports) {
            attributes.append(IPPAttribute("mopria-certified", .text(Self.mopriaVersion)))
        }
        if supports(Self.pclmFormat) { attributes += pclmAttributes() }
        return attributes
    }

    /// pclm-* (Wi-Fi Direct Print Services / Mopria PCLm): the source resolutions are the printer's resolutions,
    /// the back side follows `sheetBack`.
    func pclmAttributes() -> [IPPAttribute] {
        let backSide = ["normal": "normal", "flipped": "flipped", "rotated": "rotated", "manual-tumble": "rotated"]
        return [
            keywords("pclm-compression-method-preferred", ["flate", "jpeg", "rle"]),
            keywords("pclm-raster-back-side", [backSide[sheetBack] ?? "normal"]),
            IPPAttribute(
                "pclm-source-resolution-default",
                .resolution(IPPResolution(crossFeed: resolutionDefault, feed: resolutionDefault))),
            IPPAttribute(
                name: "pclm-source-resolution-supported",
                values: resolutions.map { .resolution(IPPResolution(crossFeed: $0, feed: $0)) }),
            IPPAttribute("pclm-strip-height-preferred", .integer(Self.pclmStripHeights[0])),
            integers("pclm-strip-height-supported", Self.pclmStripHeights),
            keywords("epcl-version-supported", ["1.0"]),
        ]
    }

    /// A MIME type in the spelling clients compare with: `application/PCLm` for any letter case, else as given.
    func canonicalFormat(_ format: String) -> String {
        format.lowercased() == Self.pclmFormat.lowercased() ? Self.pclmFormat : format
    }
}
