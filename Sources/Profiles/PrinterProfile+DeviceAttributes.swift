import IPP

extension PrinterProfile {
    /// pwg-raster-document-* (PWG 5102.4 section 4.3) and urf-supported (AirPrint), the latter only on a printer
    /// that takes Apple Raster (`image/urf`), as on a real one.
    func rasterAttributes() -> [IPPAttribute] {
        [
            IPPAttribute(
                name: "pwg-raster-document-resolution-supported",
                values: resolutions.map { .resolution(IPPResolution(crossFeed: $0, feed: $0)) }),
            keywords("pwg-raster-document-sheet-back", [sheetBack]),
            keywords("pwg-raster-document-type-supported", pwgRasterTypes),
        ] + (supports("image/urf") ? [keywords("urf-supported", urfSupported)] : [])
    }

    /// The PWG raster color spaces and bit depths: black_1 and sgray_8, plus srgb_8 and srgb_16 in color.
    public var pwgRasterTypes: [String] {
        color ? ["black_1", "sgray_8", "srgb_8", "srgb_16"] : ["black_1", "sgray_8"]
    }

    /// The AirPrint `urf-supported` keywords, also the DNS-SD `URF` key, e.g.
    /// `V1.4,CP99,DM1,IS1,MT1-2,PQ3-4-5,RS300-600,W8`.
    ///
    /// V1.4; CP with the copies maximum; DM with the back-side code of `sheetBack` when duplex (normal 1, flipped 2,
    /// rotated 3, manual-tumble 4); FN with finishing enums other than none; IS and MT with the AirPrint codes of the
    /// sources and types that have one (digest section 5); PQ with the qualities; RS with the resolutions; SRGB24
    /// when color; W8 always.
    public var urfSupported: [String] {
        var tokens = ["V1.4", "CP\(copiesMax)"]
        if duplex {
            let code = ["normal": 1, "flipped": 2, "rotated": 3, "manual-tumble": 4][sheetBack] ?? 1
            tokens.append("DM\(code)")
        }
        let finishingCodes = finishings.compactMap { IPPEnumNames.value(attribute: "finishings", keyword: $0) }
            .filter { $0 != 3 }
        if !finishingCodes.isEmpty { tokens.append("FN" + joined(finishingCodes)) }
        let sourceCodes = mediaSources.compactMap { Self.urfSourceCode($0) }
        if !sourceCodes.isEmpty { tokens.append("IS" + joined(sourceCodes)) }
        let typeCodes = mediaTypes.compactMap { Self.urfTypeCodes[$0] }
        if !typeCodes.isEmpty { tokens.append("MT" + joined(typeCodes)) }
        let qualityCodes = printQualities.compactMap { IPPEnumNames.value(attribute: "print-quality", keyword: $0) }
        tokens.append("PQ" + joined(qualityCodes))
        tokens.append("RS" + joined(resolutions))
        if color { tokens.append("SRGB24") }
        tokens.append("W8")
        return tokens
    }

    /// AirPrint input slot codes (digest section 5).
    static func urfSourceCode(_ source: String) -> Int? {
        let named = [
            "auto", "main", "alternate", "large-capacity", "manual", "envelope", "disc", "photo", "hagaki", "main-roll",
            "alternate-roll", "top", "middle", "bottom", "side", "left", "right", "center", "rear", "by-pass-tray",
        ]
        if let index = named.firstIndex(of: source) { return index }
        if source.hasPrefix("tray-"), let n = Int(source.dropFirst(5)), (1...20).contains(n) { return 19 + n }
        if source.hasPrefix("roll-"), let n = Int(source.dropFirst(5)), (1...10).contains(n) { return 39 + n }
        return nil
    }

    /// AirPrint media type codes (digest section 5).
    static let urfTypeCodes: [String: Int] = [
        "auto": 0, "stationery": 1, "transparency": 2, "envelope": 3, "cardstock": 4, "labels": 5,
        "stationery-letterhead": 6, "disc": 7, "photographic-matte": 8, "photographic-satin": 9,
        "photographic-semi-gloss": 10, "photographic-glossy": 11, "photographic-high-gloss": 12, "other": 13,
    ]

    /// `printer-device-id` (IEEE 1284 device ID as PWG 5107.2 uses it): `MFG:make;MDL:model;CMD:PWG,URF,PDF,JPEG;`
    /// and `SN:serial;` when the profile has a serial number (pyipp, its fork aioipp and Home Assistant read it).
    /// CMD lists the command sets of the document formats in the order PWG, URF, PCLM, PDF, JPEG, PNG, POSTSCRIPT,
    /// PCL; a printer whose formats have none of them says what it takes anyway with its first format's subtype.
    public var deviceID: String {
        let commandSets: [(format: String, command: String)] = [
            ("image/pwg-raster", "PWG"), ("image/urf", "URF"), (Self.pclmFormat, "PCLM"), ("application/pdf", "PDF"),
            ("image/jpeg", "JPEG"), ("image/png", "PNG"), ("application/postscript", "POSTSCRIPT"),
            ("application/vnd.hp-pcl", "PCL"),
        ]
        var commands = commandSets.filter { supports($0.format) }.map(\.command)
        if commands.isEmpty, let first = documentFormats.first, let subtype = first.split(separator: "/").last {
            commands = [subtype.uppercased()]
        }
        let serial = serialNumber.map { "SN:\($0);" } ?? ""
        return "MFG:\(make);MDL:\(model);CMD:\(commands.joined(separator: ","));\(serial)"
    }

    /// printer-supply (+ -description), marker-* (CUPS) and printer-output-tray (PWG 5100.13).
    func deviceAttributes() -> [IPPAttribute] {
        [
            IPPAttribute(
                name: "printer-supply",
                values: supplies.enumerated().map { .octetString(Array(supplyValue($1, index: $0 + 1).utf8)) }),
            IPPAttribute(name: "printer-supply-description", values: supplies.map { .text($0.description) }),
            IPPAttribute(name: "marker-names", values: supplies.map { .name($0.description) }),
            IPPAttribute(name: "marker-colors", values: supplies.map { .name(Self.markerColor($0.color)) }),
            integers("marker-levels", supplies.map(\.level)),
            integers("marker-low-levels", supplies.map(\.lowLevel)),
            integers("marker-high-levels", supplies.map(\.highLevel)),
            keywords("marker-types", supplies.map { Self.kebabCase($0.type) }),
            IPPAttribute(
                name: "printer-output-tray", values: outputBins.map { .octetString(Array(outputTray($0).utf8)) }),
        ]
    }

    /// A printer-supply value (PWG 5100.13 section 6.5.x), e.g.
    /// `index=1;class=supplyThatIsConsumed;type=toner;unit=percent;maxcapacity=100;level=75;colorantname=black;`.
    func supplyValue(_ supply: ProfileSupply, index: Int) -> String {
        "index=\(index);class=\(supply.supplyClass);type=\(supply.type);unit=percent;maxcapacity=100;"
            + "level=\(supply.level);colorantname=\(supply.color);"
    }

    /// A printer-output-tray value (PWG 5100.13 section 6.5.x, RFC 3805 prtOutputTable).
    func outputTray(_ bin: String) -> String {
        let faceUp = bin == "face-up"
        return "type=unRemovableBin;maxcapacity=150;remaining=150;status=0;name=\(bin);"
            + "stackingorder=\(faceUp ? "lastToFirst" : "firstToLast");pagedelivery=\(faceUp ? "faceUp" : "faceDown");"
    }

    /// CUPS marker-colors: `#RRGGBB` for the colorants it knows, else none.
    static func markerColor(_ colorant: String) -> String {
        let colors = [
            "black": "#000000", "cyan": "#00FFFF", "magenta": "#FF00FF", "yellow": "#FFFF00", "gray": "#808080",
            "light-cyan": "#80FFFF", "light-magenta": "#FF80FF", "red": "#FF0000", "green": "#00FF00",
            "blue": "#0000FF",
        ]
        return colors[colorant] ?? "none"
    }

    /// RFC 3805 type names as CUPS marker-types keywords: inkCartridge -> ink-cartridge.
    static func kebabCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("-") }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    private func joined<T: BinaryInteger>(_ codes: [T]) -> String {
        codes.map { String($0) }.joined(separator: "-")
    }
}
