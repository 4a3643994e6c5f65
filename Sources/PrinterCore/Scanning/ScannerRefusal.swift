/// Why the scanner does not do what a request asks, and the HTTP status a real eSCL scanner answers it with.
public enum ScannerRefusal: Error, Sendable, Equatable {
    /// No such scan job, or one with no more images (404 Not Found ends a client's NextDocument loop).
    case notFound
    /// Scan settings the scanner does not offer (409 Conflict).
    case invalidSettings(String)
    /// The feeder is empty (409 Conflict, with ScannerAdfEmpty in ScannerStatus).
    case feederEmpty
    /// The cover is open (409 Conflict, ScannerAdfDoorOpen).
    case coverOpen
    /// A sheet jammed: the job is aborted (409 Conflict, ScannerAdfJam).
    case jammed
    /// Busy (503 Service Unavailable with Retry-After).
    case busy
    /// The image could not be made (500).
    case imagingFailed(String)

    /// The HTTP status of the answer.
    public var httpStatus: Int {
        switch self {
        case .notFound: 404
        case .invalidSettings, .feederEmpty, .coverOpen, .jammed: 409
        case .busy: 503
        case .imagingFailed: 500
        }
    }

    /// What the answer's body says.
    public var message: String {
        switch self {
        case .notFound: "No such scan job, or no more images in it."
        case .invalidSettings(let why): why
        case .feederEmpty: "The document feeder is empty."
        case .coverOpen: "The scanner's cover is open."
        case .jammed: "A sheet is jammed in the document feeder."
        case .busy: "The scanner is busy."
        case .imagingFailed(let why): "The image could not be made: \(why)"
        }
    }
}
