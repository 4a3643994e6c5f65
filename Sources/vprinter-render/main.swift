// vprinter-render: the render worker. Reads one JSON request on stdin, writes page-NNNN.png files into the
// job folder, one JSON line per impression on stdout, then one status line (docs/render-protocol.md).
import Foundation
import Rasterizer

// Lead a process group of its own, so that the printer stops any child (Ghostscript) along with the worker.
setpgid(0, 0)
ParentWatch.start()
let output = WorkerOutput()
let input = FileHandle.standardInput.readDataToEndOfFile()
let request: RenderRequest
do {
    request = try JSONDecoder().decode(RenderRequest.self, from: input)
} catch {
    output.status(error: "bad-request", message: "the request is not valid JSON for protocol 1: \(error)")
    exit(2)
}
guard request.protocolVersion == RenderRequest.protocolVersion else {
    output.status(error: "bad-request", message: "protocol \(request.protocolVersion) is not supported, only 1")
    exit(2)
}
if let limits = request.resourceLimits {
    ResourceLimiter.apply(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
}
let renderer = JobRenderer(
    folder: request.folder, ticket: request.ticket, limits: request.limits,
    threads: request.threads ?? JobRenderer.defaultThreads)
do {
    let summary = try renderer.render(request.documents) { output.impression($0) }
    output.status(summary: summary)
    exit(0)
} catch {
    output.status(error: error.ippReason, message: error.description)
    exit(1)
}
