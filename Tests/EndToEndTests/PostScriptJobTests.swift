import Foundation
import IPP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// PostScript jobs on the enterprise-laser profile, through the built printer and its render worker: the printed
/// side matches Ghostscript's own png16m render, and programs that never end cost their job, not the printer.
@Suite(.timeLimit(.minutes(1))) struct PostScriptJobTests {
    /// A letter page of text and shapes, all inside the 1/6 inch margins of enterprise-laser.
    static let page = """
        %!PS
        << /PageSize [612 792] >> setpagedevice
        /Helvetica findfont 13 scalefont setfont
        1 1 36 { /i exch def 54 740 i 18 mul sub moveto (Line ) show i 3 string cvs show
          ( the quick brown fox jumps over the lazy dog, 0123456789) show } for
        0.3 setgray 380 70 160 110 rectfill 0 setgray 6 setlinewidth 60 90 moveto 320 160 lineto stroke
        showpage
        """

    static func options(_ output: String, _ extra: [String] = []) -> [String] {
        ["--port", "0", "--listen", "127.0.0.1", "--no-dnssd", "--output-dir", output, "--profile", "enterprise-laser"]
            + extra
    }

    func printPostScript(_ client: IPPClient, _ uri: String, _ program: String, name: String) throws -> Int {
        let response = try client.send(
            ippRequest(
                .printJob, uri: uri,
                [
                    IPPAttribute("job-name", .name(name)),
                    IPPAttribute("document-format", .mimeMediaType("application/postscript")),
                ]), data: Array(program.utf8))
        #expect(response.status == .successfulOK)
        return try #require(response.jobID)
    }

    /// An image as 8-bit gray samples, read by ImageMagick.
    static func gray(_ path: String, width: Int, height: Int) throws -> [UInt8] {
        let data = try ChildProcess.run(
            "/usr/bin/convert", [path, "-colorspace", "Gray", "-depth", "8", "gray:-"]
        ).output
        #expect(data.count == width * height, "\(path) is \(width)x\(height)")
        return Array(data)
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for (x, y) in zip(a, b) { sum += Double((Int(x) - Int(y)) * (Int(x) - Int(y))) }
        let mse = sum / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test func aPostScriptJobMatchesGhostscriptsOwnRender() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
        defer { _ = printer.terminate() }
        let client = try IPPClient(uri: uris[0])
        let id = try printPostScript(client, uris[0], Self.page, name: "page.ps")
        #expect(try client.waitForEnd(uris[0], jobID: id) == 9)
        let record = try PrintingTests.record(output, id)
        let impressions = try #require(record["impressions"] as? [[String: Any]])
        let first = try #require(impressions.first)
        let dpi = try #require(first["dpi"] as? Int)
        let (width, height) = (try #require(first["width"] as? Int), try #require(first["height"] as? Int))
        #expect(width == 612 * dpi / 72 && height == 792 * dpi / 72)
        let documents = try #require(record["documents"] as? [[String: Any]])
        #expect(documents.first?["document-format-detected"] as? String == "application/postscript")
        let source = scratch.path + "/page.ps"
        try Self.page.write(toFile: source, atomically: true, encoding: .utf8)
        let reference = scratch.path + "/reference.png"
        let gs = try ChildProcess.run(
            "/usr/bin/gs",
            ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r\(dpi)", "-o", reference, source])
        #expect(gs.status == 0, "gs: \(gs.errorOutput)")
        let ours = try Self.gray("\(output)/jobs/\(id)/page-0001.png", width: width, height: height)
        let theirs = try Self.gray(reference, width: width, height: height)
        let psnr = Self.psnr(ours, theirs)
        print("enterprise-laser PostScript job at \(dpi) dpi: PSNR \(psnr) dB against gs png16m")
        #expect(psnr >= 28, "PSNR \(psnr) dB")
        #expect(Self.psnr([UInt8](repeating: 255, count: theirs.count), theirs) < 28)
    }

    @Test func programsThatNeverEndAreAbortedAndThePrinterGoesOn() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(
            Self.options(output, ["--render-timeout", "8"]), scratch: scratch)
        defer { _ = printer.terminate() }
        let client = try IPPClient(uri: uris[0])
        let runaway = [
            ("loop.ps", "%!PS\n{ 1 pop } loop\n", "run time"),
            // Whichever limit it meets first (1 GiB of interpreter memory, or the run time on a slow machine).
            ("allocate.ps", "%!PS\n/a [] def\n{ /a [ a 10000000 string ] def } loop\n", "memory|run time"),
            ("limit.ps", "%!PS\n100000000 string pop showpage\n", "too complex"),
        ]
        for (name, program, limit) in runaway {
            let started = Date()
            let id = try printPostScript(client, uris[0], program, name: name)
            #expect(try client.waitForEnd(uris[0], jobID: id) == 8, "\(name) ends aborted")
            #expect(Date().timeIntervalSince(started) < 30)
            let record = try PrintingTests.record(output, id)
            #expect(record["job-state-reasons"] as? [String] == ["document-unprintable-error"], "\(name)")
            let message = record["job-state-message"] as? String ?? ""
            let named = limit.split(separator: "|").contains { message.contains($0) } || message.contains("longer than")
            #expect(named, "\(name): \(message)")
            #expect(!Self.ghostscriptRuns(documentIn: "\(output)/jobs/\(id)"), "no Ghostscript left for \(name)")
        }
        // Unhurt: the printer answers and prints the next job.
        let next = try printPostScript(client, uris[0], Self.page, name: "after.ps")
        #expect(try client.waitForEnd(uris[0], jobID: next) == 9)
        #expect(printer.process.exitStatus(waitingUpTo: 0) == nil, "the printer still runs")
    }

    @Test func aKilledPrinterLeavesNoGhostscriptRunning() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(
            Self.options(output, ["--render-timeout", "50"]), scratch: scratch)
        defer { _ = printer.terminate() }
        let id = try printPostScript(try IPPClient(uri: uris[0]), uris[0], "%!PS\n{ 1 pop } loop\n", name: "loop.ps")
        let folder = "\(output)/jobs/\(id)"
        var deadline = Date().addingTimeInterval(20)
        while !Self.ghostscriptRuns(documentIn: folder), Date() < deadline { usleep(50_000) }
        #expect(Self.ghostscriptRuns(documentIn: folder), "Ghostscript started")
        printer.process.send(SIGKILL)
        _ = printer.process.exitStatus(waitingUpTo: 10)
        // The worker sees its printer gone (ParentWatch) and ends its process group, Ghostscript with it.
        deadline = Date().addingTimeInterval(10)
        while Self.ghostscriptRuns(documentIn: folder), Date() < deadline { usleep(50_000) }
        #expect(!Self.ghostscriptRuns(documentIn: folder), "no Ghostscript left once the printer is killed")
    }

    /// True while a process runs whose command line names a file in `folder`.
    static func ghostscriptRuns(documentIn folder: String) -> Bool {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes where Int(pid) != nil {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            if line.contains(folder) && line.contains("-sDEVICE=pwgraster") { return true }
        }
        return false
    }
}
