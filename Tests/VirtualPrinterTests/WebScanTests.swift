import Foundation
import HTTPServer
import PrintModel
import Scanner
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles

/// The web page's scans and the front panel's scanner card, rendered by the service for an office-mfp printer
/// whose scan jobs are made by a stand-in for the render worker, beside a duplex-laser that has no scanner.
@Suite struct WebScanTests {
    /// A renderer that prints nothing and makes scanned images as ``ScannerDeviceTests/StandInImaging`` does, so
    /// that the printer gets its scanner.
    final class ScanningRenderer: JobRenderer, ScanImaging {
        let imaging = ScannerDeviceTests.StandInImaging()

        func render(
            _ job: RenderJob, password: String?, onImpression: @Sendable (PrintedSide) -> Void,
            onWarning: @Sendable (JobWarning) -> Void, isCanceled: @escaping @Sendable () -> Bool
        ) -> RenderOutcome {
            .completed(pages: job.documents.map { _ in 0 })
        }

        func scan(_ page: ScanPage) -> Result<ScannedImage, ScanImagingError> { imaging.scan(page) }
    }

    /// A client address with every character HTML escapes.
    static let hostileClient = "<img src=x onerror=\"alert('x')\">&"

    let folder: TemporaryFolder
    let mfp: Printer
    let laser: Printer

    init() throws {
        folder = try TemporaryFolder()
        mfp = try Self.printer(profile: "office-mfp", name: "mfp", folder: folder, renderer: ScanningRenderer())
        laser = try Self.printer(profile: "duplex-laser", name: "laser", folder: folder, renderer: nil)
    }

    static func printer(profile: String, name: String, folder: TemporaryFolder, renderer: (any JobRenderer)?)
        throws -> Printer
    {
        let output = "\(folder.path)/\(name)"
        return Printer.build(
            profile: try shippedProfile(profile), name: name, resourcePath: "/ipp/print/\(name)", id: 1,
            outputDirectory: output, jobIDs: JobIDAllocator(outputDirectory: output), scheduler: testScheduler,
            renderer: renderer)
    }

    func settings(_ source: String, duplex: Bool = false, format: String = "image/jpeg") -> [UInt8] {
        Array(
            """
            <scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" \
            xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>\(source)</pwg:InputSource>\
            <scan:Duplex>\(duplex)</scan:Duplex><scan:XResolution>150</scan:XResolution>\
            <scan:YResolution>150</scan:YResolution><pwg:DocumentFormat>\(format)</pwg:DocumentFormat>\
            </scan:ScanSettings>
            """.utf8)
    }

    /// Scans until the job ends (or `images` images were delivered); returns the job as it is then.
    @discardableResult
    func scan(_ body: [UInt8], client: String?, now: Double, images: Int = .max) throws -> ScanJob {
        let scanner = try #require(mfp.scanner)
        let job = try scanner.createJob(settingsBody: body, client: client, now: now).get()
        var delivered = 0
        while delivered < images, case .success = scanner.nextImage(job: job.uuid) { delivered += 1 }
        return try #require(scanner.job(uuid: job.uuid))
    }

    func page(_ printers: [Printer], _ path: String) -> String {
        let service = PrinterService(printers: printers)
        let request = HTTPRequest(
            method: "GET", target: path, path: path, headers: [:], host: "localhost", localPort: 631, contentLength: 0)
        var body = HTTPRequestBody(bytes: [])
        let response = service.handle(request, body: &body)
        guard response.status == 200, case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theHomePageAndThePanelListScanJobsNewestFirstWithTheirImages() throws {
        let platen = try scan(settings("Platen"), client: "192.0.2.7", now: 1000)
        mfp.scanner?.loadFeeder(sheets: 2)
        let feeder = try scan(settings("Feeder", duplex: true, format: "image/png"), client: "192.0.2.8", now: 2000)
        let pdf = try scan(settings("Platen", format: "application/pdf"), client: nil, now: 3000)
        #expect(feeder.images.count == 4 && feeder.state == .completed)
        for html in [page([mfp, laser], "/"), page([mfp, laser], "/printers/mfp")] {
            #expect(html.contains("<h2 id=\"scans-title\">Scans</h2>"))
            let rows = ["scan-mfp-\(pdf.number)", "scan-mfp-\(feeder.number)", "scan-mfp-\(platen.number)"]
            let places = rows.compactMap { html.range(of: "id=\"\($0)\"")?.lowerBound }
            #expect(places.count == 3 && places == places.sorted(), "the three rows, newest first")
            #expect(html.contains("<td>Feeder, duplex</td><td>150 dpi</td><td>RGB24</td><td>image/png</td>"))
            #expect(html.contains("<td class=\"scan-images\">4 of 4</td>"))
            #expect(html.contains("<td class=\"scan-client\">192.0.2.8</td>"))
            let png = "/api/v1/scans/\(feeder.number)/files/image-0004.png"
            #expect(html.contains("<a href=\"\(png)\" class=\"scan-image\"><img src=\"\(png)\""))
            #expect(html.contains("image-0004.png <small>(sheet 2, back)</small>"))
            #expect(html.contains("loading=\"lazy\""))
            let pdfFile = "/api/v1/scans/\(pdf.number)/files/image-0001.pdf"
            #expect(html.contains("<a href=\"\(pdfFile)\" class=\"scan-image\"><span>"), "a PDF has no thumbnail")
            #expect(!html.contains("<img src=\"\(pdfFile)\""))
            #expect(html.contains("href=\"/api/v1/scans/\(platen.number)/files/scan.json\""))
        }
        #expect(page([mfp, laser], "/").contains("<td><a href=\"/printers/mfp\">mfp</a></td>"), "the printer column")
    }

    @Test func aJobThatDidNotCompleteSaysWhy() throws {
        mfp.scanner?.set(.feederJam, true)
        let jammed = try scan(settings("Feeder"), client: nil, now: 1000)
        #expect(jammed.state == .aborted)
        let html = page([mfp], "/printers/mfp")
        #expect(html.contains("<span class=\"badge state-aborted\">aborted</span>"))
        #expect(html.contains("<small class=\"scan-reason\">ScannerAdfJam</small>"))
        #expect(html.contains("<span class=\"scan-message\">\(HTML.escape(ScannerRefusal.jammed.message))</span>"))
        mfp.scanner?.set(.feederJam, false)
        let completed = try scan(settings("Platen"), client: nil, now: 2000)
        let completedRow = try #require(row(in: page([mfp], "/printers/mfp"), id: "scan-mfp-\(completed.number)"))
        #expect(!completedRow.contains("scan-reason"), "a completed job needs no reason")
    }

    @Test func aClientsAddressIsEscaped() throws {
        try scan(settings("Platen"), client: Self.hostileClient, now: 1000)
        for html in [page([mfp, laser], "/"), page([mfp], "/printers/mfp")] {
            #expect(!html.contains(Self.hostileClient) && !html.contains("<img src=x"))
            #expect(html.contains("&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;"))
        }
    }

    @Test func theScannerCardShowsItsStateFeederAndFaultsAsCalls() throws {
        let html = page([mfp], "/printers/mfp")
        #expect(html.contains("id=\"panel-scanner\""))
        #expect(html.contains("<dd id=\"scanner-state\"><span class=\"badge state-idle\">idle</span></dd>"))
        #expect(html.contains("<span id=\"scanner-feeder-sheets\">\(ScannerDevice.defaultFeederSheets) of 100 sheets"))
        #expect(html.contains("<form class=\"load\" data-call=\"POST /api/v1/printers/mfp/scanner\""))
        #expect(html.contains("name=\"feeder-sheets\" id=\"scanner-feeder-level\" min=\"0\" max=\"100\""))
        #expect(html.contains("href=\"/api/v1/printers/mfp/scanner\">scanner (JSON)</a>"))
        for fault in ScannerFault.allCases {
            let toggle = try #require(element(html, id: "scanner-\(fault.rawValue)-toggle"))
            #expect(toggle.contains("data-call=\"POST /api/v1/printers/mfp/scanner\""))
            #expect(toggle.contains("data-body=\"{&quot;faults&quot;: [&quot;\(fault.rawValue)&quot;]}\""))
        }
        #expect(element(html, id: "scanner-clear-faults")?.contains("disabled") == true)

        mfp.scanner?.set(.coverOpen, true)
        mfp.scanner?.set(.busy, true)
        let stopped = page([mfp], "/printers/mfp")
        #expect(stopped.contains("<dd id=\"scanner-state\"><span class=\"badge state-stopped\">stopped</span></dd>"))
        #expect(stopped.contains("<b id=\"scanner-cover-open-word\">open</b>"))
        let cover = try #require(element(stopped, id: "scanner-cover-open-toggle"))
        #expect(cover.contains(">Close the cover</button>"))
        #expect(cover.contains("data-body=\"{&quot;faults&quot;: [&quot;busy&quot;]}\""), "the others stay")
        let jam = try #require(element(stopped, id: "scanner-feeder-jam-toggle"))
        #expect(jam.contains("[&quot;busy&quot;, &quot;cover-open&quot;, &quot;feeder-jam&quot;]"))
        #expect(element(stopped, id: "scanner-clear-faults")?.contains("disabled") == false)
    }

    @Test func aPrinterWithoutAScannerShowsNoScansAndNoCard() {
        let panel = page([mfp, laser], "/printers/laser")
        #expect(panel.contains("<h1>Front panel: <span class=\"printer-name\">laser</span></h1>"))
        #expect(!panel.contains("panel-scanner") && !panel.contains("scans-title") && !panel.contains("/scanner"))
        let home = page([laser], "/")
        #expect(home.contains("id=\"jobs-title\"") && !home.contains("scans-title"))
        #expect(page([mfp, laser], "/").contains("scans-title"), "one scanning printer is enough")
    }

    /// The button with `id`, from its start tag to its end tag.
    func element(_ html: String, id: String) -> String? {
        guard let start = html.range(of: "<button type=\"button\" id=\"\(id)\"") else { return nil }
        guard let end = html.range(of: "</button>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The table row with `id`.
    func row(in page: String, id: String) -> String? {
        guard let start = page.range(of: "<tr class=\"scan\" id=\"\(id)\"") else { return nil }
        guard let end = page.range(of: "</tr>", range: start.upperBound..<page.endIndex) else { return nil }
        return String(page[start.lowerBound..<end.upperBound])
    }
}
