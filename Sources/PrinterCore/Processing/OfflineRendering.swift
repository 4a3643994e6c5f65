import Foundation
import IPP
import PrintModel
import Synchronization

/// `vprinter render`: the printer's rendering pipeline on a file, without a server. The ticket is checked against
/// the printer's attributes as a job's would be; the pages land in the output folder as they would in a job folder.
public enum OfflineRendering {
    /// Why a file could not be rendered.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file cannot be read.
        case unreadable(String)
        /// Ticket attributes (or values) the printer does not support.
        case unsupported([String])
        /// The output folder cannot be made.
        case output(String)
        /// The renderer failed; `reason` is the job-state-reasons keyword it gave.
        case rendering(reason: String, message: String)

        public var description: String {
            switch self {
            case .unreadable(let file): "cannot read \(file)"
            case .unsupported(let names): "the printer does not support: \(names.joined(separator: ", "))"
            case .output(let folder): "cannot write to \(folder)"
            case .rendering(let reason, let message): "\(reason): \(message)"
            }
        }
    }

    /// Renders `file` with `ticket` on a printer with `printerAttributes`; returns the impressions written to
    /// `outputDirectory`, in order, and hands the job's warnings (a substituted font, ...) to `onWarning`.
    public static func render(
        file: String, ticket: [IPPAttribute], printerAttributes: [IPPAttribute], outputDirectory: String,
        renderer: any JobRenderer, onWarning: @Sendable (JobWarning) -> Void = { _ in }
    ) -> Result<[PrintedSide], Failure> {
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.unreadable(file)) }
        let head = (try? handle.read(upToCount: DocumentFormat.detectionLength)) ?? Data()
        try? handle.close()
        let cache = PrinterAttributeCache(attributes: printerAttributes, excluding: [])
        let checked = JobTicketValidator(printer: cache).validate(
            IPPAttributeGroup(tag: .jobAttributes, attributes: ticket))
        guard checked.unsupported.isEmpty else {
            return .failure(
                .unsupported(
                    checked.unsupported.map { attribute in
                        "\(attribute.name)=\(attribute.values.map { $0.stringValue ?? $0.integerValue.map(String.init) ?? "\($0)" }.joined(separator: ","))"
                    }))
        }
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            return .failure(.output(outputDirectory))
        }
        let detected = DocumentFormat.detect(Array(head))
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let document = DocumentRecord(
            number: 1, name: URL(fileURLWithPath: path).lastPathComponent,
            format: detected ?? "application/octet-stream", detectedFormat: detected, compression: "none",
            size: size, sha256: "", file: path, pages: nil)
        let impressions = ImpressionCollector()
        let job = RenderJob(
            jobID: 0, folder: URL(fileURLWithPath: outputDirectory).standardizedFileURL.path, documents: [document],
            ticket: checked.accepted, printerAttributes: cache.attributes)
        switch renderer.render(
            job, password: nil, onImpression: impressions.add, onWarning: onWarning, isCanceled: { false })
        {
        case .completed:
            return .success(impressions.all)
        case .failed(let reason, let message):
            return .failure(.rendering(reason: reason, message: message))
        case .canceled:
            return .failure(.rendering(reason: "job-canceled-by-user", message: "Rendering was canceled."))
        }
    }
}

/// Collects impressions reported from the renderer's thread.
private final class ImpressionCollector: Sendable {
    private let list = Mutex<[PrintedSide]>([])

    @Sendable func add(_ impression: PrintedSide) {
        list.withLock { $0.append(impression) }
    }

    var all: [PrintedSide] { list.withLock { $0 } }
}
