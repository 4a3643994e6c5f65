// vprinter-render: the render worker. Reads one JSON request (PrintModel's RenderRequest) on stdin and either
// renders a job (page-NNNN.png files in the job folder, one JSON line per impression on stdout, then one status
// line) or, with operation `recognize-text`, reads the text of rendered sides by OCR (page-NNNN.txt files, one
// line per side, then one status line), or, with operation `scan-page`, makes one scanned image (one `scanned`
// line, then the status line). See docs/render-protocol.md.
import Foundation
import PrintModel
import Rasterizer

// No core file of a crash, before anything reads the document (docs/render-protocol.md).
ResourceLimiter.forbidCoreFiles()
// Lead a process group of its own, so that the printer stops any child (Ghostscript) along with the worker.
setpgid(0, 0)
// vprinter's own fonts, before Poppler, Cairo or Ghostscript reads any (docs/snapshots.md).
FontConfiguration.apply()
ParentWatch.start()
let output = WorkerOutput()

/// The request's protocol version, read first, so that a request of another version is named as such.
struct ProtocolProbe: Decodable {
    var version: Int

    enum CodingKeys: String, CodingKey {
        case version = "protocol"
    }
}

/// Decodes one request; a request it cannot read is answered with a `bad-request` status line, and nil.
func decodeRequest(_ input: Data) -> RenderRequest? {
    do {
        let probe = try JSONDecoder().decode(ProtocolProbe.self, from: input)
        guard probe.version == RenderRequest.protocolVersion else {
            output.status(error: "bad-request", message: "protocol \(probe.version) is not supported, only 1")
            return nil
        }
        return try JSONDecoder().decode(RenderRequest.self, from: input)
    } catch {
        output.status(error: "bad-request", message: "the request is not valid JSON for protocol 1: \(error)")
        return nil
    }
}

/// Runs one request; its exit status as a one-request worker.
func perform(_ request: RenderRequest) -> Int32 {
    switch request.operation {
    case .render: render(request)
    case .recognizeText: recognizeText(request)
    case .scanPage: scanPage(request)
    }
}

if CommandLine.arguments.dropFirst().first == "--serve" {
    // One request per line, each answered by its lines and a status line, until the input ends: the printer keeps
    // the worker for its next job (docs/render-protocol.md, "A worker kept for further jobs").
    while let line = readLine(strippingNewline: true) {
        guard !line.isEmpty, let request = decodeRequest(Data(line.utf8)) else { continue }
        if let limits = request.resourceLimits {
            ResourceLimiter.applyForNextRequest(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
        }
        _ = perform(request)
    }
    exit(0)
}

guard let request = decodeRequest(FileHandle.standardInput.readDataToEndOfFile()) else { exit(2) }
if let limits = request.resourceLimits {
    ResourceLimiter.apply(addressSpace: limits.addressSpace, cpuSeconds: limits.cpuSeconds)
}
exit(perform(request))

func render(_ request: RenderRequest) -> Int32 {
    let renderer = JobRenderer(
        folder: request.folder, ticket: request.ticket, limits: request.limits,
        threads: request.threads ?? JobRenderer.defaultThreads)
    do {
        let summary = try renderer.render(
            request.documents, onImpression: { output.send(.impression($0)) }, onWarning: { output.send(.warning($0)) })
        output.status(summary: summary)
        return 0
    } catch {
        output.status(error: error.ippReason, message: error.description)
        return 1
    }
}

func recognizeText(_ request: RenderRequest) -> Int32 {
    let recognition = SideTextRecognition(
        folder: request.folder, languages: request.languages ?? SideTextRecognition.defaultLanguages,
        threads: request.threads ?? JobRenderer.defaultThreads)
    do throws(RasterError) {
        try recognition.run(request.sides) { outcome in
            let characters = outcome.textFile == nil ? nil : outcome.characters
            output.send(
                .text(
                    .init(number: outcome.number, file: outcome.textFile, characters: characters, error: outcome.error))
            )
        }
        output.send(.status(WorkerStatus(status: .ok, sides: request.sides.count)))
        return 0
    } catch {
        output.status(error: error.ippReason, message: error.description)
        return 1
    }
}

func scanPage(_ request: RenderRequest) -> Int32 {
    guard let page = request.scan else {
        output.status(error: "bad-request", message: "a scan-page request without its scan")
        return 2
    }
    do throws(RasterError) {
        let image = try ScanPageMaker(limits: request.limits).make(page)
        output.send(.scanned(image))
        output.send(.status(WorkerStatus(status: .ok)))
        return 0
    } catch {
        output.status(error: error.ippReason, message: error.description)
        return 1
    }
}
