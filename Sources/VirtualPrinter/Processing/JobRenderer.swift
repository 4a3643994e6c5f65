import IPP

/// Turns a job's stored documents into page images. `VirtualPrinter` defines it; the `vprinter` tool wires in
/// the worker-process implementation. Without one, a job completes once its documents are stored.
public protocol JobRenderer: Sendable {
    /// Renders every document of a job into its folder; called on a scheduler worker thread.
    ///
    /// - Parameters:
    ///   - onImpression: called as each side is written, so the job's counts are live.
    ///   - isCanceled: polled between pages; when true, the renderer stops early.
    func render(
        _ job: RenderJob, password: String?, onImpression: @Sendable (ImpressionRecord) -> Void,
        isCanceled: @escaping @Sendable () -> Bool
    ) -> RenderOutcome
}

/// What a renderer needs to know about a job.
public struct RenderJob: Sendable {
    public var jobID: Int
    public var folder: String
    public var documents: [DocumentRecord]
    /// The job template attributes as accepted.
    public var ticket: [IPPAttribute]
    /// The printer's static attributes, for defaults (media-col-default, sides-default...).
    public var printerAttributes: [String: IPPAttribute]
}

/// How rendering ended.
public enum RenderOutcome: Sendable, Equatable {
    /// Every document rendered; the number of pages of each document.
    case completed(pages: [Int])
    /// Rendering failed; `reason` is a job-state-reasons keyword such as `document-format-error`.
    case failed(reason: String, message: String)
    /// Stopped because the job was canceled.
    case canceled
}
