import PrintModel
import Scanner

/// The scan job filters of `GET /api/v1/scans` and `GET /api/v1/scans/wait` (docs/api.md "Scans"), read and
/// refused as the job filters are (``JobQuery``): every filter given must match, a comma list matches any of its
/// values, and an unknown, repeated or empty filter is an error.
public struct ScanQuery: Sendable, Equatable {
    /// The filter names, as query parameters.
    public static let filterNames = ["printer", "state", "source", "format", "color-mode", "client", "since"]

    /// The printer's name, exactly.
    public var printer: String?
    /// Scan job states, lowercased (`completed`...), `ended` (completed, canceled, aborted) or `active`.
    public var states: [String]?
    /// `platen` or `feeder`.
    public var sources: [String]?
    /// The image formats, as MIME types.
    public var formats: [String]?
    /// eSCL color modes, lowercased (`rgb24`, `grayscale8`, `blackandwhite1`).
    public var colorModes: [String]?
    /// The client's address, exactly.
    public var client: String?
    /// A scan job number (the jobs after it) or a time (the jobs made then or later).
    public var since: JobQuery.Since?

    /// No filter: every scan job.
    public init() {}

    /// Parses `parameters`; names in `otherNames` (`count` and `timeout` of wait) are skipped.
    public init(parameters: [(name: String, value: String)], otherNames: Set<String> = []) throws(JobQueryError) {
        var seen: Set<String> = []
        for (name, value) in parameters where !otherNames.contains(name) {
            guard Self.filterNames.contains(name) else { throw .unknownFilter(name, known: Self.filterNames) }
            guard seen.insert(name).inserted else { throw .repeated(name) }
            guard !value.isEmpty else { throw .badValue(filter: name, value: value, expected: "a value") }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(JobQueryError) {
        let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        func check(_ allowed: [String]) throws(JobQueryError) -> [String] {
            for item in list where !allowed.contains(item) {
                throw .badValue(filter: name, value: item, expected: allowed.joined(separator: ", "))
            }
            return list
        }
        switch name {
        case "printer": printer = value
        case "client": client = value
        case "state":
            states = try check(
                [ScanJob.State.processing, .completed, .canceled, .aborted].map { $0.rawValue.lowercased() }
                    + ["ended", "active"])
        case "source": sources = try check(["platen", "feeder"])
        case "format":
            let aliases = ["jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "pdf": "application/pdf"]
            formats = try check(ScanPage.Format.allCases.map(\.rawValue) + aliases.keys.sorted()).map {
                aliases[$0] ?? $0
            }
        case "color-mode": colorModes = try check(ScanPage.ColorMode.allCases.map { $0.rawValue.lowercased() })
        case "since": since = try .parse(value, filter: name, numbers: "a scan job number")
        default: throw .unknownFilter(name, known: Self.filterNames)
        }
    }

    /// Whether `job` passes every filter.
    public func matches(_ job: ScanJob) -> Bool {
        if let printer, job.printer != printer { return false }
        if let client, job.client != client { return false }
        if let states {
            let state = job.state.rawValue.lowercased()
            guard states.contains(state) || states.contains(job.state.isEnded ? "ended" : "active") else {
                return false
            }
        }
        if let sources, !sources.contains(job.settings.source.rawValue.lowercased()) { return false }
        if let formats, !formats.contains(job.settings.format.rawValue) { return false }
        if let colorModes, !colorModes.contains(job.settings.colorMode.rawValue.lowercased()) { return false }
        switch since {
        case .job(let number)?: if job.number <= number { return false }
        case .time(let time)?: if job.createdSeconds < time { return false }
        case nil: break
        }
        return true
    }
}
