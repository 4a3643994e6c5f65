import Foundation
import PrintModel
import TestSupport
import Testing

/// The built `vprinter-render` executable speaks protocol 1 (docs/render-protocol.md): a JSON request on stdin,
/// one JSON line per impression and a final status line on stdout.
@Suite(.timeLimit(.minutes(1))) struct RenderWorkerTests {
    /// The worker built beside the test bundle.
    static func workerPath() throws -> String { try BuiltProduct.path("vprinter-render") }

    struct Result {
        var lines: [[String: Any]]
        var status: Int32
    }

    func run(_ request: String) throws -> Result {
        let result = try ChildProcess.run(try Self.workerPath(), [], input: Array(request.utf8))
        let data = Data(result.output)
        let status = result.status
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return Result(lines: lines, status: status)
    }

    @Test func rendersAJobAndReportsEveryImpressionThenTheCounts() throws {
        let folder = try TemporaryFolder()
        let pdf = try TestDocuments.pdf(in: folder, pages: 3)
        let request = """
            {"protocol": 1, "folder": "\(folder.path)", "documents": [{"path": "\(pdf)", "format": "application/pdf"}],
             "ticket": {"media-width": 21000, "media-height": 29700, "sides": "two-sided-long-edge", "copies": 2,
                        "print-color-mode": "monochrome", "dpi": 50}, "threads": 2}
            """
        let result = try run(request)
        #expect(result.status == 0)
        let impressions = result.lines.filter { $0["type"] as? String == "impression" }
        #expect(impressions.map { $0["file"] as? String } == ["page-0001.png", "page-0002.png", "page-0003.png"])
        #expect(impressions.map { $0["side"] as? String } == ["front", "back", "front"])
        #expect(impressions.first?["width"] as? Int == 413)
        #expect(impressions.first?["height"] as? Int == 585)
        #expect(impressions.first?["color"] as? Bool == false)
        let status = try #require(result.lines.last)
        #expect(status["status"] as? String == "ok")
        #expect(status["job-impressions"] as? Int == 6)
        #expect(status["job-media-sheets"] as? Int == 4)
        #expect(status["job-pages"] as? Int == 6)
        for number in 1...3 {
            #expect(FileManager.default.fileExists(atPath: folder.file(String(format: "page-%04d.png", number))))
        }
    }

    @Test func aServingWorkerAnswersEachRequestLineInTurnUntilItsInputEnds() throws {
        let folder = try TemporaryFolder()
        let pdf = try TestDocuments.pdf(in: folder, pages: 2)
        let first = try TemporaryFolder()
        let second = try TemporaryFolder()
        let request = { (output: TemporaryFolder) in
            #"{"protocol": 1, "folder": "\#(output.path)", "documents": [{"path": "\#(pdf)"}], "ticket": {"dpi": 20}}"#
        }
        let input = [request(first), "not a request", request(second)].joined(separator: "\n") + "\n"
        let result = try ChildProcess.run(try Self.workerPath(), ["--serve"], input: Array(input.utf8))
        #expect(result.status == 0)
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // Warning lines (a font substituted) may come between; the rest in this order.
        #expect(
            lines.compactMap { $0["type"] as? String }.filter { $0 != "warning" } == [
                "impression", "impression", "status", "status", "impression", "impression", "status",
            ])
        let statuses = lines.filter { $0["type"] as? String == "status" }
        #expect(statuses.map { $0["status"] as? String } == ["ok", "error", "ok"])
        #expect(statuses.dropFirst().first?["reason"] as? String == "bad-request")
        for output in [first, second] {
            #expect(FileManager.default.fileExists(atPath: output.file("page-0002.png")))
        }
    }

    @Test func badDocumentEndsWithAnErrorStatusAndReason() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("broken.pwg")
        try Data(Array("RaS2".utf8) + Array(repeating: 0, count: 100)).write(to: URL(fileURLWithPath: path))
        let result = try run(#"{"protocol": 1, "folder": "\#(folder.path)", "documents": [{"path": "\#(path)"}]}"#)
        #expect(result.status == 1)
        let status = try #require(result.lines.last)
        #expect(status["status"] as? String == "error")
        #expect(status["reason"] as? String == "document-format-error")
        #expect((status["message"] as? String)?.isEmpty == false)
    }

    @Test func limitsInTheRequestApply() throws {
        let folder = try TemporaryFolder()
        let pdf = try TestDocuments.pdf(in: folder, pages: 3)
        let result = try run(
            #"{"protocol": 1, "folder": "\#(folder.path)", "documents": [{"path": "\#(pdf)"}], "limits": {"max-pages": 2}}"#
        )
        #expect(result.status == 1)
        #expect(result.lines.last?["reason"] as? String == "document-unprintable-error")
    }

    @Test func unknownProtocolOrMalformedRequestIsRefused() throws {
        let wrongVersion = try run(#"{"protocol": 2, "folder": "/nonexistent", "documents": []}"#)
        #expect(wrongVersion.status == 2)
        #expect(wrongVersion.lines.last?["reason"] as? String == "bad-request")
        let garbage = try run("not json")
        #expect(garbage.status == 2)
        let badKeyword = try run(
            #"{"protocol": 1, "folder": "/nonexistent", "documents": [], "ticket": {"sides": "three-sided"}}"#)
        #expect(badKeyword.status == 2)
    }

    @Test func rasterKeepsItsOwnResolutionUpToTheCapAndColorModeAliasesApply() throws {
        let folder = try TemporaryFolder()
        let source = try TestDocuments.writePostScript(in: folder, pages: 1)
        let raster = folder.file("page.pwg")
        try ExternalTool.ghostscript([
            "-sDEVICE=pwgraster", "-r100", "-dcupsColorSpace=18", "-dcupsBitsPerColor=8", "-sOutputFile=\(raster)",
            source,
        ])
        func render(_ ticket: String) throws -> [String: Any]? {
            let request =
                #"{"protocol": 1, "folder": "\#(folder.path)", "documents": [{"path": "\#(raster)"}], "ticket": \#(ticket)}"#
            return try run(request).lines.first
        }
        let native = try render(#"{"dpi": 50, "raster-max-dpi": 300, "print-color-mode": "auto-monochrome"}"#)
        #expect(native?["dpi"] as? Int == 100)
        #expect(native?["width"] as? Int == 850)
        #expect(native?["color"] as? Bool == false)
        let capped = try render(#"{"dpi": 50, "raster-max-dpi": 75, "orientation-requested": "none"}"#)
        #expect(capped?["dpi"] as? Int == 75)
        let documentResolution = try render(#"{"dpi": 50}"#)
        #expect(documentResolution?["dpi"] as? Int == 50)
    }

    @Test func aWorkerThatCrashesLeavesNoCoreFile() throws {
        // The shell raises its soft RLIMIT_CORE to the hard limit (unlimited on most machines), moves to a folder of
        // its own and becomes the worker: the worker's limits then say 0 and 0, and a SIGSEGV leaves no core file in
        // its working folder (where a core_pattern of `core` would put one). The Swift runtime's backtracer is off, so
        // that the signal's default action, a core dump, applies.
        let folder = try TemporaryFolder()
        let input = try ClosingPipe()
        let output = try ClosingPipe()
        let script = #"ulimit -S -c "$(ulimit -H -c)" && cd "$1" && exec "$2" --serve"#
        let worker = try ChildProcess(
            "/bin/sh", ["-c", script, "sh", folder.path, try Self.workerPath()],
            environment: ["SWIFT_BACKTRACE": "enable=no"], stdin: .descriptor(input.readEnd),
            stdout: .descriptor(output.writeEnd))
        close(input.readEnd)
        close(output.writeEnd)
        defer {
            close(input.writeEnd)
            close(output.readEnd)
        }
        // A line the worker cannot read, answered with a status line: by then it has started.
        #expect(write(input.writeEnd, "not a request\n", 14) == 14)
        var ready = pollfd(fd: output.readEnd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 20_000) == 1)
        var answer = [UInt8](repeating: 0, count: 4096)
        let count = read(output.readEnd, &answer, answer.count)
        #expect(String(decoding: answer.prefix(max(0, count)), as: UTF8.self).contains("bad-request"))
        let limits = try String(contentsOfFile: "/proc/\(worker.pid)/limits", encoding: .utf8)
        let core = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        #expect(Array(core.split(separator: " ").dropFirst(4).prefix(2)) == ["0", "0"], "\(core)")
        worker.send(SIGSEGV)
        #expect(try worker.waitForExit(limit: 30) == 128 + SIGSEGV)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("core") } == [])
    }

    @Test func addressSpaceLimitTooSmallForASheetEndsWithAnOutOfMemoryStatus() throws {
        let folder = try TemporaryFolder()
        let pdf = try TestDocuments.pdf(in: folder, pages: 1)
        // A 1200 dpi letter sheet needs 538 MB; the worker may use 300 MB.
        let request = """
            {"protocol": 1, "folder": "\(folder.path)", "documents": [{"path": "\(pdf)"}], "ticket": {"dpi": 1200},
             "limits": {"max-sheet-pixels": 200000000}, "rlimits": {"address-space": 300000000}}
            """
        let result = try run(request)
        #expect(result.status == 1)
        #expect(result.lines.last?["reason"] as? String == "document-unprintable-error")
        #expect((result.lines.last?["message"] as? String)?.hasPrefix("out of memory") == true)
    }
}
