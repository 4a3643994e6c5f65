import PrintModel
import Testing

@testable import Scanner

/// The ScannerCapabilities and ScannerStatus documents, read back with the scanner's own reader.
@Suite struct ESCLDocumentTests {
    @Test func capabilitiesListEachSourceWithItsSettings() throws {
        let xml = ScanSettingsTests.scanner.xml(adminURI: "http://localhost:8631/")
        #expect(xml.contains("xmlns:scan=\"http://schemas.hp.com/imaging/escl/2011/05/03\""))
        #expect(xml.contains("xmlns:pwg=\"http://www.pwg.org/schemas/2010/12/sm\""))
        let root = try XMLReader.read(Array(xml.utf8))
        #expect(root.name == "ScannerCapabilities")
        #expect(root.value("MakeAndModel") == "vprinter Office MFP")
        let platen = try #require(root.child("Platen")?.child("PlatenInputCaps"))
        #expect(platen.value("MaxWidth") == "2480" && platen.value("MaxHeight") == "3508")
        let adf = try #require(root.child("Adf"))
        #expect(adf.child("AdfSimplexInputCaps") != nil && adf.child("AdfDuplexInputCaps") != nil)
        let profile = try #require(platen.descendant("SettingProfile"))
        #expect(profile.child("ColorModes")?.children.map(\.text) == ["BlackAndWhite1", "Grayscale8", "RGB24"])
        let resolutions = try #require(profile.descendant("DiscreteResolutions"))
        #expect(resolutions.children.compactMap { $0.value("XResolution") } == ["75", "150", "300", "600"])
        let formats = try #require(profile.child("DocumentFormats"))
        #expect(
            formats.children.filter { $0.name == "DocumentFormatExt" }.map(\.text)
                == ["image/jpeg", "image/png", "application/pdf"])
    }

    @Test func aScannerWithoutFeederListsNoAdf() throws {
        var flatbed = ScanSettingsTests.scanner
        flatbed.feeder = nil
        let root = try XMLReader.read(Array(flatbed.xml(adminURI: "http://x/").utf8))
        #expect(root.child("Adf") == nil && root.child("Platen") != nil)
    }

    @Test func statusListsJobsWithTheirAgeAndImages() throws {
        let settings = try ScanSettings.read(Array("<ScanSettings/>".utf8), for: ScanSettingsTests.scanner)
        var job = ScanJob(
            number: 3, uuid: "u-3", settings: settings, created: "2026-12-03T10:00:00Z", createdSeconds: 1000,
            imagesPlanned: 1, client: "127.0.0.1")
        job.state = .completed
        job.reason = "JobCompletedSuccessfully"
        let status = ScannerStatus(state: .idle, feederState: "ScannerAdfEmpty", jobs: [job])
        let root = try XMLReader.read(Array(status.xml(jobPath: { "/eSCL/ScanJobs/\($0.uuid)" }, now: 1012).utf8))
        #expect(root.value("State") == "Idle" && root.value("AdfState") == "ScannerAdfEmpty")
        let info = try #require(root.descendant("JobInfo"))
        #expect(info.value("JobUri") == "/eSCL/ScanJobs/u-3" && info.value("Age") == "12")
        #expect(info.value("JobState") == "Completed" && info.value("ImagesToTransfer") == "0")
        #expect(info.descendant("JobStateReason")?.text == "JobCompletedSuccessfully")
    }

    @Test func textIsEscaped() {
        #expect(ESCLXML.escaped("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }
}
