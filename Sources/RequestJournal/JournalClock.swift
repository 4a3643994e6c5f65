import IPP

/// The journal's times: ISO 8601 in UTC with milliseconds (`2026-12-01T09:30:00.125Z`), one fixed width, so that
/// two times compare as text.
public enum JournalClock {
    /// The text of an instant given as seconds since 1970-01-01T00:00:00Z (the calendar is IPPDateTime's).
    public static func text(secondsSince1970 seconds: Double) -> String {
        let wholeSeconds = (seconds * 1000).rounded(.down) / 1000
        let date = IPPDateTime(secondsSince1970: wholeSeconds)
        let milliseconds = Int(((wholeSeconds - wholeSeconds.rounded(.down)) * 1000).rounded())
        // Digits straight into the string's storage: a request's entry is timed on the request's thread.
        return String(unsafeUninitializedCapacity: textLength) { text in
            var end = field(Int(date.year), width: 4, then: "-", into: text, at: 0)
            end = field(Int(date.month), width: 2, then: "-", into: text, at: end)
            end = field(Int(date.day), width: 2, then: "T", into: text, at: end)
            end = field(Int(date.hour), width: 2, then: ":", into: text, at: end)
            end = field(Int(date.minutes), width: 2, then: ":", into: text, at: end)
            end = field(Int(date.seconds), width: 2, then: ".", into: text, at: end)
            return field(milliseconds, width: 3, then: "Z", into: text, at: end)
        }
    }

    /// The length of a time's text: `2026-12-01T09:30:00.125Z`.
    static let textLength = 24

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

    /// Writes a number from 0 up at `start` as `width` decimal digits (zeros in front; a wider number loses its
    /// leading digits, which IPPDateTime's fields never have), then `separator`; returns where they end.
    private static func field(
        _ number: Int, width: Int, then separator: Unicode.Scalar, into text: UnsafeMutableBufferPointer<UInt8>,
        at start: Int
    ) -> Int {
        var rest = max(0, number)
        var index = start + width
        while index > start {
            index -= 1
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        text[start + width] = UInt8(ascii: separator)
        return start + width + 1
    }
}

extension String {
    /// The string cut or filled with `character` on the right to `length` characters.
    fileprivate func padding(toLength length: Int, with character: Character) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: character, count: length - count)
    }
}
