import PrintModel
import Testing

@testable import Scanner

/// ScanSettings bodies as eSCL clients send them, read against an office scanner's capabilities.
@Suite struct ScanSettingsTests {
    /// A4 glass (2480 x 3508 three-hundredths of an inch) and a duplex feeder of legal size.
    static let scanner = ScannerCapabilities(
        makeAndModel: "vprinter Office MFP", serialNumber: "VP-1", uuid: "9b2d8f4a-0000-4000-8000-000000000001",
        platen: .init(width: 2480, height: 3508), feeder: .init(width: 2550, height: 4200), duplex: true,
        feederCapacity: 50, resolutions: [300, 75, 150, 600], colorModes: [.blackAndWhite1, .grayscale8, .rgb24],
        formats: [.jpeg, .png, .pdf])

    /// The body sane-airscan sends (airscan-escl.c, escl_scan_query): pwg and scan prefixes, a region in
    /// three-hundredths of an inch, the input source in the pwg namespace.
    static func body(
        source: String = "Platen", duplex: Bool? = nil, mode: String = "RGB24", dpi: Int = 300,
        format: String = "image/jpeg", region: (Int, Int, Int, Int)? = (0, 0, 2480, 3508)
    ) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" \
            xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">
              <pwg:Version>2.0</pwg:Version>
              <scan:Intent>Document</scan:Intent>

            """
        if let (x, y, w, h) = region {
            xml += """
                  <pwg:ScanRegions><pwg:ScanRegion>
                    <pwg:ContentRegionUnits>escl:ThreeHundredthsOfInches</pwg:ContentRegionUnits>
                    <pwg:XOffset>\(x)</pwg:XOffset><pwg:YOffset>\(y)</pwg:YOffset>
                    <pwg:Width>\(w)</pwg:Width><pwg:Height>\(h)</pwg:Height>
                  </pwg:ScanRegion></pwg:ScanRegions>

                """
        }
        xml += """
              <pwg:InputSource>\(source)</pwg:InputSource>
              <scan:ColorMode>\(mode)</scan:ColorMode>
              <scan:XResolution>\(dpi)</scan:XResolution><scan:YResolution>\(dpi)</scan:YResolution>
              <pwg:DocumentFormat>\(format)</pwg:DocumentFormat>
              <scan:DocumentFormatExt>\(format)</scan:DocumentFormatExt>

            """
        if let duplex { xml += "  <scan:Duplex>\(duplex)</scan:Duplex>\n" }
        return Array((xml + "</scan:ScanSettings>\n").utf8)
    }

    @Test func aClientsBodyIsReadWithEverySetting() throws {
        let settings = try ScanSettings.read(
            Self.body(
                source: "Feeder", duplex: true, mode: "Grayscale8", dpi: 150, format: "image/png",
                region: (30, 60, 2400, 3300)),
            for: Self.scanner)
        #expect(settings.source == .feeder && settings.duplex)
        #expect(settings.colorMode == .grayscale8 && settings.resolution == 150 && settings.format == .png)
        #expect(settings.region == ScanPage.Region(x: 30, y: 60, width: 2400, height: 3300))
        #expect(settings.intent == "Document")
    }

    @Test func whatTheClientAskedIsKeptAsItSaidIt() throws {
        let asked = try #require(
            ScanSettings.Asked.read(
                Self.body(source: "Adf", mode: "grayscale8", dpi: 150, format: "image/png", region: (30, 60, 9999, 50)))
        )
        #expect(asked.inputSource == "Adf" && asked.colorMode == "grayscale8" && asked.duplex == nil)
        #expect(asked.xResolution == "150" && asked.yResolution == "150" && asked.intent == "Document")
        #expect(asked.documentFormat == "image/png" && asked.documentFormatExt == "image/png")
        #expect(
            asked.region
                == .init(
                    xOffset: "30", yOffset: "60", width: "9999", height: "50", units: "escl:ThreeHundredthsOfInches"))
        let bare = try #require(ScanSettings.Asked.read(Array("<ScanSettings/>".utf8)))
        #expect(bare == ScanSettings.Asked(), "nothing asked: every setting nil")
        #expect(ScanSettings.Asked.read(Array("<Other/>".utf8)) == nil)
        #expect(ScanSettings.Asked.read(Array("<ScanSettings>".utf8)) == nil)
    }

    @Test func whatTheBodyLeavesOutTakesTheScannersDefaults() throws {
        let minimal = Array(
            "<scan:ScanSettings xmlns:scan=\"http://schemas.hp.com/imaging/escl/2011/05/03\"/>".utf8)
        let settings = try ScanSettings.read(minimal, for: Self.scanner)
        #expect(settings.source == .platen && !settings.duplex)
        #expect(settings.colorMode == .rgb24 && settings.resolution == 300 && settings.format == .jpeg)
        #expect(settings.region == ScanPage.Region(x: 0, y: 0, width: 2480, height: 3508))
    }

    @Test func aRegionBeyondTheGlassIsCutToIt() throws {
        let settings = try ScanSettings.read(Self.body(region: (100, 200, 5000, 5000)), for: Self.scanner)
        #expect(settings.region == ScanPage.Region(x: 100, y: 200, width: 2380, height: 3308))
    }

    @Test(arguments: [
        (body(dpi: 1200), "Resolution 1200 is not offered"),
        (body(mode: "RGB48"), "ColorMode RGB48 is not offered"),
        (body(format: "image/tiff"), "DocumentFormat image/tiff is not offered"),
        (body(source: "Camera"), "InputSource Camera is not offered"),
        (body(source: "Platen", duplex: true), "Duplex is offered only from a duplex feeder"),
        (body(region: (0, 0, 10, 10)), "smaller than 16"),
        (Array("<ScanSettings><a></b></ScanSettings>".utf8), "not XML"),
        (Array("<Job/>".utf8), "not <ScanSettings>"),
    ])
    func valuesTheScannerDoesNotOfferAreRefusedWithWhy(body: [UInt8], reason: String) {
        #expect {
            _ = try ScanSettings.read(body, for: Self.scanner)
        } throws: { error in
            (error as? ScanSettingsError)?.message.contains(reason) == true
        }
    }

    @Test func aScannerWithoutGlassScansFromItsFeederByDefault() throws {
        var sheetFed = Self.scanner
        sheetFed.platen = nil
        let settings = try ScanSettings.read(Array("<ScanSettings/>".utf8), for: sheetFed)
        #expect(settings.source == .feeder)
        #expect(throws: ScanSettingsError.self) { try ScanSettings.read(Self.body(source: "Platen"), for: sheetFed) }
    }
}
