import Foundation
import PrintModel

/// The job filters of `GET /api/v1/jobs`, `GET /api/v1/wait` and `DELETE /api/v1/jobs`, and of `vprinter jobs` and
/// `vprinter wait` (docs/api.md "Queries"). Every filter given must match; a filter with a comma list matches any
/// of its values.
public struct JobQuery: Sendable, Equatable {
    /// A job id (jobs after it) or a time (jobs created at or after it).
    public enum Since: Sendable, Equatable {
        case job(Int)
        case time(Double)

        /// A `since` filter's value: a number from 0 up (`numbers` says what it numbers, for the error) or an
        /// ISO 8601 time.
        static func parse(_ value: String, filter: String, numbers: String) throws(JobQueryError) -> Since {
            if let number = Int(value), number >= 0 { return .job(number) }
            if let time = JobQuery.parseTime(value) { return .time(time) }
            throw .badValue(
                filter: filter, value: value, expected: "\(numbers) or an ISO 8601 time such as 2026-01-31T12:00:00Z")
        }
    }

    /// The filter names, as query parameters and (with `--`) command-line options.
    public static let filterNames = [
        "printer", "name", "user", "state", "format", "media", "sides", "color-mode", "text", "since",
    ]
    /// The longest `text` filter, in characters.
    public static let maximumTextLength = 1024

    /// printer-name, exactly.
    public var printer: String?
    /// job-name, exactly.
    public var name: String?
    /// job-originating-user-name, exactly.
    public var user: String?
    /// job-state keywords, `ended` (completed, canceled, aborted) or `active`.
    public var states: [String]?
    /// Document formats (MIME types); a job matches when any of its documents has one.
    public var formats: [String]?
    /// Media: PWG self-describing names (matched by size) or size names such as `a4`, `letter`.
    public var media: [String]?
    /// sides keywords, or `two-sided` for either two-sided one.
    public var sides: [String]?
    /// print-color-mode keywords, matched against the one asked for (or the default) and the one printed.
    public var colorModes: [String]?
    /// Text on any printed side: case-insensitive, runs of white space equal to one space.
    public var text: String?
    public var since: Since?

    /// No filter: every job.
    public init() {}

    /// True when no filter is set.
    public var isEmpty: Bool { self == JobQuery() }

    /// Parses `parameters` (name, value pairs). Names in `otherNames` (such as `count` and `timeout` of wait) are
    /// skipped; any other unknown name is an error, so that a misspelt filter does not silently match everything.
    public init(parameters: [(name: String, value: String)], otherNames: Set<String> = []) throws(JobQueryError) {
        var seen: Set<String> = []
        for (name, value) in parameters {
            if otherNames.contains(name) { continue }
            guard Self.filterNames.contains(name) else { throw .unknownFilter(name) }
            guard !seen.contains(name) else { throw .repeated(name) }
            seen.insert(name)
            guard !value.isEmpty else { throw .badValue(filter: name, value: value, expected: "a value") }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(JobQueryError) {
        let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        switch name {
        case "printer": printer = value
        case "name": self.name = value
        case "user": user = value
        case "state":
            let allowed = Set(JobState.allCases.map(\.keyword) + ["ended", "active"])
            for state in list where !allowed.contains(state) {
                throw .badValue(filter: name, value: state, expected: "a job-state keyword, ended or active")
            }
            states = list
        case "format":
            var formats: [String] = []
            for format in list {
                guard let mime = Self.formatAliases[format] ?? (format.contains("/") ? format : nil) else {
                    throw .badValue(
                        filter: name, value: format,
                        expected: "a MIME type or one of " + Self.formatAliases.keys.sorted().joined(separator: ", "))
                }
                formats.append(mime)
            }
            self.formats = formats
        case "media":
            for medium in list where !medium.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) {
                throw .badValue(
                    filter: name, value: medium, expected: "a PWG media name such as iso_a4_210x297mm or a4")
            }
            media = list
        case "sides":
            let allowed: Set = ["one-sided", "two-sided-long-edge", "two-sided-short-edge", "two-sided"]
            for side in list where !allowed.contains(side) {
                throw .badValue(filter: name, value: side, expected: allowed.sorted().joined(separator: ", "))
            }
            sides = list
        case "color-mode":
            for mode in list where !Self.colorModeKeywords.contains(mode) {
                throw .badValue(
                    filter: name, value: mode, expected: Self.colorModeKeywords.sorted().joined(separator: ", "))
            }
            colorModes = list
        case "text":
            guard value.count <= Self.maximumTextLength else {
                throw .badValue(
                    filter: name, value: String(value.prefix(40)) + "…",
                    expected: "at most \(Self.maximumTextLength) characters")
            }
            text = value
        case "since": since = try .parse(value, filter: name, numbers: "a job id")
        default: throw .unknownFilter(name)
        }
    }

    /// Short names of document formats.
    static let formatAliases: [String: String] = [
        "pdf": "application/pdf", "pwg": "image/pwg-raster", "pwg-raster": "image/pwg-raster", "urf": "image/urf",
        "jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "pclm": "application/pclm",
        "postscript": "application/postscript", "ps": "application/postscript",
    ]

    /// print-color-mode keywords (PWG 5100.13 section 6.2.3).
    static let colorModeKeywords: Set<String> = [
        "auto", "auto-monochrome", "bi-level", "color", "highlight", "monochrome", "process-bi-level",
        "process-monochrome",
    ]

    /// ISO 8601 date and time with a zone (`Z` or `+01:00`), with or without fractions of a second.
    static func parseTime(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// The filters as query parameters, in the order of ``filterNames`` (for the command line's wait).
    public var parameters: [(name: String, value: String)] {
        var result: [(String, String)] = []
        if let printer { result.append(("printer", printer)) }
        if let name { result.append(("name", name)) }
        if let user { result.append(("user", user)) }
        if let states { result.append(("state", states.joined(separator: ","))) }
        if let formats { result.append(("format", formats.joined(separator: ","))) }
        if let media { result.append(("media", media.joined(separator: ","))) }
        if let sides { result.append(("sides", sides.joined(separator: ","))) }
        if let colorModes { result.append(("color-mode", colorModes.joined(separator: ","))) }
        if let text { result.append(("text", text)) }
        switch since {
        case .job(let id)?: result.append(("since", String(id)))
        case .time(let time)?:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            result.append(("since", formatter.string(from: Date(timeIntervalSince1970: time))))
        case nil: break
        }
        return result
    }
}

/// A query that cannot be applied.
public enum JobQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A parameter that is not a filter; `known` lists the filters there are.
    case unknownFilter(String, known: [String] = JobQuery.filterNames)
    /// A filter given twice.
    case repeated(String)
    /// A value the filter does not take.
    case badValue(filter: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknownFilter(let name, let known):
            "unknown filter '\(name)' (filters: \(known.joined(separator: ", ")))"
        case .repeated(let name): "the filter \(name) is given twice; use a comma list"
        case .badValue(let filter, let value, let expected): "\(filter)=\(value): expected \(expected)"
        }
    }
}
