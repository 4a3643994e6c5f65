import Testing

@testable import DNSSD

@Suite struct PrinterTXTRecordTests {
    static let sample = PrinterTXTRecord(
        resourcePath: "/ipp/print", makeAndModel: "vprinter Color Inkjet", adminURL: "http://host.local:8631/",
        location: "Lab", product: "Color Inkjet",
        documentFormats: ["application/octet-stream", "application/pdf", "image/pwg-raster", "image/urf"],
        uuid: "urn:uuid:6c1e5b8e-0000-4000-8000-000000000001", color: true, duplex: true,
        maximumMediaWidth: 21590, urfSupported: ["V1.4", "CP1", "W8", "SRGB24"])

    @Test func keysComeInBonjourOrderWithTxtversFirst() {
        let keys = Self.sample.entries.map(\.key)
        #expect(
            keys == [
                "txtvers", "qtotal", "rp", "ty", "adminurl", "note", "priority", "product", "pdl", "UUID", "Color",
                "Duplex", "Copies", "kind", "PaperMax", "URF", "air", "print_wfds",
            ])
    }

    @Test func valuesAreDerivedFromTheAttributes() {
        let values = Dictionary(uniqueKeysWithValues: Self.sample.entries.map { ($0.key, $0.value) })
        #expect(values["txtvers"] == "1")
        #expect(values["rp"] == "ipp/print")
        #expect(values["product"] == "(Color Inkjet)")
        #expect(values["pdl"] == "application/pdf,image/pwg-raster,image/urf")
        #expect(values["UUID"] == "6c1e5b8e-0000-4000-8000-000000000001")
        #expect(values["Color"] == "T")
        #expect(values["Copies"] == "T")
        #expect(values["PaperMax"] == "legal-A4")
        #expect(values["URF"] == "V1.4,CP1,W8,SRGB24")
        #expect(values["air"] == "none")
        #expect(values["print_wfds"] == "T")
    }

    @Test func tlsAndMopriaKeysAppearOnlyWhenGiven() {
        var record = Self.sample
        #expect(!record.entries.contains { $0.key == "TLS" || $0.key == "mopria-certified" })
        record.tlsVersion = "1.2"
        record.mopriaCertified = "1.3"
        let keys = record.entries.map(\.key)
        #expect(keys.firstIndex(of: "TLS") == keys.firstIndex(of: "UUID").map { $0 + 1 })
        #expect(keys.firstIndex(of: "mopria-certified") == keys.firstIndex(of: "print_wfds").map { $0 - 1 })
    }

    @Test func emptyURFListIsAdvertisedAsNone() {
        var record = Self.sample
        record.urfSupported = []
        #expect(record.entries.first { $0.key == "URF" }?.value == "none")
    }

    @Test func authenticationIsListedInAir() {
        var record = Self.sample
        record.authentication = ["username", "password"]
        #expect(record.entries.first { $0.key == "air" }?.value == "username,password")
    }

    @Test(arguments: [
        (20999, "<legal-A4"), (21000, "legal-A4"), (29699, "legal-A4"), (29700, "tabloid-A3"),
        (41999, "tabloid-A3"), (42000, "isoC-A2"), (59399, "isoC-A2"), (59400, ">isoC-A2"),
    ])
    func paperMaxChangesClassAtEachBoundary(width: Int, expected: String) {
        #expect(PrinterTXTRecord.paperMax(forWidth: width) == expected)
    }

    @Test func overridesReplaceInPlaceRemoveAndAppendButNeverTouchTxtvers() {
        var record = Self.sample
        record.overrides = [("ty", "Custom"), ("note", nil), ("Fax", "F"), ("TXTVERS", "9"), ("gone", nil)]
        let entries = record.entries
        #expect(entries.first?.key == "txtvers" && entries.first?.value == "1")
        #expect(entries.firstIndex { $0.key == "ty" } == 3)
        #expect(entries.first { $0.key == "ty" }?.value == "Custom")
        #expect(!entries.contains { $0.key == "note" })
        #expect(entries.last?.key == "Fax")
    }

    @Test func priorityIsClampedToTheBonjourRange() {
        var record = Self.sample
        record.priority = 150
        #expect(record.entries.first { $0.key == "priority" }?.value == "99")
        record.priority = -3
        #expect(record.entries.first { $0.key == "priority" }?.value == "0")
    }

    @Test func printerRegistrationAdvertisesTheFourServiceTypes() {
        let txt = Self.sample.entries
        let plain = DNSSDRegistration.printer(name: "P", port: 8631, txt: txt)
        #expect(plain.services.map(\.type) == ["_ipp._tcp", "_printer._tcp", "_http._tcp"])
        let secure = DNSSDRegistration.printer(name: "P", port: 8631, txt: txt, tls: true)
        #expect(secure.services.map(\.type) == ["_ipp._tcp", "_ipps._tcp", "_printer._tcp", "_http._tcp"])
        #expect(secure.services[0].subtypes == ["_print", "_universal"])
        #expect(secure.services[2].port == 0 && secure.services[2].txt.isEmpty)
        #expect(secure.services[3].subtypes == ["_printer"])
        #expect(throws: Never.self) { try secure.validate() }
    }

    @Test func aScannerIsAdvertisedBesideThePrinterOrAlone() {
        let txt = Self.sample.entries
        let scanner = [(key: "rs", value: "ipp/print/eSCL"), (key: "vers", value: "2.63")]
        let mfp = DNSSDRegistration.printer(name: "P", port: 8631, txt: txt, tls: true, scanner: scanner)
        #expect(
            mfp.services.map(\.type) == [
                "_ipp._tcp", "_ipps._tcp", "_uscan._tcp", "_uscans._tcp", "_printer._tcp", "_http._tcp",
            ])
        #expect(mfp.services[2].txt.map(\.key) == ["rs", "vers"] && mfp.services[2].port == 8631)
        let alone = DNSSDRegistration.printer(name: "S", port: 8631, txt: txt, scanner: scanner, prints: false)
        #expect(alone.services.map(\.type) == ["_uscan._tcp", "_http._tcp"], "no IPP, no LPD placeholder")
        #expect(throws: Never.self) { try alone.validate() }
    }

    /// Each IPP service carries the TXT record of its own scheme: `adminurl` is the printer-more-info a client
    /// connected through that service gets (http on `_ipp._tcp`, https on `_ipps._tcp`), which the PWG
    /// self-certification's B-4 and B-5.5 compare (dnssd-value-tests.test).
    @Test func theSecureServicesCarryTheirOwnRecords() {
        let plain = [(key: "adminurl", value: "http://printer.local:8631/")]
        let secure = [(key: "adminurl", value: "https://printer.local:8631/")]
        let registration = DNSSDRegistration.printer(
            name: "P", port: 8631, txt: plain, secureTXT: secure, tls: true, scanner: plain, secureScanner: secure)
        let records = Dictionary(uniqueKeysWithValues: registration.services.map { ($0.type, $0.txt.map(\.value)) })
        #expect(records["_ipp._tcp"] == ["http://printer.local:8631/"])
        #expect(records["_ipps._tcp"] == ["https://printer.local:8631/"])
        #expect(records["_uscan._tcp"] == ["http://printer.local:8631/"])
        #expect(records["_uscans._tcp"] == ["https://printer.local:8631/"])
        // Without a record of its own, the secure service carries the plain one, as before.
        let shared = DNSSDRegistration.printer(name: "P", port: 8631, txt: plain, tls: true)
        #expect(shared.services.first { $0.type == "_ipps._tcp" }?.txt.map(\.value) == ["http://printer.local:8631/"])
    }
}
