// vprinter-render: the render worker. Reads one JSON request on stdin and either renders a job (page-NNNN.png
// files in the job folder, one JSON line per impression on stdout, then one status line) or, with operation
// `recognize-text`, reads the text of rendered sides by OCR (page-NNNN.txt files, one line per side, then one
// status line). See docs/render-protocol.md.
import Foundation
import Rasterizer

// Lead a process group of its own, so that the printer stops any child (Ghostscript) along with the worker.
setpgid(0, 0)
ParentWatch.start()
let output = WorkerOutput()
let input = FileHandle.standardInput.readDataToEndOfFile()
let kind: RequestKind
do {
    kind = try JSONDecoder().decode(RequestKind.self, from: input)
} catch {
    output.status(error: "bad-request", message: "the request is not valid JSON for protocol 1: \(error)")
    exit(2)
}
guard kind.protocolVersion == RenderRequest.protocolVersion else {
    output.status(error: "bad-request", message: "protocol \(kind.protocolVersion) is not supported, only 1")
    exit(2)
}
switch kind.operation {
case nil, "render"?:
    exit(render())
case "recognize-text"?:
    exit(recognizeText())
case let other?:
    output.status(error: "bad-request", message: "unknown operation '\(other)' (render, recognize-text)")
    exit(2)
}

func render() -> Int32 {
    let request: RenderRequest
    do {
        request = try JSONDecoder().decode(RenderRequest.self, from: input)
    } catch {
        output.status(error: "bad-request", message: "the request is not valid JSON for protocol 1: \(error)")
        return 2
    }
    if let limits = request.resourceLimits {
        ResourceLimiter.apply(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
    }
    let renderer = JobRenderer(
        folder: request.folder, ticket: request.ticket, limits: request.limits,
        threads: request.threads ?? JobRenderer.defaultThreads)
    do {
        let summary = try renderer.render(request.documents, onImpression: { output.impression($0) }) {
            output.warning($0)
        }
        output.status(summary: summary)
        return 0
    } catch {
        output.status(error: error.ippReason, message: error.description)
        return 1
    }
}

func recognizeText() -> Int32 {
    let request: TextRequest
    do {
        request = try JSONDecoder().decode(TextRequest.self, from: input)
    } catch {
        output.status(error: "bad-request", message: "the request is not a valid recognize-text request: \(error)")
        return 2
    }
    if let limits = request.resourceLimits {
        ResourceLimiter.apply(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
    }
    let recognition = SideTextRecognition(
        folder: request.folder, languages: request.languages, threads: request.threads ?? JobRenderer.defaultThreads)
    do {
        try recognition.run(request.sides) { output.text($0) }
        output.status(recognizedSides: request.sides.count)
        return 0
    } catch {
        output.status(error: error.ippReason, message: error.description)
        return 1
    }
}
