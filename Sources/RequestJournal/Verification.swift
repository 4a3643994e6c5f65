import PrintModel

/// A question about the journal that passes or fails, as `POST /api/v1/requests/verify` and `vprinter verify` ask
/// it: how many requests match a matcher (`count`, `atLeast`, `atMost`; at least one when none is given), or
/// whether requests matching each matcher of a `sequence` came in that order (others may come between). `since`
/// (a request number) leaves the earlier requests out. On a failure the result names the requests that came
/// closest and the part of the matcher each missed.
public struct Verification: Sendable, Hashable {
    public enum Question: Sendable, Hashable {
        /// How many requests match.
        case count(RequestMatcher, atLeast: Int, atMost: Int?)
        /// Requests matching each matcher, in this order.
        case sequence([RequestMatcher])
    }

    public var question: Question
    /// Only requests with a higher number count.
    public var since: Int?

    public init(question: Question, since: Int? = nil) {
        self.question = question
        self.since = since
    }

    /// The most near misses a failed verification lists.
    public static let nearMissLimit = 5

    /// The answer for the journal's entries, oldest first.
    public func evaluate(_ journal: [JournalEntry]) -> VerificationResult {
        let entries = since.map { since in journal.filter { $0.id > since } } ?? journal
        switch question {
        case .count(let matcher, let atLeast, let atMost):
            let matched = entries.filter(matcher.matches)
            let expected = Self.describe(atLeast: atLeast, atMost: atMost)
            let pass = matched.count >= atLeast && atMost.map { matched.count <= $0 } != false
            let found = "\(matched.count) matching request\(matched.count == 1 ? "" : "s")"
            let message = pass ? "\(found), \(expected)" : "\(found), expected \(expected)"
            let nearMisses = pass || matched.count > (atMost ?? .max) ? [] : Self.nearMisses(matcher, in: entries)
            return VerificationResult(
                pass: pass, matched: matched.count, expected: expected, requests: matched.map(\.id),
                nearMisses: nearMisses, message: message)
        case .sequence(let matchers):
            var found: [Int] = []
            var rest = entries[...]
            for (step, matcher) in matchers.enumerated() {
                guard let index = rest.firstIndex(where: matcher.matches) else {
                    let after = found.last.map { " after request \($0)" } ?? ""
                    return VerificationResult(
                        pass: false, matched: step, expected: "\(matchers.count) requests in order",
                        requests: found, nearMisses: Self.nearMisses(matcher, in: rest),
                        message: "step \(step + 1) of \(matchers.count) matched no request\(after)")
                }
                found.append(rest[index].id)
                rest = rest[(index + 1)...]
            }
            return VerificationResult(
                pass: true, matched: matchers.count, expected: "\(matchers.count) requests in order", requests: found,
                nearMisses: [], message: "\(matchers.count) requests in order")
        }
    }

    /// The requests that miss the fewest parts of the matcher, the latest first among equals: the best
    /// `nearMissLimit` kept while scanning (each entry put in its place among them, or passed over), never a list of
    /// every miss to sort.
    static func nearMisses(_ matcher: RequestMatcher, in entries: some Sequence<JournalEntry>) -> [NearMiss] {
        var best: [NearMiss] = []
        best.reserveCapacity(nearMissLimit + 1)
        func rank(_ missed: Int, _ id: Int) -> (Int, Int) { (missed, -id) }
        for entry in entries {
            let missed = matcher.misses(entry)
            guard !missed.isEmpty else { continue }
            let own = rank(missed.count, entry.id)
            if best.count == nearMissLimit, let worst = best.last, own >= rank(worst.missed.count, worst.id) {
                continue
            }
            let place = best.firstIndex { own < rank($0.missed.count, $0.id) } ?? best.count
            best.insert(NearMiss(entry, missed: missed), at: place)
            if best.count > nearMissLimit { best.removeLast() }
        }
        return best
    }

    static func describe(atLeast: Int, atMost: Int?) -> String {
        switch atMost {
        case atLeast?: "exactly \(atLeast)"
        case let most?: atLeast == 0 ? "at most \(most)" : "\(atLeast) to \(most)"
        case nil: "at least \(atLeast)"
        }
    }
}

/// The answer to a verification.
public struct VerificationResult: Sendable, Hashable, Codable {
    public var pass: Bool
    /// Requests that matched (the steps met, for a sequence).
    public var matched: Int
    /// What was asked, in words: `exactly 2`, `at least 1`, `3 requests in order`.
    public var expected: String
    /// The numbers of the requests that matched.
    public var requests: [Int]
    /// On a failure, the requests that came closest.
    public var nearMisses: [NearMiss]
    /// One line saying what happened.
    public var message: String
}

/// A request that missed a matcher, and how.
public struct NearMiss: Sendable, Hashable, Codable {
    public var id: Int
    public var time: String
    public var operation: String?
    public var printer: String?
    /// Each part of the matcher it missed.
    public var missed: [String]

    init(_ entry: JournalEntry, missed: [String]) {
        id = entry.id
        time = entry.time
        operation = entry.ipp?.operation ?? "\(entry.http.method) \(entry.http.path)"
        printer = entry.printer
        self.missed = missed
    }
}
