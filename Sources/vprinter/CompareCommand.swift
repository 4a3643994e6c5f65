import Foundation
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// `vprinter compare ACTUAL EXPECTED`: snapshot comparison of printed sides (docs/snapshots.md). Prints one line
/// per side and a summary; exits 0 when every side passes (or after `--update`), 1 when a side differs, 2 for
/// bad input.
struct CompareCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard options.compareOperands.count == 2 else {
            Console.log("error: compare needs ACTUAL and EXPECTED (a job folder, a folder of PNG files or a PNG file)")
            return 2
        }
        let (actual, expected) = (options.compareOperands[0], options.compareOperands[1])
        // Thresholds given replace the standard ones; a maximum of differing pixels alone adds to them. Across
        // releases the tolerant comparison replaces the standard ones, and thresholds given add to it.
        var thresholds =
            options.minimumPSNR == nil && options.minimumSSIM == nil && !options.acrossReleases
            ? Snapshot.Thresholds.standard
            : Snapshot.Thresholds(minimumPSNR: options.minimumPSNR, minimumSSIM: options.minimumSSIM)
        if options.acrossReleases { thresholds.tolerance = .acrossReleases }
        thresholds.maximumDifferingPixels = options.maximumDifferingPixels
        let report: Snapshot.Report
        do throws(SnapshotError) {
            report = try Snapshot.compare(
                actual: actual, expected: expected, thresholds: thresholds,
                differenceFolder: options.differenceFolder)
        } catch {
            Console.log("error: \(error)")
            return 2
        }
        if options.json {
            Console.out(Self.json(report))
        } else {
            for side in report.sides { Console.out(Self.line(side)) }
            let failed = report.failures.count
            Console.out(
                "compare: \(report.sides.count - failed) of \(report.sides.count) sides pass"
                    + " (\(Self.describe(thresholds)))" + (report.sides.isEmpty ? "; there are no sides" : ""))
        }
        if options.update {
            do throws(SnapshotError) {
                let written = try Snapshot.update(actual: actual, expected: expected)
                Console.log("updated \(expected) from \(actual): \(written.count) sides")
                return 0
            } catch {
                Console.log("error: \(error)")
                return 2
            }
        }
        return report.passed ? 0 : 1
    }

    static func line(_ side: Snapshot.Side) -> String {
        let name = ((side.actual ?? side.expected ?? "-") as NSString).lastPathComponent
        var text = "side \(side.number)  \(name)  \(side.passed ? "pass" : "FAIL")"
        if let psnr = side.psnr, let ssim = side.ssim {
            text += "  PSNR \(Snapshot.format(psnr)) dB  SSIM \(Snapshot.format(ssim, places: 4))"
        }
        if side.status != .passed || side.message != "identical" { text += "  \(side.message)" }
        if let diff = side.differenceImage { text += "  diff: \(diff)" }
        return text
    }

    static func describe(_ thresholds: Snapshot.Thresholds) -> String {
        var parts: [String] = []
        if let psnr = thresholds.minimumPSNR { parts.append("PSNR >= \(Snapshot.format(psnr)) dB") }
        if let ssim = thresholds.minimumSSIM { parts.append("SSIM >= \(Snapshot.format(ssim, places: 4))") }
        if let pixels = thresholds.maximumDifferingPixels { parts.append("differing pixels <= \(pixels)") }
        if let tolerance = thresholds.tolerance {
            parts.append(
                "across releases: pixels matched within \(tolerance.radius) px,"
                    + " glyphs within \(Snapshot.format(tolerance.glyphShift, places: 1)) px,"
                    + " flat tiles within \(Snapshot.format(tolerance.colourTolerance, places: 0)) levels")
        }
        return parts.joined(separator: ", ")
    }

    /// The report as JSON: `passed`, `thresholds`, and per side its status and measures (PSNR null when identical
    /// or not compared; `identical` tells which).
    static func json(_ report: Snapshot.Report) -> String {
        let sides: [[String: Any]] = report.sides.map { side in
            var entry: [String: Any] = [
                "number": side.number, "status": side.status.rawValue, "passed": side.passed,
                "message": side.message, "differing-pixels": side.differingPixels,
                "identical": side.psnr == .infinity,
            ]
            entry["actual"] = side.actual ?? NSNull()
            entry["expected"] = side.expected ?? NSNull()
            entry["psnr"] = side.psnr.flatMap { $0.isFinite ? $0 : nil } ?? NSNull()
            entry["ssim"] = side.ssim ?? NSNull()
            if let size = side.actualSize { entry["actual-size"] = ["width": size.width, "height": size.height] }
            if let size = side.expectedSize { entry["expected-size"] = ["width": size.width, "height": size.height] }
            if let diff = side.differenceImage { entry["diff"] = diff }
            if let tolerant = side.tolerant {
                entry["tolerant"] = [
                    "passed": tolerant.passed, "unmatched-pixels": tolerant.unmatchedPixels,
                    "largest-region": tolerant.largestRegionArea,
                    "largest-tile-difference": tolerant.largestTileDifference,
                    "largest-glyph-residual": tolerant.largestGlyphResidual,
                    "glyphs": tolerant.glyphs.prefix(20).map {
                        [
                            "x": $0.x, "y": $0.y, "width": $0.width, "height": $0.height, "residual": $0.residual,
                            "side": $0.ofActual ? "actual" : "expected",
                        ]
                    },
                    "regions": tolerant.regions.prefix(20).map {
                        ["x": $0.x, "y": $0.y, "width": $0.width, "height": $0.height, "area": $0.area]
                    },
                    "tiles": tolerant.tiles.prefix(20).map { ["x": $0.x, "y": $0.y, "difference": $0.difference] },
                ]
            }
            return entry
        }
        var thresholds: [String: Any] = [:]
        thresholds["min-psnr"] = report.thresholds.minimumPSNR ?? NSNull()
        thresholds["min-ssim"] = report.thresholds.minimumSSIM ?? NSNull()
        thresholds["max-diff-pixels"] = report.thresholds.maximumDifferingPixels ?? NSNull()
        thresholds["across-releases"] = report.thresholds.tolerance != nil
        let object: [String: Any] = ["passed": report.passed, "thresholds": thresholds, "sides": sides]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
