import PrintModel
import Synchronization

extension JobWarning {
    /// The most warnings one job reports; the rest are counted in a last warning.
    public static let maximumPerJob = 50
    /// A raster page and the job's media agree when both sides are within this many hundredths of a millimetre
    /// (pixel rounding at low resolutions, inch and millimetre names of one size).
    public static let pageSizeTolerance = 100
}

/// The warnings of one job as they are found, from any render thread: each distinct message once, at most
/// ``JobWarning/maximumPerJob``, handed on at once.
final class WarningLog: Sendable {
    private struct State {
        var seen: Set<String> = []
        var dropped = 0
        var lastDocument = 1
    }

    private let state = Mutex(State())
    private let deliver: @Sendable (JobWarning) -> Void

    init(deliver: @escaping @Sendable (JobWarning) -> Void) {
        self.deliver = deliver
    }

    /// Reports `warning` unless the same one was reported already or the job has reached the maximum.
    func report(_ warning: JobWarning) {
        let isNew = state.withLock { state in
            let key = "\(warning.kind.rawValue) \(warning.document ?? 0) \(warning.message)"
            guard !state.seen.contains(key) else { return false }
            guard state.seen.count < JobWarning.maximumPerJob else {
                state.dropped += 1
                state.lastDocument = warning.document ?? state.lastDocument
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
            JobWarning(
                kind: .pdf, document: document,
                message: "\(dropped) more warnings were left out (at most \(JobWarning.maximumPerJob) a job)"))
    }
}
