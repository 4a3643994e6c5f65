/// Get-Printer-Attributes answers already encoded, static and dynamic attributes together, so that a client
/// polling the printer (every print dialog does, and a fleet test does thousands of times a second) is answered
/// with one copy of bytes instead of the printer's state built and encoded again.
///
/// An answer depends on what was asked (requested-attributes), how the printer was reached (the Host, TLS) and the
/// client's language (printer-strings-uri),
/// and on the moment: the printer's status revision, its static attributes, and the clock to the resolution
/// of the attributes that carry it (printer-current-time in tenths of a second, printer-up-time in seconds).
/// Answers are kept for one moment only: the first request of a new moment drops them all. They are kept per
/// thread stripe (`ThreadStriped`), so that connections answered at once do not queue for one lock; each stripe
/// makes its own answer once per moment.
final class PrinterAttributeAnswers: Sendable {
    /// What a request asked for and how it reached the printer.
    struct Question: Hashable, Sendable {
        var requested: [String]
        var authority: String
        var isEncrypted: Bool
        /// The language of printer-strings-uri (`PrinterStrings.language(for:)`).
        var language: String
    }

    /// What an answer was made from besides the question.
    struct Moment: Equatable, Sendable {
        var revision: UInt64
        /// Held, not only named: a replaced cache's address may be reused by the next.
        var attributes: PrinterAttributeCache
        /// Tenths of a second since 1970 (printer-current-time's resolution).
        var tenth: Int64
        /// printer-up-time.
        var upTime: Int32

        static func == (a: Moment, b: Moment) -> Bool {
            a.revision == b.revision && a.attributes === b.attributes && a.tenth == b.tenth && a.upTime == b.upTime
        }
    }

    private struct State: Sendable {
        var moment: Moment?
        var answers: [Question: [UInt8]] = [:]
    }

    /// At most this many differently asked answers are kept at one moment; past it they are dropped and kept anew.
    static let maximumQuestions = 32

    private let state = ThreadStriped { State() }

    /// The answer to a question at a moment, when one was stored for both.
    func answer(to question: Question, at moment: Moment) -> [UInt8]? {
        state.withLock { state in state.moment == moment ? state.answers[question] : nil }
    }

    /// Keeps an answer; one of an older moment than the one kept is dropped, one of a newer moment replaces them.
    func store(_ answer: [UInt8], to question: Question, at moment: Moment) {
        state.withLock { state in
            if state.moment != moment {
                // A request that read the status before a change may finish after one that read it after: the
                // newer revision stays (revisions only grow, and the clock with them).
                if let kept = state.moment, kept.revision > moment.revision || kept.tenth > moment.tenth {
                    return
                }
                state.moment = moment
                state.answers.removeAll(keepingCapacity: true)
            }
            if state.answers.count >= Self.maximumQuestions { state.answers.removeAll(keepingCapacity: true) }
            state.answers[question] = answer
        }
    }
}
