import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// The attributes and advertisement that clients beyond IPP Everywhere read (docs/clients.md), derived from any
/// profile: every shipped one, and profiles that leave formats out.
@Suite struct ClientAttributeTests {
    static let shipped = ["color-inkjet", "duplex-laser", "mopria-pclm"]

    /// The shipped profile's JSON with `documentFormats` replaced, decoded.
    func profile(_ name: String, formats: [String]) throws -> PrinterProfile {
        var object = try shippedProfileJSON(name)
        object["documentFormats"] = formats
        object.removeValue(forKey: "documentFormatDefault")
        let data = try JSONSerialization.data(withJSONObject: object)
        return try PrinterProfile.decode(data, file: "test.json")
    }

    func derived(_ profile: PrinterProfile) -> [IPPAttribute] {
        profile.printerAttributes(context: ProfileAttributeContext(printerName: "test"))
    }

    @Test(arguments: shipped)
    func everyShippedProfileHasWhatWindowsAndMopriaAsk(name: String) throws {
        let attributes = derived(try shippedProfile(name))
        let formats = attributes["document-format-supported"]?.values.compactMap(\.stringValue) ?? []
        #expect(formats.contains(attributes["document-format-preferred"]?.value?.stringValue ?? "none"))
        #expect(attributes["mopria-certified"]?.value == .text(PrinterProfile.mopriaVersion))
        let deviceID = attributes["printer-device-id"]?.value?.stringValue ?? ""
        #expect(deviceID.hasPrefix("MFG:") && deviceID.contains(";MDL:") && deviceID.contains(";CMD:"))
        #expect(deviceID.hasSuffix(";"))
        #expect(attributes["printer-firmware-name"] != nil && attributes["printer-firmware-string-version"] != nil)
        let sources = attributes["media-source-supported"]?.values.compactMap(\.stringValue) ?? []
        #expect(!sources.contains { $0.allSatisfy(\.isNumber) })
        for entry in attributes["media-col-ready"]?.values ?? [] {
            #expect(entry.collectionValue?.contains { $0.name == "media-source" } == true)
        }
    }

    @Test func aPCLmProfileGetsThePCLmAttributesFromItsResolutions() throws {
        let attributes = derived(try shippedProfile("mopria-pclm"))
        #expect(attributes["document-format-preferred"]?.value == .mimeMediaType("application/PCLm"))
        #expect(
            attributes["pclm-source-resolution-supported"]?.values == [
                .resolution(IPPResolution(crossFeed: 300, feed: 300)),
                .resolution(IPPResolution(crossFeed: 600, feed: 600)),
            ])
        #expect(attributes["pclm-strip-height-preferred"]?.value == .integer(16))
        #expect(attributes["pclm-raster-back-side"]?.value == .keyword("rotated"))
        #expect(attributes["pclm-compression-method-preferred"]?.values.first == .keyword("flate"))
        #expect(attributes["epcl-version-supported"]?.value == .keyword("1.0"))
        #expect(attributes["urf-supported"] == nil)
        #expect(
            try shippedProfile("mopria-pclm").deviceID == "MFG:vprinter;MDL:Mopria PCLm;CMD:PWG,PCLM,JPEG;SN:VPMP00001;"
        )
        #expect(derived(try shippedProfile("duplex-laser"))["pclm-strip-height-preferred"] == nil)
    }

    @Test func pclmIsSpelledAsAndroidComparesIt() throws {
        let attributes = derived(try profile("duplex-laser", formats: ["application/pclm", "image/pwg-raster"]))
        #expect(attributes["document-format-supported"]?.values.first == .mimeMediaType("application/PCLm"))
        #expect(attributes["pclm-source-resolution-default"] != nil)
    }

    @Test func aProfileWithoutAMopriaFormatClaimsNoMopriaAndNoIPPEverywhere() throws {
        let attributes = derived(try profile("duplex-laser", formats: ["image/urf", "image/jpeg"]))
        #expect(attributes["mopria-certified"] == nil)
        #expect(attributes["ipp-features-supported"]?.values == [.keyword("none")])
        #expect(attributes["document-format-preferred"]?.value == .mimeMediaType("image/urf"))
        #expect(attributes["urf-supported"] != nil)
        let withPWG = derived(try profile("duplex-laser", formats: ["image/pwg-raster"]))
        #expect(withPWG["ipp-features-supported"]?.values == [.keyword("ipp-everywhere")])
        #expect(withPWG["urf-supported"] == nil)
    }

    @Test func aSerialNumberGoesIntoTheDeviceIDAndMustNotBreakIt() throws {
        var object = try shippedProfileJSON("duplex-laser")
        object["serialNumber"] = "SN1234"
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(try PrinterProfile.decode(data, file: "t.json").deviceID.hasSuffix(";CMD:PWG,URF,PDF,JPEG;SN:SN1234;"))
        object["serialNumber"] = "A;B"
        #expect(profileError(object)?.description.contains("serialNumber") == true)
    }

    @Test func subtypesFollowTheFormats() {
        func advertisement(_ formats: [String]) -> PrinterAdvertisement {
            PrinterAdvertisement(
                name: "p", resourcePath: "ipp/print", makeAndModel: "m", location: "", product: "m",
                documentFormats: formats, uuid: "urn:uuid:x", color: false, duplex: false, copies: true,
                kinds: ["document"], maximumMediaWidth: 21590, urfSupported: [], mopriaCertified: nil)
        }
        #expect(
            advertisement(["application/pdf", "image/pwg-raster", "image/urf"]).subtypes == ["_print", "_universal"])
        #expect(advertisement(["application/PCLm", "image/pwg-raster"]).subtypes == ["_print"])
        #expect(advertisement(["image/urf", "image/jpeg"]).subtypes == ["_universal"])
        #expect(advertisement(["application/pdf"]).subtypes == [])
    }
}
