import ImageCheck
import PrintModel
import Testing

@Suite struct InkTallyTests {
    /// A side of `width` x `height` pixels of one RGB color, with a `box` x `box` square of `ink` at the top left.
    private func tally(width: Int, height: Int, box: Int, ink: (UInt8, UInt8, UInt8), color: Bool = true) -> SideFacts {
        var image = RGBImage(width: width, height: height)
        for y in 0..<box { for x in 0..<box { image[x, y] = ink } }
        var tally = InkTally(color: color)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height { tally.addRGB(pixels.baseAddress! + y * width * 3, width: width) }
        }
        return tally.facts(outsidePrintableArea: false)
    }

    @Test func aWhiteSideIsBlankWithNoInk() {
        let facts = tally(width: 40, height: 30, box: 0, ink: (0, 0, 0))
        #expect(facts.blank)
        #expect(!facts.hasColor)
        #expect(facts.inkCoverage == InkCoverage(cyan: 0, magenta: 0, yellow: 0, black: 0))
    }

    @Test func blackCoverageIsTheBlackArea() {
        // 10 x 10 of 100 x 100: 1 % black, no colored ink.
        let facts = tally(width: 100, height: 100, box: 10, ink: (0, 0, 0))
        #expect(!facts.blank)
        #expect(!facts.hasColor)
        #expect(facts.inkCoverage == InkCoverage(cyan: 0, magenta: 0, yellow: 0, black: 1))
    }

    @Test func redIsMagentaAndYellowWithoutBlack() {
        let facts = tally(width: 100, height: 100, box: 20, ink: (255, 0, 0))
        #expect(facts.hasColor)
        #expect(facts.inkCoverage == InkCoverage(cyan: 0, magenta: 4, yellow: 4, black: 0))
    }

    @Test func grayIsLaidWithBlackOnly() {
        let facts = tally(width: 10, height: 10, box: 10, ink: (128, 128, 128))
        #expect(!facts.hasColor)
        #expect(facts.inkCoverage.cyan == 0 && facts.inkCoverage.magenta == 0 && facts.inkCoverage.yellow == 0)
        #expect(abs(facts.inkCoverage.black - 127.0 / 255 * 100) < 0.001)
    }

    @Test func inkBelowTheMarkThresholdLeavesTheSideBlank() {
        let faint = UInt8(255 - InkTally.markThreshold + 1)
        #expect(tally(width: 10, height: 10, box: 10, ink: (faint, faint, faint)).blank)
        let visible = UInt8(255 - InkTally.markThreshold)
        #expect(!tally(width: 10, height: 10, box: 1, ink: (visible, visible, visible)).blank)
    }

    @Test func aHueBelowTheChromaThresholdIsNotColor() {
        let below = UInt8(255 - InkTally.chromaThreshold + 1)
        #expect(!tally(width: 10, height: 10, box: 5, ink: (255, below, below)).hasColor)
        let at = UInt8(255 - InkTally.chromaThreshold)
        #expect(tally(width: 10, height: 10, box: 1, ink: (255, at, at)).hasColor)
    }

    @Test func aGraySideHasOnlyBlackAndNeverColor() {
        var tally = InkTally(color: false)
        let row: [UInt8] = [0, 255, 255, 255]
        row.withUnsafeBufferPointer { tally.addGray($0.baseAddress!, width: 4) }
        let facts = tally.facts(outsidePrintableArea: true)
        #expect(facts.inkCoverage == InkCoverage(black: 25))
        #expect(!facts.hasColor && !facts.blank && facts.outsidePrintableArea)
    }

    @Test func cairoRowsCountLikeRGBRows() {
        // B, G, R, X words as Cairo's RGB24 lays them out on a little-endian machine; the X byte is ignored.
        let words: [UInt32] = [0x00FF_FFFF, 0xFFFF_0000, 0x0000_0000, 0xFF80_8080]
        var tally = InkTally(color: true)
        words.withUnsafeBytes { tally.addBGRX($0.baseAddress!, width: 4) }
        let facts = tally.facts(outsidePrintableArea: false)
        // Red (255, 0, 0): M and Y 255; black: K 255; gray 128: K 127. Over four pixels.
        #expect(facts.inkCoverage.magenta == 25 && facts.inkCoverage.yellow == 25 && facts.inkCoverage.cyan == 0)
        #expect(abs(facts.inkCoverage.black - (255.0 + 127) / (4 * 255) * 100) < 0.001)
        #expect(facts.hasColor)
        #expect(InkTally.hasMarks(bgrx: words.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }, from: 2, to: 3))
    }

    @Test func marksAreFoundOnlyInsideTheGivenColumns() {
        let words: [UInt32] = [0xFFFF_FFFF, 0x0000_0000, 0xFFFF_FFFF]
        words.withUnsafeBytes { buffer in
            #expect(!InkTally.hasMarks(bgrx: buffer.baseAddress!, from: 0, to: 1))
            #expect(InkTally.hasMarks(bgrx: buffer.baseAddress!, from: 1, to: 2))
            #expect(!InkTally.hasMarks(bgrx: buffer.baseAddress!, from: 2, to: 3))
        }
    }
}
