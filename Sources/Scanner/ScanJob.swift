import PrintModel

/// A scan job (eSCL ScanJobs/{uuid}): its settings, the images it delivers and how it ended. The scanner keeps it
/// and writes it as the job's record (`scan.json`, docs/scanning.md).
public struct ScanJob: Sendable, Equatable, Codable {
    /// The eSCL job states a scan job passes through (pwg:JobState).
    public enum State: String, Sendable, Codable {
        case processing = "Processing"
        case completed = "Completed"
        case canceled = "Canceled"
        case aborted = "Aborted"

        /// True once the job delivers no more images.
        public var isEnded: Bool { self != .processing }
    }

    /// One image the job delivered (eSCL NextDocument).
    public struct Image: Sendable, Equatable, Codable {
        /// The image's number in the job, from 1.
        public var number: Int
        /// The file in the job's folder.
        public var file: String
        /// The sheet it was scanned from, from 1 (one for the platen).
        public var sheet: Int
        /// `front` or `back`.
        public var side: String
        public var width: Int
        public var height: Int
        public var bytes: Int

        public init(number: Int, file: String, sheet: Int, side: String, width: Int, height: Int, bytes: Int) {
            self.number = number
            self.file = file
            self.sheet = sheet
            self.side = side
            self.width = width
            self.height = height
            self.bytes = bytes
        }
    }

    /// The job's number on its scanner, from 1.
    public var number: Int
    /// The UUID in its URL and in ScannerStatus (pwg:JobUuid).
    public var uuid: String
    /// The settings used: what the client asked for, the scanner's defaults for what it left out.
    public var settings: ScanSettings
    /// What the client's ScanSettings said, as it said it (nil in records written before it was kept).
    public var settingsAsked: ScanSettings.Asked?
    /// When it was made (ISO 8601, UTC).
    public var created: String
    /// Seconds since the epoch when it was made, for its age in ScannerStatus.
    public var createdSeconds: Double
    /// The images it delivers in all: one from the platen, one a side of every sheet in the feeder.
    public var imagesPlanned: Int
    public var images: [Image]
    public var state: State
    /// pwg:JobStateReason: JobScanning, JobCompletedSuccessfully, JobCanceledByUser, or the fault that ended it.
    public var reason: String
    /// Why an aborted job ended, as a person reads it.
    public var message: String?
    /// Who asked for it (the client's address), as the request journal names clients.
    public var client: String?
    /// The user who made it, when credentials are asked for (`--user`): only they and admins see it, its images
    /// and its record, as with print jobs (docs/security.md "Credentials and admins"); nil without credentials.
    public var user: String?
    /// The name of the printer whose scanner made it.
    public var printer: String?
    /// Seconds since the epoch of the last thing a client did with it (made it, fetched an image), while it
    /// scans: the scanner drops it ``ScannerDevice/abandonedJobTimeout`` seconds after. Not recorded: a job
    /// read again from its record has ended.
    public var lastActivitySeconds: Double? = nil

    public init(
        number: Int, uuid: String, settings: ScanSettings, created: String, createdSeconds: Double,
        imagesPlanned: Int, client: String?
    ) {
        self.number = number
        self.uuid = uuid
        self.settings = settings
        self.created = created
        self.createdSeconds = createdSeconds
        self.imagesPlanned = imagesPlanned
        images = []
        state = .processing
        reason = "JobScanning"
        self.client = client
    }

    enum CodingKeys: String, CodingKey {
        case number = "scan-id", uuid, settings, settingsAsked = "settings-asked", created
        case createdSeconds = "created-seconds"
        case imagesPlanned = "images-planned", images, state, reason, message, client, user, printer
    }

    /// The sheet and side of image `number` (from 1): two sides a sheet when scanning duplex.
    public func sheetAndSide(ofImage number: Int) -> (sheet: Int, side: String) {
        guard settings.duplex else { return (number, "front") }
        return ((number + 1) / 2, number % 2 == 1 ? "front" : "back")
    }

    /// Images made and not yet fetched: none, as each is made when it is asked for.
    public var imagesToTransfer: Int { state.isEnded ? 0 : imagesPlanned - images.count }
}
