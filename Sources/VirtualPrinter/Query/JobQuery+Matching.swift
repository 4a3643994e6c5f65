import Foundation

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

    static func state(_ state: String, is filter: String) -> Bool {
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
    public init?(record: [String: Any]) {
        guard let id = record["job-id"] as? Int else { return nil }
        let attributes = record["attributes"] as? [String: Any] ?? [:]
        let documents = record["documents"] as? [[String: Any]] ?? []
        var media = record["media-actual"] as? String ?? attributes["media"] as? String ?? ""
        if media.isEmpty, let col = attributes["media-col"] as? [String: Any],
            let size = col["media-size"] as? [String: Any], let x = size["x-dimension"] as? Int,
            let y = size["y-dimension"] as? Int
        {
            media =
                MediaSize(
                    className: "custom", sizeName: "printed", width: Int32(clamping: x), height: Int32(clamping: y),
                    unit: .millimetres
                ).name
        }
        let requestedMode = attributes["print-color-mode"] as? String
        let actualMode = record["print-color-mode-actual"] as? String
        let created = ((record["times"] as? [String: Any])?["created"] as? String).flatMap(JobQuery.parseTime) ?? 0
        self.init(
            id: id, printer: record["printer-name"] as? String ?? "", name: record["job-name"] as? String ?? "",
            user: record["job-originating-user-name"] as? String ?? "", state: record["job-state"] as? String ?? "",
            formats: documents.compactMap {
                (($0["document-format-detected"] as? String) ?? ($0["document-format"] as? String))?.lowercased()
            },
            media: media, sides: record["sides-actual"] as? String ?? attributes["sides"] as? String ?? "one-sided",
            colorModes: [requestedMode, actualMode].compactMap { $0 }, created: created)
    }
}
