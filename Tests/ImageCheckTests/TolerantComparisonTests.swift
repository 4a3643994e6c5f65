import Foundation
import ImageCheck
import Testing

/// The comparison across renderer releases on real renders (Fixtures/releases/README.md): the same PDFs rendered at
/// 100 dpi by Debian 12 (Poppler 22.12, Cairo 1.16, FreeType 2.12) and Debian 13 (Poppler 25.03, Cairo 1.18,
/// FreeType 2.13), and changed PDFs rendered by Debian 12.
@Suite struct TolerantComparisonTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/releases").path

    /// The documents whose two renders fail the strict comparison and must pass the tolerant one.
    static let releasePairs = ["text", "mixed", "fonts-embedded", "bench"]
    /// The changed documents (Debian 12) and the document they were changed from.
    static let changes = [
        "text-glyph-dropped": "text", "text-glyph-swapped": "text", "mixed-line-moved": "mixed",
        "mixed-glyph-swapped": "mixed", "mixed-image-removed": "mixed", "mixed-colour-changed": "mixed",
    ]
    /// `vprinter compare`'s default thresholds (Snapshot.Thresholds.standard: PSNR 30 dB, SSIM 0.99).
    static let strictPSNR = 30.0
    static let strictSSIM = 0.99

    static func render(_ folder: String, _ name: String) throws -> RGBImage {
        try PNGFile.read("\(fixtures)/\(folder)/\(name).png")
    }

    static func passesStrict(_ actual: RGBImage, _ expected: RGBImage) -> Bool {
        let result = ImageComparison.compare(actual, expected)
        return result.sizeMatches && (result.psnr ?? 0) >= strictPSNR && (result.ssim ?? 0) >= strictSSIM
    }

    @Test(arguments: releasePairs)
    func aReleasePairPassesTolerantAndFailsStrict(document: String) throws {
        let debian12 = try Self.render("debian12", document)
        let debian13 = try Self.render("debian13", document)
        #expect(!Self.passesStrict(debian13, debian12))
        #expect(!Self.passesStrict(debian12, debian13))
        for (actual, expected) in [(debian13, debian12), (debian12, debian13)] {
            let result = TolerantComparison.compare(actual, expected)
            #expect(result.passed, "\(result)")
            #expect(result.largestRegionArea < TolerantComparison.Tolerance.defaultMinimumRegionArea)
            #expect(result.largestGlyphResidual <= TolerantComparison.Tolerance.defaultGlyphResidual)
            #expect(result.largestTileDifference <= TolerantComparison.Tolerance.defaultColourTolerance)
        }
    }

    /// Each real change fails, against the render of the unchanged document by either release, and by the check
    /// that is meant to catch it.
    @Test(arguments: changes.keys.sorted())
    func aRealChangeFailsTolerant(change: String) throws {
        let changed = try Self.render("changed", change)
        for release in ["debian12", "debian13"] {
            let original = try Self.render(release, Self.changes[change] ?? "")
            let result = TolerantComparison.compare(changed, original)
            #expect(!result.passed, "\(change) against \(release): \(result)")
            switch change {
            case "text-glyph-swapped", "mixed-glyph-swapped":
                #expect(!result.glyphs.isEmpty && result.regions.isEmpty, "\(result)")
            case "text-glyph-dropped": #expect(!result.glyphs.isEmpty && !result.regions.isEmpty, "\(result)")
            case "mixed-line-moved": #expect(!result.regions.isEmpty, "\(result)")
            case "mixed-image-removed": #expect(!result.regions.isEmpty && !result.tiles.isEmpty, "\(result)")
            case "mixed-colour-changed":
                #expect(!result.tiles.isEmpty && result.regions.isEmpty && result.glyphs.isEmpty, "\(result)")
            default: Issue.record("no expectation for \(change)")
            }
        }
    }

    /// The swapped digit (1,250.00 for 1,290.00 at 11 pt) lands in the first check's tolerance: only the glyph
    /// alignment sees it, with a residual above the threshold, while the release pairs stay below it.
    @Test func theGlyphResidualSeparatesASwappedDigitFromAnotherRelease() throws {
        let swapped = try Self.render("changed", "mixed-glyph-swapped")
        let swappedResidual = TolerantComparison.compare(swapped, try Self.render("debian13", "mixed"))
            .largestGlyphResidual
        var releaseResidual = 0
        for document in Self.releasePairs {
            let result = TolerantComparison.compare(
                try Self.render("debian13", document), try Self.render("debian12", document))
            releaseResidual = max(releaseResidual, result.largestGlyphResidual)
        }
        #expect(releaseResidual < TolerantComparison.Tolerance.defaultGlyphResidual)
        #expect(swappedResidual > TolerantComparison.Tolerance.defaultGlyphResidual)
    }

    /// Without the radius (every pixel matched in place only) the release pairs fail: it is what tolerates glyphs
    /// a pixel apart.
    @Test func theRadiusIsWhatToleratesGlyphsAPixelApart() throws {
        var tolerance = TolerantComparison.Tolerance.acrossReleases
        tolerance.radius = 0
        var failing: [String] = []
        for document in Self.releasePairs {
            let result = TolerantComparison.compare(
                try Self.render("debian13", document), try Self.render("debian12", document), tolerance: tolerance)
            if !result.regions.isEmpty { failing.append(document) }
        }
        #expect(!failing.isEmpty)
    }

    /// Vprinter's font configuration finds other fonts on Debian 13 for Arial, Times New Roman, Courier New and
    /// Garamond (fonts-liberation2 is an empty package there): another font is a real difference and fails.
    @Test func anotherFontFails() throws {
        let result = TolerantComparison.compare(
            try Self.render("debian13", "fonts-not-embedded"), try Self.render("debian12", "fonts-not-embedded"))
        #expect(!result.passed)
        #expect(!result.glyphs.isEmpty && !result.regions.isEmpty)
    }

    @Test func identicalImagesPassWithNothingUnmatched() throws {
        let image = try Self.render("debian12", "mixed")
        let result = TolerantComparison.compare(image, image)
        #expect(result.passed)
        #expect(result.unmatchedPixels == 0 && result.largestGlyphResidual == 0 && result.largestTileDifference == 0)
    }

    @Test func imagesOfOtherSizesFail() {
        let result = TolerantComparison.compare(RGBImage(width: 20, height: 10), RGBImage(width: 10, height: 20))
        #expect(!result.sizeMatches && !result.passed)
    }

    @Test func emptyAndTinyImagesDoNotTrap() {
        #expect(TolerantComparison.compare(RGBImage(width: 0, height: 0), RGBImage(width: 0, height: 0)).passed)
        // Smaller than the smallest region that fails, and than a tile: the image is one tile, of another colour.
        var dot = RGBImage(width: 1, height: 1)
        dot[0, 0] = (0, 0, 0)
        let tiny = TolerantComparison.compare(dot, RGBImage(width: 1, height: 1))
        #expect(!tiny.passed && tiny.regions.isEmpty && tiny.tiles.count == 1)
        // Nine pixels of ink more: fails.
        let black = RGBImage(width: 3, height: 3, red: 0, green: 0, blue: 0)
        let result = TolerantComparison.compare(black, RGBImage(width: 3, height: 3))
        #expect(result.sizeMatches && !result.passed && result.largestRegionArea == 9)
    }

    @Test func tolerancesOutOfRangeDoNotTrap() throws {
        let image = try Self.render("debian12", "mixed")
        let other = try Self.render("debian13", "mixed")
        let odd = TolerantComparison.Tolerance(
            radius: -3, sampleTolerance: -1, minimumRegionArea: -5, glyphShift: .nan, glyphResidual: -1, tileSize: 0,
            flatness: .infinity, colourTolerance: .nan)
        #expect(!TolerantComparison.compare(image, other, tolerance: odd).passed)
        var large = TolerantComparison.Tolerance.acrossReleases
        large.glyphShift = 1e300
        large.radius = .max
        large.tileSize = .max
        #expect(TolerantComparison.compare(image, image, tolerance: large).passed)
    }
}
