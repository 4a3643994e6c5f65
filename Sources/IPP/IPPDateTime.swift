/// A `dateTime` value: RFC 2579 DateAndTime as RFC 8010 section 3.9 encodes it in 11 octets.
public struct IPPDateTime: Hashable, Sendable {
    public var year: UInt16
    public var month: UInt8
    public var day: UInt8
    public var hour: UInt8
    public var minutes: UInt8
    public var seconds: UInt8
    public var deciSeconds: UInt8
    /// `+` or `-` (as an ASCII byte) for the direction from UTC.
    public var utcDirection: UInt8
    public var utcHours: UInt8
    public var utcMinutes: UInt8

    public init(
        year: UInt16, month: UInt8, day: UInt8, hour: UInt8, minutes: UInt8, seconds: UInt8,
        deciSeconds: UInt8 = 0, utcDirection: UInt8 = UInt8(ascii: "+"), utcHours: UInt8 = 0, utcMinutes: UInt8 = 0
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minutes = minutes
        self.seconds = seconds
        self.deciSeconds = deciSeconds
        self.utcDirection = utcDirection
        self.utcHours = utcHours
        self.utcMinutes = utcMinutes
    }

    /// The UTC date and time of a number of seconds since 1970-01-01T00:00:00Z.
    public init(secondsSince1970 seconds: Double) {
        // Years 1 to 9999 (RFC 2579); NaN counts as the epoch.
        let t = seconds.isNaN ? 0 : min(max(seconds, -62_135_596_800), 253_402_300_799)
        let whole = Int64(t.rounded(.down))
        var days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        // Civil-from-days (proleptic Gregorian calendar), after H. Hinnant's public-domain algorithm.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(
            year: UInt16(clamping: year), month: UInt8(month), day: UInt8(day),
            hour: UInt8(secondOfDay / 3600), minutes: UInt8(secondOfDay % 3600 / 60), seconds: UInt8(secondOfDay % 60),
            deciSeconds: UInt8(clamping: Int((t - Double(whole)) * 10)))
    }

    /// Seconds since 1970-01-01T00:00:00Z, taking the UTC offset into account.
    public var secondsSince1970: Double {
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        var seconds = days * 86_400 + Int64(hour) * 3600 + Int64(minutes) * 60 + Int64(seconds)
        let offset = Int64(utcHours) * 3600 + Int64(utcMinutes) * 60
        seconds += utcDirection == UInt8(ascii: "-") ? offset : -offset
        return Double(seconds) + Double(deciSeconds) / 10
    }

    /// ISO 8601 form, e.g. `2026-11-29T17:01:19Z` (UTC offsets other than zero are written out).
    public var iso8601: String {
        func two(_ v: UInt8) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let zone: String
        if utcHours == 0 && utcMinutes == 0 {
            zone = "Z"
        } else {
            zone = "\(Character(Unicode.Scalar(utcDirection)))\(two(utcHours)):\(two(utcMinutes))"
        }
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(hour)):\(two(minutes)):\(two(seconds))\(zone)"
    }
}
