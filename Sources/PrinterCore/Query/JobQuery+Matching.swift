import Foundation
import PrintModel
import Profiles

extension JobQuery {
    /// What the filters look at in a job, taken from a job in memory or from a record on disk.
    public struct Subject: Sendable, Equatable {
        public var id: Int
        public var printer: String
        public var name: String
        public var user: String
        public var state: String
        /// The document formats (detected, else declared), lowercased.
        public var formats: [String]
        /// The media printed on: a PWG name.
        public var media: String
        /// The sides printed with.
        public var sides: String
        /// The print-color-mode asked for (or the printer's default) and the one the sides were rendered in.
        public var colorModes: [String]
        /// When the job was created, seconds since 1970.
        public var created: Double

        public init(
            id: Int, printer: String, name: String, user: String, state: String, formats: [String], media: String,
            sides: String, colorModes: [String], created: Double
        ) {
            self.id = id
            self.printer = printer
            self.name = name
            self.user = user
            self.state = state
            self.formats = formats
            self.media = media
            self.sides = sides
            self.colorModes = colorModes
            self.created = created
        }
    }

    /// True when `subject` passes every filter but `text` (which needs the sides' text: ``matches(text:)``).
    public func matches(_ subject: Subject) -> Bool {
        if let printer, subject.printer != printer { return false }
        if let name, subject.name != name { return false }
        if let user, subject.user != user { return false }
        if let states, !states.contains(where: { Self.state(subject.state, is: $0) }) { return false }
        if let formats, !subject.formats.contains(where: formats.contains) { return false }
        if let media, !media.contains(where: { Self.medium(subject.media, is: $0) }) { return false }
        if let sides {
            let matched = sides.contains {
                $0 == subject.sides || ($0 == "two-sided" && subject.sides.hasPrefix("two-sided"))
            }
            if !matched { return false }
        }
        if let colorModes, !subject.colorModes.contains(where: colorModes.contains) { return false }
        switch since {
        case .job(let id)?: if subject.id <= id { return false }
        case .time(let time)?: if subject.created < time { return false }
        case nil: break
        }
        return true
    }

    /// True when the `text` filter is unset or found on one of `sides` (the texts of a job's printed sides).
    public func matches(text sides: [String]) -> Bool {
        guard let text else { return true }
        let needle = Self.normalized(text)
        return sides.contains { Self.normalized($0).contains(needle) }
    }

    /// Lowercased, with every run of white space (spaces, line breaks, form feeds) turned into one space.
    static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    package static func state(_ state: String, is filter: String) -> Bool {
        switch filter {
        case "ended": ["completed", "canceled", "aborted"].contains(state)
        case "active": !["completed", "canceled", "aborted"].contains(state)
        default: state == filter
        }
    }

    /// A job's media against one media filter: equal names, equal size names (`a4`), or equal sizes within 1 mm.
    static func medium(_ media: String, is filter: String) -> Bool {
        let media = media.lowercased()
        if media == filter { return true }
        let size = MediaSize(pwgName: media)
        if let size, size.sizeName == filter || "\(size.className)_\(size.sizeName)" == filter { return true }
        if let size, let wanted = MediaSize(pwgName: filter) {
            let tolerance = Int32(100)
            return (abs(size.width - wanted.width) <= tolerance && abs(size.height - wanted.height) <= tolerance)
                || (abs(size.width - wanted.height) <= tolerance && abs(size.height - wanted.width) <= tolerance)
        }
        return false
    }
}

extension JobQuery.Subject {
    /// The subject of a job record as `job.json` holds it (docs/job-record.md); nil for a record without an id.
    public init(record: JobRecord) {
        let attributes = record.attributes
        var media = record.mediaActual ?? attributes["media"]?.stringValue ?? ""
        if media.isEmpty, let size = attributes["media-col"]?["media-size"],
            let x = size["x-dimension"]?.intValue, let y = size["y-dimension"]?.intValue
        {
            media =
                MediaSize(
                    className: "custom", sizeName: "printed", width: Int32(clamping: x), height: Int32(clamping: y),
                    unit: .millimetres
                ).name
        }
        let requestedMode = attributes["print-color-mode"]?.stringValue
        self.init(
            id: record.jobID, printer: record.printerName, name: record.jobName, user: record.jobOriginatingUserName,
            state: record.jobState.keyword,
            formats: record.documents.map { $0.effectiveFormat.rawValue.lowercased() },
            media: media, sides: record.sidesActual ?? attributes["sides"]?.stringValue ?? "one-sided",
            colorModes: [requestedMode, record.printColorModeActual].compactMap { $0 },
            created: JobQuery.parseTime(record.times.created) ?? 0)
    }
}
