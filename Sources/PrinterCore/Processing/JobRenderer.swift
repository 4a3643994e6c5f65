import IPP
import PrintModel

/// Turns a job's stored documents into page images. `VirtualPrinter` defines it; the `vprinter` tool wires in
/// the worker-process implementation. Without one, a job completes once its documents are stored.
public protocol JobRenderer: Sendable {
    /// Renders every document of a job into its folder; called on a scheduler worker thread.
    ///
    /// - Parameters:
    ///   - onImpression: called as each side is written, so the job's counts are live.
    ///   - onWarning: called for each problem found in a document that still prints.
    ///   - isCanceled: polled between pages; when true, the renderer stops early.
    func render(
        _ job: RenderJob, password: String?, onImpression: @Sendable (PrintedSide) -> Void,
        onWarning: @Sendable (JobWarning) -> Void, isCanceled: @escaping @Sendable () -> Bool
    ) -> RenderOutcome

    /// Reads the text of rendered sides by OCR and writes it beside their PNG files (`page-NNNN.txt`); called on
    /// the thread of the request that first asks for the text.
    func recognizeText(folder: String, sides: [RenderRequest.Side]) -> TextRecognitionOutcome

    /// What makes a scanner's images, when this renderer can (the render worker can); nil when it cannot, and a
    /// profile's scanner then has none.
    var scanImaging: (any ScanImaging)? { get }
}

extension JobRenderer {
    /// A renderer without OCR.
    public func recognizeText(folder: String, sides: [RenderRequest.Side]) -> TextRecognitionOutcome {
        .off
    }

    /// The renderer itself, when it makes scanned images too.
    public var scanImaging: (any ScanImaging)? { self as? any ScanImaging }
}

/// How OCR of a job's sides ended.
public enum TextRecognitionOutcome: Sendable, Equatable {
    /// The sides were read: for each side number, the text file written or why the side could not be read.
    case recognized([Int: Result<String, TextRecognitionError>])
    /// OCR is turned off (`--no-ocr`) or the renderer has none.
    case off
    /// OCR could not run at all (the worker failed, no language data).
    case failed(String)
}

/// Why one side's text could not be recognized.
public struct TextRecognitionError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
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

/// Makes the images of scan jobs (``ScanPage``): the `vprinter` tool wires in the render worker; without one a
/// printer offers no scanner.
public protocol ScanImaging: Sendable {
    /// Writes one scanned image; called on the thread of the request that asks for the next image.
    func scan(_ page: ScanPage) -> Result<ScannedImage, ScanImagingError>
}

/// Why a scanned image could not be made (an unreadable source file, a worker that failed).
public struct ScanImagingError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
