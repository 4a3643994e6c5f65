/// The journal's times: ISO 8601 in UTC with milliseconds (`2026-12-01T09:30:00.125Z`), one fixed width, so that
/// two times compare as text.
public enum JournalClock {
    /// The text of an instant given as seconds since 1970-01-01T00:00:00Z.
    public static func text(secondsSince1970 seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded(.down))
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: millisecondOfDay < 0 ? days - 1 : days)
        let dayMilliseconds = millisecondOfDay < 0 ? millisecondOfDay + 86_400_000 : millisecondOfDay
        let hour = dayMilliseconds / 3_600_000
        let minute = dayMilliseconds / 60_000 % 60
        let second = dayMilliseconds / 1000 % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))."
            + "\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// An ISO 8601 UTC time a person wrote (`2026-12-01T09:30:00Z`, with or without a fraction of a second) in the
    /// journal's own form; nil when it is not one.
    public static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
            digitsAt.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        var fraction = ""
        if bytes.count > 20 {
            let digits = bytes[20..<(bytes.count - 1)]
            guard bytes[19] == UInt8(ascii: "."), !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return nil }
            fraction = String(decoding: digits.prefix(3), as: UTF8.self)
        } else if bytes.count != 20 {
            return nil
        }
        return String(decoding: bytes[0..<19], as: UTF8.self) + "." + fraction.padding(toLength: 3, with: "0") + "Z"
    }

    /// Year, month and day of a day counted from 1970-01-01 (the proleptic Gregorian calendar; Howard Hinnant's
    /// days-to-civil algorithm).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension String {
    /// The string cut or filled with `character` on the right to `length` characters.
    fileprivate func padding(toLength length: Int, with character: Character) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: character, count: length - count)
    }
}
