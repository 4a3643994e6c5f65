import Foundation
import HTTPServer
import IPP
import TestSupport
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// The repository root, found from this file's place in Tests/VirtualPrinterTests.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The printer attributes of the shipped duplex-laser profile, for a printer named `t`.
func duplexLaserAttributes() throws -> [IPPAttribute] {
    let profile = try PrinterProfile.load(
        nameOrPath: "duplex-laser", searchDirectories: [repositoryRoot.appendingPathComponent("profiles").path])
    return profile.printerAttributes(context: ProfileAttributeContext(printerName: "t"))
}

/// The printer attributes with some replaced (or added) by name.
func replacing(_ attributes: [IPPAttribute], with changes: [IPPAttribute]) -> [IPPAttribute] {
    let names = Set(changes.map(\.name))
    return attributes.filter { !names.contains($0.name) } + changes
}

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vprinter-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The names in a sub-folder, sorted.
    func contents(of relative: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + relative)) ?? []).sorted()
    }
}

/// One scheduler for every in-process printer of the tests: its worker threads live as long as the process.
let testScheduler = JobScheduler(workers: 2)

/// Builds an IPP request with the operation attributes every request starts with.
func ippRequest(
    _ operation: IPPOperation, requestID: Int32 = 1, printerURI: String? = "ipp://localhost:631/ipp/print",
    _ extra: [IPPAttribute] = [], job: [IPPAttribute]? = nil
) -> IPPMessage {
    var group = IPPAttributeGroup(tag: .operationAttributes)
    group.append("attributes-charset", .charset("utf-8"))
    group.append("attributes-natural-language", .naturalLanguage("en"))
    if let printerURI { group.append("printer-uri", .uri(printerURI)) }
    for attribute in extra { group.append(attribute) }
    var message = IPPMessage(version: .v2_0, operation: operation, requestID: requestID, groups: [group])
    if let job { message.groups.append(IPPAttributeGroup(tag: .jobAttributes, attributes: job)) }
    return message
}

/// A printer with a temporary output folder behind a `PrinterService`, driven without sockets.
final class PrinterHarness {
    let folder: TemporaryFolder
    let printer: Printer
    let service: PrinterService

    /// - Parameters:
    ///   - earlier: an output folder an earlier harness used (a restart), else a fresh one.
    ///   - renderer: what renders its jobs; nil completes them unrendered (as `--no-render` does).
    init(
        attributes: [IPPAttribute]? = nil, maximumDocumentSize: Int = PrinterConfiguration.defaultMaximumDocumentSize,
        reusing earlier: TemporaryFolder? = nil, renderer: (any JobRenderer)? = nil,
        configure: (inout PrinterConfiguration) -> Void = { _ in }
    ) throws {
        folder = try earlier ?? TemporaryFolder()
        var configuration = PrinterConfiguration(
            name: "t", resourcePath: "/ipp/print", uuid: PrinterConfiguration.uuid(forName: "t"),
            attributes: try attributes ?? duplexLaserAttributes(), outputDirectory: folder.path,
            maximumDocumentSize: maximumDocumentSize)
        configure(&configuration)
        printer = Printer(
            configuration: configuration, jobIDs: JobIDAllocator(outputDirectory: folder.path),
            scheduler: testScheduler, renderer: renderer)
        service = PrinterService(printers: [printer])
    }

    /// Sends raw bytes as the body of an IPP POST and returns the HTTP response.
    func post(_ body: [UInt8], path: String = "/ipp/print") -> HTTPResponse {
        let request = HTTPRequest(
            method: "POST", target: path, path: path, headers: ["Content-Type": "application/ipp"],
            host: "localhost", localPort: 631, contentLength: body.count)
        var stream = HTTPRequestBody(bytes: body)
        return service.handle(request, body: &stream)
    }

    /// Sends an IPP request followed by document data; returns the decoded IPP response.
    func send(_ message: IPPMessage, data: [UInt8] = []) throws -> IPPMessage {
        try decodeIPP(post(IPPEncoder.encode(message) + data))
    }

    /// Waits (bounded) until the job has ended, then returns it.
    func ended(_ jobID: Int) -> Job? {
        for _ in 0..<1000 {
            if let job = printer.job(jobID), job.state.isTerminal { return job }
            usleep(10_000)
        }
        return printer.job(jobID)
    }

    /// The job's record as written on disk.
    func record(_ jobID: Int) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/jobs/\(jobID)/job.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Decodes the IPP message in an HTTP response's body.
func decodeIPP(_ response: HTTPResponse) throws -> IPPMessage {
    #expect(response.status == 200)
    #expect(response.headers["Content-Type"] == "application/ipp")
    guard case .bytes(let bytes) = response.body else {
        Issue.record("the IPP response is not a byte body")
        return IPPMessage(version: .v2_0, status: .serverErrorInternalError, requestID: 0)
    }
    return try IPPDecoder().decode(bytes).message
}

extension IPPMessage {
    /// The job-id of the response's job attributes group.
    var jobID: Int? {
        attribute("job-id", in: .jobAttributes)?.value?.integerValue.map(Int.init)
    }

    /// status-message from the operation attributes.
    var statusMessage: String? {
        attribute("status-message", in: .operationAttributes)?.value?.stringValue
    }
}

/// Runs a command and returns its standard output; a failure to exit 0 is recorded as an issue. Throws when it
/// cannot start or runs longer than ChildProcess's limit (it is killed then).
func runTool(_ executable: String, _ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
    let result = try ChildProcess.run(executable, arguments, input: input)
    #expect(result.status == 0, "\(executable) \(arguments) failed: \(result.errorOutput)")
    return result.output
}
