import IPP

/// The journal's times: ISO 8601 in UTC with milliseconds (`2026-12-01T09:30:00.125Z`), one fixed width, so that
/// two times compare as text.
public enum JournalClock {
    /// The text of an instant given as seconds since 1970-01-01T00:00:00Z (the calendar is IPPDateTime's).
    public static func text(secondsSince1970 seconds: Double) -> String {
        let wholeSeconds = (seconds * 1000).rounded(.down) / 1000
        let date = IPPDateTime(secondsSince1970: wholeSeconds)
        let milliseconds = Int(((wholeSeconds - wholeSeconds.rounded(.down)) * 1000).rounded())
        // Digits into one buffer: a request's entry is timed on the request's thread.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        for (number, width, separator) in [
            (Int(date.year), 4, "-"), (Int(date.month), 2, "-"), (Int(date.day), 2, "T"), (Int(date.hour), 2, ":"),
            (Int(date.minutes), 2, ":"), (Int(date.seconds), 2, "."), (milliseconds, 3, "Z"),
        ] as [(Int, Int, Unicode.Scalar)] {
            appendDigits(of: number, width: width, to: &text)
            text.append(UInt8(ascii: separator))
        }
        return String(decoding: text, as: UTF8.self)
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

    /// The decimal digits of a number from 0 up, zeros in front to `width` (a wider number keeps all its digits).
    private static func appendDigits(of number: Int, width: Int, to text: inout [UInt8]) {
        var divisor = 1
        var digits = 1
        while digits < width || number / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        var rest = max(0, number)
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

extension String {
    /// The string cut or filled with `character` on the right to `length` characters.
    fileprivate func padding(toLength length: Int, with character: Character) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: character, count: length - count)
    }
}
