import Foundation
import HTTPServer
import PrintModel
import Synchronization

/// Render workers kept between jobs: `vprinter-render --serve` answers one request after another, so that a job
/// does not pay for starting a process, linking some fifty libraries and reading the font configuration (about
/// 40 ms of CPU, a third of a 3-page job's cost). A worker still serves one job at a time, so a crash, a hang or
/// a memory blow-up costs that job only: a worker that did not end its job with a status line, or that was
/// stopped, is never taken again. Workers are retired after `requestsPerWorker` requests or once they hold more
/// than `maximumResidentBytes`, and at most `maximumIdle` wait for work.
final class RenderWorkerPool: Sendable {
    /// One running worker and the two ends of its pipes. Used by one job at a time: taken from the pool under its
    /// lock, given back after.
    final class Worker: @unchecked Sendable {
        let process: Process
        let input: FileHandle
        let output: FileHandle
        /// Bytes read after the last whole line (none between requests, as the worker writes only while it works).
        var buffer = Data()
        var requestsServed = 0

        init(process: Process, input: FileHandle, output: FileHandle) {
            self.process = process
            self.input = input
            self.output = output
        }
    }

    /// Requests a worker answers before it is retired (a slow leak or a fragmented heap ends with it).
    static let requestsPerWorker = 64
    /// A worker holding more memory than this after a job is retired rather than kept idle.
    static let maximumResidentBytes = 512 << 20

    let executable: String
    let maximumIdle: Int
    private let idle = Mutex<[Worker]>([])

    init(executable: String, maximumIdle: Int) {
        self.executable = executable
        self.maximumIdle = max(0, maximumIdle)
    }

    /// A worker that took `request` (one JSON line): an idle one, or a new one when none is idle or the idle one
    /// has ended since (a kill, the memory limit). Throws when no worker can be started or written to.
    func send(_ request: Data) throws -> Worker {
        while let worker = idle.withLock({ $0.popLast() }) {
            if worker.process.isRunning, (try? worker.input.write(contentsOf: request)) != nil {
                worker.requestsServed += 1
                return worker
            }
            retire(worker)
        }
        let worker = try start()
        do {
            try worker.input.write(contentsOf: request)
        } catch {
            retire(worker)  // it ended as it started: its pipes closed and the process waited for, as any other
            throw error
        }
        worker.requestsServed = 1
        return worker
    }

    /// Keeps a worker that ended its job with a status line for the next one, or retires it.
    func giveBack(_ worker: Worker) {
        guard worker.process.isRunning, worker.requestsServed < Self.requestsPerWorker,
            Self.residentBytes(of: worker.process.processIdentifier) <= Self.maximumResidentBytes
        else {
            retire(worker)
            return
        }
        let kept = idle.withLock { idle in
            guard idle.count < maximumIdle else { return false }
            idle.append(worker)
            return true
        }
        if !kept { retire(worker) }
    }

    /// Ends a worker: its input closed (a serving worker exits at the end of its input), and waited for.
    func retire(_ worker: Worker) {
        try? worker.input.close()
        worker.process.waitUntilExit()
        try? worker.output.close()
    }

    /// The workers waiting for a job, by process id (for tests).
    var idleProcessIdentifiers: [Int32] { idle.withLock { $0.map(\.process.processIdentifier) } }

    private func start() throws -> Worker {
        HTTPServer.ignoreBrokenPipeSignal()  // a worker that ended is an error on write, not the end of the printer
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--serve"]
        process.environment = WorkerEnvironment.filtered(ProcessInfo.processInfo.environment)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return Worker(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading)
    }

    /// The resident memory of a process (/proc/PID/statm), 0 when it cannot be read.
    static func residentBytes(of pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
