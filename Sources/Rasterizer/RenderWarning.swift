import Synchronization

/// Something wrong with a document that still printed: reported with the job (its record's `warnings`), never
/// a reason to fail it.
public struct RenderWarning: Sendable, Equatable {
    /// What kind of problem it is.
    public enum Kind: String, Sendable {
        /// Poppler reported a syntax error, an I/O error or an unimplemented feature while reading the PDF.
        case pdf
        /// A PWG or Apple Raster page was made for another size than the job's media.
        case rasterPageSize = "raster-page-size"
        /// A PWG or Apple Raster page asks for other sides (Duplex, Tumble) than the job prints with.
        case rasterDuplex = "raster-duplex"
    }

    /// The most warnings one job reports; the rest are counted in a last warning.
    public static let maximumPerJob = 50
    /// A raster page and the job's media agree when both sides are within this many hundredths of a millimetre
    /// (pixel rounding at low resolutions, inch and millimetre names of one size).
    public static let pageSizeTolerance = 100

    public var kind: Kind
    /// 1-based document number in the job.
    public var document: Int
    /// 1-based page number in the document, when the problem is on one page.
    public var page: Int?
    /// What is wrong, for a person.
    public var message: String

    public init(kind: Kind, document: Int, page: Int? = nil, message: String) {
        self.kind = kind
        self.document = document
        self.page = page
        self.message = message
    }
}

/// The warnings of one job as they are found, from any render thread: each distinct message once, at most
/// ``RenderWarning/maximumPerJob``, handed on at once.
final class WarningLog: Sendable {
    private struct State {
        var seen: Set<String> = []
        var dropped = 0
        var lastDocument = 1
    }

    private let state = Mutex(State())
    private let deliver: @Sendable (RenderWarning) -> Void

    init(deliver: @escaping @Sendable (RenderWarning) -> Void) {
        self.deliver = deliver
    }

    /// Reports `warning` unless the same one was reported already or the job has reached the maximum.
    func report(_ warning: RenderWarning) {
        let isNew = state.withLock { state in
            let key = "\(warning.kind.rawValue) \(warning.document) \(warning.message)"
            guard !state.seen.contains(key) else { return false }
            guard state.seen.count < RenderWarning.maximumPerJob else {
                state.dropped += 1
                state.lastDocument = warning.document
                return false
            }
            state.seen.insert(key)
            return true
        }
        if isNew { deliver(warning) }
    }

    /// Reports how many warnings were left out, if any (called once the job is rendered).
    func finish() {
        let (dropped, document) = state.withLock { ($0.dropped, $0.lastDocument) }
        guard dropped > 0 else { return }
        deliver(
            RenderWarning(
                kind: .pdf, document: document,
                message: "\(dropped) more warnings were left out (at most \(RenderWarning.maximumPerJob) a job)"))
    }
}
