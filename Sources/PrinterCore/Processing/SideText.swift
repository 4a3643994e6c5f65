import Dispatch
import PrintModel
import Synchronization

/// The text of one printed side (`GET /api/v1/jobs/<id>/text`).
public struct SideText: Sendable, Equatable {
    /// 1-based impression number.
    public var number: Int
    /// The side's PNG file.
    public var file: String
    /// The side's text file, once it exists.
    public var textFile: String?
    /// How the text is obtained: `pdf` (the PDF pages' text, written with the side) or `ocr` (read from the
    /// PNG on first request).
    public var source: PrintedSide.TextSource
    /// The text; nil when it could not be had, with `message` saying why.
    public var text: String?
    public var message: String?

    public init(
        number: Int, file: String, textFile: String?, source: PrintedSide.TextSource, text: String?, message: String?
    ) {
        self.number = number
        self.file = file
        self.textFile = textFile
        self.source = source
        self.text = text
        self.message = message
    }
}

/// The side texts read so far, by job and side, so that text queries and waits do not read files again; and the
/// OCR runs in progress, so that two requests for the same job's text start one.
package final class SideTextStore: Sendable {
    /// Characters kept at most; past this the store starts over (the files stay on disk).
    static let maximumCharacters = 64 << 20

    private struct State {
        var texts: [Int: [Int: String]] = [:]
        var characters = 0
        var running: [Int: DispatchGroup] = [:]
    }

    private let state = Mutex(State())

    /// The stored text of side `number` of job `jobID`.
    package func text(jobID: Int, number: Int) -> String? {
        state.withLock { $0.texts[jobID]?[number] }
    }

    /// Stores a side's text.
    func store(_ text: String, jobID: Int, number: Int) {
        state.withLock { state in
            if state.characters + text.utf8.count > Self.maximumCharacters {
                state.texts.removeAll()
                state.characters = 0
            }
            state.texts[jobID, default: [:]][number] = text
            state.characters += text.utf8.count
        }
    }

    /// Forgets the texts of jobs that were deleted.
    func forget(_ jobIDs: some Sequence<Int>) {
        state.withLock { state in
            for id in jobIDs {
                state.characters -= state.texts.removeValue(forKey: id)?.values.reduce(0) { $0 + $1.utf8.count } ?? 0
            }
        }
    }

    /// Runs `work` for job `jobID` unless a run for it is in progress, in which case this waits for that run to
    /// end instead (and `work` is not called).
    func once(jobID: Int, _ work: () -> Void) {
        enum Role {
            case run(DispatchGroup)
            case wait(DispatchGroup)
        }
        let role: Role = state.withLock { state in
            if let running = state.running[jobID] { return .wait(running) }
            let group = DispatchGroup()
            group.enter()
            state.running[jobID] = group
            return .run(group)
        }
        switch role {
        case .wait(let group):
            group.wait()
        case .run(let group):
            work()
            state.withLock { _ = $0.running.removeValue(forKey: jobID) }
            group.leave()
        }
    }

    /// The number of characters stored (for tests of the limit).
    var characterCount: Int { state.withLock { $0.characters } }
}
