import Foundation
import PrintModel
import TestSupport
import Testing

@testable import PrinterCore

/// Render workers kept between jobs (`RenderWorkerPool`), with the built `vprinter-render`: a worker that ended its
/// job serves the next; one that was stopped, died or served its share is never taken again.
@Suite(.timeLimit(.minutes(2))) struct RenderWorkerPoolTests {
    struct Unavailable: Error {
        let reason: String
    }

    /// A job folder holding a one-page PDF made by Ghostscript, and the request that renders it small.
    struct Job {
        let folder: TemporaryFolder
        let request: RenderRequest

        init() throws {
            folder = try TemporaryFolder()
            let source = folder.path + "/page.ps"
            try "%!PS\n0 0 1 setrgbcolor 100 100 200 150 rectfill showpage\n".write(
                toFile: source, atomically: true, encoding: .utf8)
            let pdf = folder.path + "/document-1.pdf"
            let made = try ChildProcess.run(
                "/usr/bin/gs",
                ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=\(pdf)", source])
            guard made.status == 0 else { throw Unavailable(reason: "gs: \(made.errorOutput)") }
            var ticket = JobTicket()
            ticket.resolution = 20
            request = .render(
                folder: folder.path, documents: [.init(path: pdf, format: "application/pdf")], ticket: ticket,
                threads: 1)
        }
    }

    func client(keptWorkers: Int = 1) throws -> RenderWorkerClient {
        var limits = RenderWorkerClient.Limits()
        limits.keptWorkers = keptWorkers
        return RenderWorkerClient(executable: try BuiltProduct.path("vprinter-render"), limits: limits)
    }

    func rendered(_ run: RenderWorkerClient.WorkerRun) -> Bool {
        if case .finished(let status) = run { return status.status == .ok }
        return false
    }

    @Test func aWorkerServesTheNextJobToo() throws {
        let client = try client()
        let first = try Job()
        #expect(rendered(client.runWorker(first.request, folder: first.folder.path, isCanceled: { false }) { _ in }))
        let kept = client.pool.idleProcessIdentifiers
        #expect(kept.count == 1)
        let second = try Job()
        var impressions = 0
        #expect(
            rendered(
                client.runWorker(second.request, folder: second.folder.path, isCanceled: { false }) { message in
                    if case .impression = message { impressions += 1 }
                }))
        #expect(impressions == 1)
        #expect(FileManager.default.fileExists(atPath: second.folder.path + "/page-0001.png"))
        #expect(client.pool.idleProcessIdentifiers == kept, "the same worker, kept again")
    }

    @Test func noWorkerIsKeptWhenNoneAreToBe() throws {
        let client = try client(keptWorkers: 0)
        let job = try Job()
        #expect(rendered(client.runWorker(job.request, folder: job.folder.path, isCanceled: { false }) { _ in }))
        #expect(client.pool.idleProcessIdentifiers.isEmpty)
    }

    @Test func aCanceledJobsWorkerIsRetiredAndTheNextJobGetsAFreshOne() throws {
        let client = try client()
        let warm = try Job()
        _ = client.runWorker(warm.request, folder: warm.folder.path, isCanceled: { false }) { _ in }
        let stopped = client.pool.idleProcessIdentifiers
        let canceled = try Job()
        let run = client.runWorker(canceled.request, folder: canceled.folder.path, isCanceled: { true }) { _ in }
        guard case .canceled = run else {
            Issue.record("expected canceled, got \(run)")
            return
        }
        #expect(client.pool.idleProcessIdentifiers.isEmpty)
        #expect(stopped.allSatisfy { kill($0, 0) != 0 }, "the stopped worker is gone")
        let next = try Job()
        #expect(rendered(client.runWorker(next.request, folder: next.folder.path, isCanceled: { false }) { _ in }))
    }

    @Test func aWorkerThatDiedWhileIdleIsReplaced() throws {
        let client = try client()
        let first = try Job()
        _ = client.runWorker(first.request, folder: first.folder.path, isCanceled: { false }) { _ in }
        let dead = try #require(client.pool.idleProcessIdentifiers.first)
        kill(dead, SIGKILL)
        // Dead once it is a zombie (its pipes closed) or reaped.
        let deadline = Date().addingTimeInterval(5)
        while let stat = try? String(contentsOfFile: "/proc/\(dead)/stat", encoding: .utf8), !stat.contains(") Z "),
            Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let second = try Job()
        #expect(rendered(client.runWorker(second.request, folder: second.folder.path, isCanceled: { false }) { _ in }))
        #expect(client.pool.idleProcessIdentifiers.count == 1)
        #expect(client.pool.idleProcessIdentifiers != [dead])
    }

    @Test func aWorkerIsRetiredAfterItsShareOfRequests() throws {
        let client = try client()
        let job = try Job()
        _ = client.runWorker(job.request, folder: job.folder.path, isCanceled: { false }) { _ in }
        let first = client.pool.idleProcessIdentifiers
        for _ in 2...RenderWorkerPool.requestsPerWorker {
            #expect(client.pool.idleProcessIdentifiers == first)
            _ = client.runWorker(job.request, folder: job.folder.path, isCanceled: { false }) { _ in }
        }
        #expect(client.pool.idleProcessIdentifiers.isEmpty, "retired after \(RenderWorkerPool.requestsPerWorker)")
        #expect(rendered(client.runWorker(job.request, folder: job.folder.path, isCanceled: { false }) { _ in }))
        #expect(client.pool.idleProcessIdentifiers.count == 1)
        #expect(client.pool.idleProcessIdentifiers != first)
    }

    @Test func aJobWhoseKeptWorkerDiesBeforeAWordIsRenderedByAFreshOne() throws {
        let client = try client()
        let first = try Job()
        _ = client.runWorker(first.request, folder: first.folder.path, isCanceled: { false }) { _ in }
        let doomed = try #require(client.pool.idleProcessIdentifiers.first)
        // Stopped, it takes the request into its pipe and says nothing; killed then, it never will.
        kill(doomed, SIGSTOP)
        let killer = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            kill(doomed, SIGKILL)
        }
        killer.start()
        let second = try Job()
        #expect(rendered(client.runWorker(second.request, folder: second.folder.path, isCanceled: { false }) { _ in }))
        #expect(FileManager.default.fileExists(atPath: second.folder.path + "/page-0001.png"))
        #expect(client.pool.idleProcessIdentifiers.count == 1)
        #expect(client.pool.idleProcessIdentifiers != [doomed])
    }
}
