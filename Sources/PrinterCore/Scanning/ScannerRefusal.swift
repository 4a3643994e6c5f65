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
    /// The output folder's disk is below its floor (`--min-free-disk`): 503 with a Retry-After of a minute, as
    /// IPP answers a new print job then with a server error (server-error-not-accepting-jobs, RFC 8011 appendix
    /// B.1.6.7) and HTTP's 503 means "unable to handle the request now, likely to be alleviated after some delay"
    /// (RFC 9110 section 15.6.4). sane-airscan reads a 503 with an Idle ScannerStatus as busy: it asks again ten
    /// times and says `Device busy`; a 409 would only give it `Error during device I/O`.
    case storageFull(String)
    /// The image could not be made (500).
    case imagingFailed(String)

    /// The HTTP status of the answer.
    public var httpStatus: Int {
        switch self {
        case .notFound: 404
        case .invalidSettings, .feederEmpty, .coverOpen, .jammed: 409
        case .busy, .storageFull: 503
        case .imagingFailed: 500
        }
    }

    /// Seconds the answer's Retry-After says; nil for a refusal that asking again does not end.
    public var retryAfterSeconds: Int? {
        switch self {
        case .busy: ScannerDevice.retryAfterSeconds
        case .storageFull: ScannerDevice.storageRetryAfterSeconds
        default: nil
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
        case .storageFull(let why): why
        case .imagingFailed(let why): "The image could not be made: \(why)"
        }
    }
}
