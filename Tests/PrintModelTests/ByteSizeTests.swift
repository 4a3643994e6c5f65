import PrintModel
import Testing

/// Sizes as options take them: K, M and G as powers of 1024 (as they always were), KiB, MiB and GiB the same
/// (IEC 80000-13), KB, MB and GB as powers of 1000 (SI).
@Suite struct ByteSizeTests {
    @Test func unitsAreReadWithoutLetterCase() {
        #expect(ByteSize.parse("4096") == 4096)
        #expect(ByteSize.parse("500M") == 500 << 20)
        #expect(ByteSize.parse("4g") == 4 << 30)
        #expect(ByteSize.parse("1024K") == 1 << 20)
        #expect(ByteSize.parse("64MiB") == 64 << 20)
        #expect(ByteSize.parse("1gib") == 1 << 30)
        #expect(ByteSize.parse("500KB") == 500_000)
        #expect(ByteSize.parse("2MB") == 2_000_000)
        #expect(ByteSize.parse("3GB") == 3_000_000_000)
        #expect(ByteSize.parse("12B") == 12)
    }

    @Test func anythingElseIsNoSize() {
        for text in ["", "M", "MiB", "1.5M", "64 MiB", "64XB", "ten", "9999999999999999999G"] {
            #expect(ByteSize.parse(text) == nil, "\(text)")
        }
        #expect(ByteSize.hasUnit("64MiB") && ByteSize.hasUnit("16m") && !ByteSize.hasUnit("10000"))
    }
}
