import Foundation
import IPP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built printer over real sockets: attributes, jobs, concurrency, several printers, shutdown, restart.
@Suite(.timeLimit(.minutes(1))) struct PrintingTests {
    /// The options of a quick, private printer recording into `output`.
    static func options(_ output: String, _ extra: [String] = []) -> [String] {
        ["--port", "0", "--listen", "127.0.0.1", "--no-dnssd", "--no-render", "--output-dir", output] + extra
    }

    static let document: [UInt8] = Array("%PDF-1.4\n% e2e sample\n%%EOF\n".utf8)

    /// The job.json of a job, parsed.
    static func record(_ output: String, _ id: Int) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(output)/jobs/\(id)/job.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theURILineNamesTheIPPPrintPathAndNothingElseIsPrinted() throws {
        let scratch = try ScratchFolder()
        let (printer, uris) = try VPrinterProcess.printer(Self.options(scratch.path + "/out"), scratch: scratch)
        #expect(uris.count == 1)
        #expect(uris[0].hasPrefix("ipp://127.0.0.1:"))
        #expect(uris[0].hasSuffix("/ipp/print"))
        #expect(printer.terminate() == 0)
        #expect(printer.readToEnd().isEmpty, "only the URI on stdout")
    }

    @Test func getPrinterAttributesAndPrintJobWork() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
        let client = try IPPClient(uri: uris[0])
        let attributes = try client.send(ippRequest(.getPrinterAttributes, uri: uris[0], requestID: 3))
        #expect(attributes.status == .successfulOK)
        #expect(attributes.requestID == 3)
        // URIs in responses use the host the client named (Host: localhost).
        let localhostURI = uris[0].replacingOccurrences(of: "127.0.0.1", with: "localhost")
        #expect(attributes.attribute("printer-uri-supported", in: .printerAttributes)?.value == .uri(localhostURI))
        #expect(attributes.attribute("printer-state", in: .printerAttributes)?.value == .enumValue(3))
        #expect(attributes.attribute("ipp-versions-supported", in: .printerAttributes) != nil)

        let printed = try client.printPDF(uris[0], Self.document, requestID: 4)
        #expect(printed.status == .successfulOK)
        let id = try #require(printed.jobID)
        #expect(try client.waitForEnd(uris[0], jobID: id) == 9)
        let record = try Self.record(output, id)
        #expect(record["job-state"] as? String == "completed")
        #expect(record["job-originating-user-name"] as? String == "e2e")
        #expect((record["client"] as? [String: Any])?["user-agent"] as? String == "vprinter-e2e")
        let document = try #require((record["documents"] as? [[String: Any]])?.first)
        #expect(document["size"] as? Int == Self.document.count)
        #expect(printer.terminate() == 0)
    }

    @Test func twentyFourSimultaneousPrintJobsAreAllAcceptedAndAllComplete() async throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
        let uri = uris[0]
        let client = try IPPClient(uri: uri)
        let responses = await withTaskGroup(of: (Int32, IPPStatus?, Int?).self) { group in
            for index in 1...24 {
                group.addTask {
                    let response = try? client.printPDF(uri, Self.document, requestID: Int32(index))
                    return (Int32(index), response?.status, response?.jobID)
                }
            }
            var all: [(Int32, IPPStatus?, Int?)] = []
            for await response in group { all.append(response) }
            return all
        }
        #expect(responses.count == 24)
        for (index, status, _) in responses {
            #expect(status == .successfulOK, "request \(index)")
        }
        let ids = responses.compactMap(\.2)
        #expect(Set(ids).count == 24, "24 distinct job ids")
        for id in ids {
            #expect(try client.waitForEnd(uri, jobID: id) == 9, "job \(id)")
        }
        #expect(printer.terminate() == 0)
    }

    @Test func twoPrintersInOneProcessEachHaveTheirOwnPath() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(
            Self.options(output, ["--profile", "duplex-laser", "--profile", "color-inkjet"]), scratch: scratch,
            printers: 2)
        #expect(uris.count == 2)
        #expect(uris.allSatisfy { $0.contains("/ipp/print/") })
        #expect(Set(uris).count == 2)
        var colors: [IPPValue?] = []
        var ids: [Int] = []
        for uri in uris {
            let client = try IPPClient(uri: uri)
            let attributes = try client.send(
                ippRequest(
                    .getPrinterAttributes, uri: uri,
                    [IPPAttribute("requested-attributes", .keyword("color-supported"))]))
            #expect(attributes.status == .successfulOK)
            colors.append(attributes.attribute("color-supported", in: .printerAttributes)?.value)
            let printed = try client.printPDF(uri, Self.document)
            ids.append(try #require(printed.jobID))
        }
        #expect(colors == [.boolean(false), .boolean(true)])
        #expect(Set(ids).count == 2, "job ids are unique across the printers of a process")
        let names = try ids.map { try Self.record(output, $0)["printer-name"] as? String }
        #expect(Set(names.compactMap { $0 }).count == 2)
        #expect(printer.terminate() == 0)
    }

    @Test func sigtermExitsZeroAndLeavesEveryRecordIntact() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
        let client = try IPPClient(uri: uris[0])
        let done = try #require(try client.printPDF(uris[0], Self.document).jobID)
        #expect(try client.waitForEnd(uris[0], jobID: done) == 9)
        let open = try #require(try client.send(ippRequest(.createJob, uri: uris[0])).jobID)
        #expect(printer.terminate() == 0)
        #expect(try Self.record(output, done)["job-state"] as? String == "completed")
        let unfinished = try Self.record(output, open)
        #expect(unfinished["job-state"] as? String == "pending", "a job left open stays for the next start")
        #expect(unfinished["job-state-reasons"] as? [String] == ["job-incoming"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(output)/jobs/\(done)")
        #expect(leftovers.allSatisfy { !$0.contains("tmp") && !$0.hasSuffix(".partial") }, "\(leftovers)")
    }

    @Test func withOnRestartAbortSigtermEndsTheJobsLeftOpen() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(
            Self.options(output, ["--on-restart", "abort"]), scratch: scratch)
        let client = try IPPClient(uri: uris[0])
        let open = try #require(try client.send(ippRequest(.createJob, uri: uris[0])).jobID)
        #expect(printer.terminate() == 0)
        #expect(try Self.record(output, open)["job-state"] as? String == "aborted")
    }

    @Test func jobIDsContinueAfterARestartOnTheSameOutputFolder() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        var lastID = 0
        for run in 0..<2 {
            let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
            let client = try IPPClient(uri: uris[0])
            let first = try #require(try client.printPDF(uris[0], Self.document).jobID)
            let second = try #require(try client.printPDF(uris[0], Self.document).jobID)
            #expect(first > lastID, "run \(run)")
            #expect(second > first)
            lastID = second
            #expect(try client.waitForEnd(uris[0], jobID: second) == 9)
            #expect(printer.terminate() == 0)
        }
        #expect(lastID == 4)
    }

    @Test func theReadyFileHoldsTheURIs() throws {
        let scratch = try ScratchFolder()
        let ready = scratch.path + "/ready"
        let (printer, uris) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/out", ["--ready-file", ready]), scratch: scratch)
        let contents = try String(contentsOfFile: ready, encoding: .utf8)
        #expect(contents == uris.joined(separator: "\n") + "\n")
        #expect(printer.terminate() == 0)
    }

    @Test func jobsCommandListsTheRecordedJobsAsJSON() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path + "/out"
        let (printer, uris) = try VPrinterProcess.printer(Self.options(output), scratch: scratch)
        let client = try IPPClient(uri: uris[0])
        var ids: [Int] = []
        for _ in 0..<2 {
            let id = try #require(try client.printPDF(uris[0], Self.document).jobID)
            #expect(try client.waitForEnd(uris[0], jobID: id) == 9)
            ids.append(id)
        }
        #expect(printer.terminate() == 0)
        let listing = try runVPrinter(["jobs", "--output-dir", output, "--json"], scratch: scratch)
        #expect(listing.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(listing.out.utf8)) as? [[String: Any]]
        let records = try #require(parsed)
        #expect(records.compactMap { $0["job-id"] as? Int } == ids)
        #expect(records.allSatisfy { $0["job-state"] as? String == "completed" })
    }
}
