import IPP
import Testing

/// `IPPDateTime` conversions: RFC 2579 DateAndTime against seconds since the Unix epoch and ISO 8601.
struct IPPDateTimeTests {
    /// Epoch seconds and the UTC date they name (checked against Python's datetime).
    static let knownEpochs: [(seconds: Double, iso: String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (1_700_000_000, "2023-11-14T22:13:20Z"),
        (4_107_542_400, "2100-03-01T00:00:00Z"),
        (-2_208_988_800, "1900-01-01T00:00:00Z"),
        (-11_670_912_000, "1600-03-01T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ]

    @Test(arguments: knownEpochs.map(\.seconds))
    func knownEpochSecondsGiveTheirUTCDate(seconds: Double) throws {
        let iso = try #require(Self.knownEpochs.first { $0.seconds == seconds }?.iso)
        let date = IPPDateTime(secondsSince1970: seconds)
        #expect(date.iso8601 == iso)
        #expect(date.secondsSince1970 == seconds)
    }

    @Test func fieldsOfAKnownDate() {
        let date = IPPDateTime(secondsSince1970: 1_700_000_000.25)
        #expect(date.year == 2023 && date.month == 11 && date.day == 14)
        #expect(date.hour == 22 && date.minutes == 13 && date.seconds == 20)
        #expect(date.deciSeconds == 2)
        #expect(date.utcDirection == UInt8(ascii: "+") && date.utcHours == 0 && date.utcMinutes == 0)
    }

    @Test func negativeUTCOffsetIsBehindUTC() {
        let newYork = IPPDateTime(
            year: 2026, month: 11, day: 29, hour: 12, minutes: 0, seconds: 0, utcDirection: UInt8(ascii: "-"),
            utcHours: 5, utcMinutes: 0)
        let utc = IPPDateTime(year: 2026, month: 11, day: 29, hour: 17, minutes: 0, seconds: 0)
        #expect(newYork.secondsSince1970 == 1_795_971_600)
        #expect(newYork.secondsSince1970 == utc.secondsSince1970)
        #expect(newYork.iso8601 == "2026-11-29T12:00:00-05:00")
    }

    @Test func positiveUTCOffsetWithMinutesIsAheadOfUTC() {
        let india = IPPDateTime(
            year: 2026, month: 11, day: 29, hour: 22, minutes: 30, seconds: 0, utcHours: 5, utcMinutes: 30)
        #expect(india.secondsSince1970 == 1_795_971_600)
        #expect(india.iso8601 == "2026-11-29T22:30:00+05:30")
    }

    @Test func offsetCrossingMidnightMovesTheDay() {
        let date = IPPDateTime(
            year: 2026, month: 1, day: 1, hour: 1, minutes: 0, seconds: 0, utcDirection: UInt8(ascii: "+"),
            utcHours: 2)
        #expect(IPPDateTime(secondsSince1970: date.secondsSince1970).iso8601 == "2025-12-31T23:00:00Z")
    }

    @Test func deciSecondsAreTenthsOfTheSecond() {
        let date = IPPDateTime(year: 1970, month: 1, day: 1, hour: 0, minutes: 0, seconds: 1, deciSeconds: 5)
        #expect(date.secondsSince1970 == 1.5)
    }

    @Test func everyDayOfFourHundredYearsSurvivesAConversion() {
        var mismatches = 0
        var previous = IPPDateTime(secondsSince1970: -86_400)
        for day in 0..<(146_097) {
            let seconds = Double(day) * 86_400 + 3_723
            let date = IPPDateTime(secondsSince1970: seconds)
            if date.secondsSince1970 != seconds || date.hour != 1 || date.minutes != 2 || date.seconds != 3 {
                mismatches += 1
            }
            // Consecutive days differ by one day of month, or start a new month at day 1.
            if date.day != previous.day + 1 && date.day != 1 { mismatches += 1 }
            previous = date
        }
        #expect(mismatches == 0)
    }

    @Test func yearsBeforeOneThousandArePaddedToFourDigits() {
        #expect(
            IPPDateTime(year: 999, month: 1, day: 2, hour: 3, minutes: 4, seconds: 5).iso8601 == "0999-01-02T03:04:05Z")
    }

    @Test func outOfRangeFieldsFromTheWireDoNotTrap() {
        let nonsense = IPPDateTime(
            year: .max, month: 255, day: 255, hour: 255, minutes: 255, seconds: 255, deciSeconds: 255,
            utcDirection: 0, utcHours: 255, utcMinutes: 255)
        #expect(nonsense.secondsSince1970.isFinite)
        #expect(!nonsense.iso8601.isEmpty)
        let zero = IPPDateTime(year: 0, month: 0, day: 0, hour: 0, minutes: 0, seconds: 0)
        #expect(zero.secondsSince1970.isFinite)
    }
}
