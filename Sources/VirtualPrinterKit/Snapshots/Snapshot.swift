import Foundation
import ImageCheck
import PrinterCore
import PrinterHTTP

/// Snapshot (golden file) tests of printed sides (docs/snapshots.md): the sides of a job folder, a folder of PNG
/// files or one PNG file, compared side by side with expected ones by PSNR and SSIM; and the expected ones
/// replaced by the actual ones once a change is accepted. `vprinter compare` is this on the command line.
public enum Snapshot {
    /// What a side must reach to pass; a threshold that is nil is not checked.
    public struct Thresholds: Sendable, Equatable {
        /// Lowest PSNR in dB.
        public var minimumPSNR: Double?
        /// Lowest SSIM (0 to 1).
        public var minimumSSIM: Double?
        /// Most pixels that may differ by more than ``ImageComparison/pixelTolerance``: 0 catches any visible
        /// change, such as one digit of an amount, which PSNR and SSIM averaged over a page let through.
        public var maximumDifferingPixels: Int?
        /// The tolerant comparison across renderer releases (``TolerantComparison``), checked besides the others
        /// when set.
        public var tolerance: TolerantComparison.Tolerance?

        public init(
            minimumPSNR: Double?, minimumSSIM: Double?, maximumDifferingPixels: Int? = nil,
            tolerance: TolerantComparison.Tolerance? = nil
        ) {
            self.minimumPSNR = minimumPSNR
            self.minimumSSIM = minimumSSIM
            self.maximumDifferingPixels = maximumDifferingPixels
            self.tolerance = tolerance
        }

        /// PSNR 30 dB and SSIM 0.99: passes anti-aliasing differences between renderer versions, fails a page
        /// moved by a millimetre or a changed word.
        public static let standard = Thresholds(minimumPSNR: 30, minimumSSIM: 0.99)

        /// Goldens made by another release of Poppler, Cairo and FreeType (`--across-releases`): the tolerant
        /// comparison only, no PSNR or SSIM minimum (a glyph a pixel apart on every line fails both).
        public static let acrossReleases = Thresholds(
            minimumPSNR: nil, minimumSSIM: nil, tolerance: .acrossReleases)
    }

    /// How one side compared.
    public enum Status: String, Sendable {
        /// Within the thresholds.
        case passed
        /// Below a threshold.
        case failed
        /// The sizes differ.
        case sizeMismatch = "size-mismatch"
        /// An expected side has no actual one.
        case missing
        /// An actual side has no expected one.
        case extra
        /// One of the files could not be read.
        case unreadable
    }

    /// One side of the comparison.
    public struct Side: Sendable, Equatable {
        /// 1-based position of the side.
        public var number: Int
        public var actual: String?
        public var expected: String?
        public var status: Status
        /// PSNR in dB, `.infinity` when identical; nil when not compared.
        public var psnr: Double?
        public var ssim: Double?
        /// Pixels that differ by more than ``ImageComparison/pixelTolerance``.
        public var differingPixels: Int
        public var actualSize: (width: Int, height: Int)?
        public var expectedSize: (width: Int, height: Int)?
        /// The tolerant comparison, when the thresholds ask for it and the sizes match.
        public var tolerant: TolerantComparison.Result?
        /// The difference image written (with a `diff` folder), if any.
        public var differenceImage: String?
        /// What happened, for a person.
        public var message: String

        public var passed: Bool { status == .passed }

        public static func == (lhs: Side, rhs: Side) -> Bool {
            lhs.number == rhs.number && lhs.actual == rhs.actual && lhs.expected == rhs.expected
                && lhs.status == rhs.status && lhs.psnr == rhs.psnr && lhs.ssim == rhs.ssim
                && lhs.differingPixels == rhs.differingPixels && lhs.tolerant == rhs.tolerant
                && lhs.message == rhs.message
        }
    }

    /// The outcome of a comparison.
    public struct Report: Sendable, Equatable {
        public var sides: [Side]
        public var thresholds: Thresholds
        /// True when every side passed (and there is at least one side on either side).
        public var passed: Bool { !sides.isEmpty && sides.allSatisfy(\.passed) }
        /// The sides that did not pass.
        public var failures: [Side] { sides.filter { !$0.passed } }
    }

    /// The PNG files of `path` in side order: the file itself; a job folder's impressions in order (from its
    /// job.json); or a folder's `.png` files by name. A path that does not exist has no sides when `missingIsEmpty`.
    public static func sides(of path: String, missingIsEmpty: Bool = false) throws(SnapshotError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if missingIsEmpty { return [] }
            throw .notFound(path)
        }
        guard isDirectory.boolValue else {
            guard path.lowercased().hasSuffix(".png") else { throw .notAPNG(path) }
            return [path]
        }
        let folder = (path as NSString).standardizingPath
        if let data = FileManager.default.contents(atPath: folder + "/job.json"),
            let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let impressions = record["impressions"] as? [[String: Any]]
        {
            let files = impressions.compactMap { $0["file"] as? String }.filter { !$0.contains("/") }
            return files.map { folder + "/" + $0 }
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .io(path: folder, reason: "cannot list the folder")
        }
        return names.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted().map {
            folder + "/" + $0
        }
    }

    /// Compares the sides of `actual` with those of `expected`, in order. With `differenceFolder`, an image marking
    /// the differing pixels is written there for every side that is not identical (`<name>-diff.png`).
    public static func compare(
        actual: String, expected: String, thresholds: Thresholds = .standard, differenceFolder: String? = nil
    ) throws(SnapshotError) -> Report {
        let actualSides = try sides(of: actual)
        let expectedSides = try sides(of: expected, missingIsEmpty: true)
        if let differenceFolder {
            do {
                try FileManager.default.createDirectory(atPath: differenceFolder, withIntermediateDirectories: true)
            } catch {
                throw .io(path: differenceFolder, reason: "cannot make the folder")
            }
        }
        var result: [Side] = []
        for index in 0..<max(actualSides.count, expectedSides.count) {
            let a = index < actualSides.count ? actualSides[index] : nil
            let e = index < expectedSides.count ? expectedSides[index] : nil
            result.append(
                compareSide(
                    number: index + 1, actual: a, expected: e, thresholds: thresholds,
                    differenceFolder: differenceFolder))
        }
        return Report(sides: result, thresholds: thresholds)
    }

    private static func compareSide(
        number: Int, actual: String?, expected: String?, thresholds: Thresholds, differenceFolder: String?
    ) -> Side {
        var side = Side(
            number: number, actual: actual, expected: expected, status: .passed, psnr: nil, ssim: nil,
            differingPixels: 0, actualSize: nil, expectedSize: nil, tolerant: nil, differenceImage: nil, message: "")
        guard let actual else {
            side.status = .missing
            side.message = "no actual side for \(name(expected))"
            return side
        }
        guard let expected else {
            side.status = .extra
            side.message = "\(name(actual)) has no expected side"
            return side
        }
        let a: RGBImage
        let e: RGBImage
        do {
            a = try PNGFile.read(actual)
            e = try PNGFile.read(expected)
        } catch {
            side.status = .unreadable
            side.message = error.description
            return side
        }
        side.actualSize = (a.width, a.height)
        side.expectedSize = (e.width, e.height)
        let comparison = ImageComparison.compare(a, e)
        if let differenceFolder, !comparison.isIdentical {
            let path = differenceFolder + "/" + (name(actual) as NSString).deletingPathExtension + "-diff.png"
            if (try? PNGFile.write(ImageComparison.differenceImage(a, e), to: path)) != nil {
                side.differenceImage = path
            }
        }
        guard comparison.sizeMatches else {
            side.status = .sizeMismatch
            side.message = "size \(a.width) x \(a.height), expected \(e.width) x \(e.height)"
            return side
        }
        side.psnr = comparison.psnr
        side.ssim = comparison.ssim
        side.differingPixels = comparison.differingPixels
        var problems: [String] = []
        if let minimum = thresholds.minimumPSNR, let psnr = comparison.psnr, psnr < minimum {
            problems.append("PSNR below \(format(minimum)) dB")
        }
        if let minimum = thresholds.minimumSSIM, let ssim = comparison.ssim, ssim < minimum {
            problems.append("SSIM below \(format(minimum, places: 4))")
        }
        if let maximum = thresholds.maximumDifferingPixels, comparison.differingPixels > maximum {
            problems.append("\(comparison.differingPixels) differing pixels > \(maximum)")
        }
        if let tolerance = thresholds.tolerance, !comparison.isIdentical {
            let tolerant = TolerantComparison.compare(a, e, tolerance: tolerance)
            side.tolerant = tolerant
            problems += describe(tolerant, tolerance: tolerance)
        }
        side.status = problems.isEmpty ? .passed : .failed
        let differing = "\(comparison.differingPixels) pixels differ"
        side.message =
            comparison.isIdentical
            ? "identical"
            : (problems.isEmpty ? "within the thresholds" : problems.joined(separator: ", ")) + "; \(differing)"
        return side
    }

    /// Makes `actual` the new `expected`: the actual sides are copied into `expected` (a folder, made if needed,
    /// whose earlier PNG files are removed; or one PNG file when `actual` is one), keeping their file names.
    /// Returns the files written.
    @discardableResult
    public static func update(actual: String, expected: String) throws(SnapshotError) -> [String] {
        let sources = try sides(of: actual)
        var isDirectory: ObjCBool = false
        let expectedExists = FileManager.default.fileExists(atPath: expected, isDirectory: &isDirectory)
        if sources.count == 1, actual.lowercased().hasSuffix(".png"), !(expectedExists && isDirectory.boolValue) {
            try copy(sources[0], to: expected)
            return [expected]
        }
        let folder = (expected as NSString).standardizingPath
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot make the folder")
        }
        let keep = Set(sources.map { name($0) })
        for old in try sides(of: folder) where !keep.contains(name(old)) {
            do {
                try FileManager.default.removeItem(atPath: old)
            } catch {
                throw .io(path: old, reason: "cannot remove an earlier expected side")
            }
        }
        var written: [String] = []
        for source in sources {
            let target = folder + "/" + name(source)
            try copy(source, to: target)
            written.append(target)
        }
        return written
    }

    /// Copies a file through a temporary name, so that the target is never half written.
    private static func copy(_ source: String, to target: String) throws(SnapshotError) {
        let partial = target + ".part"
        do {
            try? FileManager.default.removeItem(atPath: partial)
            try FileManager.default.copyItem(atPath: source, toPath: partial)
            // rename(2) replaces the target in one step.
            guard rename(partial, target) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw .io(path: target, reason: "cannot copy \(source) there")
        }
    }

    /// What failed the tolerant comparison, for a person: the largest region without a match and the tile whose
    /// colour differs most, with their places in pixels.
    static func describe(_ result: TolerantComparison.Result, tolerance: TolerantComparison.Tolerance) -> [String] {
        var problems: [String] = []
        if let region = result.regions.first {
            problems.append(
                "\(result.regions.count) region\(result.regions.count == 1 ? "" : "s") beyond \(tolerance.radius) px"
                    + " (largest \(region.area) px at \(region.x),\(region.y) \(region.width) x \(region.height))")
        }
        if let glyph = result.glyphs.first {
            problems.append(
                "\(result.glyphs.count) glyph\(result.glyphs.count == 1 ? "" : "s") of another shape"
                    + " (residual \(glyph.residual) at \(glyph.x),\(glyph.y) \(glyph.width) x \(glyph.height)"
                    + " of the \(glyph.ofActual ? "actual" : "expected") side)")
        }
        if let tile = result.tiles.first {
            problems.append(
                "\(result.tiles.count) tile\(result.tiles.count == 1 ? "" : "s") of another colour"
                    + " (up to \(format(tile.difference, places: 1)) levels at \(tile.x),\(tile.y))")
        }
        return problems
    }

    static func name(_ path: String?) -> String {
        guard let path else { return "-" }
        return (path as NSString).lastPathComponent
    }

    /// A measure for people: two decimals (or `places`), `inf` for infinity.
    public static func format(_ value: Double, places: Int = 2) -> String {
        value.isInfinite ? "inf" : String(format: "%.\(places)f", value)
    }
}
