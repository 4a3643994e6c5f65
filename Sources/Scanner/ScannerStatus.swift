/// What a scanner says of itself (eSCL ScannerStatus): its state, its feeder's, and its recent jobs.
public struct ScannerStatus: Sendable, Equatable {
    /// pwg:State.
    public enum State: String, Sendable {
        case idle = "Idle"
        case processing = "Processing"
        case stopped = "Stopped"
    }

    public var state: State
    /// scan:AdfState (ScannerAdfLoaded, ScannerAdfEmpty, ScannerAdfJam, ScannerAdfDoorOpen...); nil without a
    /// feeder.
    public var feederState: String?
    /// The jobs to list, newest first.
    public var jobs: [ScanJob]

    public init(state: State, feederState: String?, jobs: [ScanJob]) {
        self.state = state
        self.feederState = feederState
        self.jobs = jobs
    }

    /// The ScannerStatus document (Mopria eSCL section 8.1.5); `jobPath` gives a job's URL path, `now` the time
    /// in seconds since the epoch.
    public func xml(jobPath: (ScanJob) -> String, now: Double) -> String {
        ESCLXML.document("scan:ScannerStatus") { xml in
            xml.element("pwg:Version", ScannerCapabilities.version)
            xml.element("pwg:State", state.rawValue)
            if let feederState { xml.element("scan:AdfState", feederState) }
            xml.element("scan:Jobs") { xml in
                for job in jobs {
                    xml.element("scan:JobInfo") { xml in
                        xml.element("pwg:JobUri", jobPath(job))
                        xml.element("pwg:JobUuid", job.uuid)
                        xml.element("scan:Age", max(0, Int(now - job.createdSeconds)))
                        xml.element("pwg:ImagesCompleted", job.images.count)
                        xml.element("pwg:ImagesToTransfer", job.imagesToTransfer)
                        xml.element("pwg:JobState", job.state.rawValue)
                        xml.element("pwg:JobStateReasons") { $0.element("pwg:JobStateReason", job.reason) }
                    }
                }
            }
        }
    }
}
