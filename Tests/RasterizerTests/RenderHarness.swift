import Foundation
import PrintModel
import Rasterizer
import Synchronization

/// Runs ``JobRenderer`` into a temporary folder and reads back what it wrote, with ImageMagick (an independent
/// PNG reader) turning the PNG files into PNM.
struct RenderHarness {
    let folder: TemporaryFolder
    let output: String

    init() throws {
        folder = try TemporaryFolder()
        output = folder.file("job")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    }

    /// Renders `paths` with `ticket`; returns the impressions in the order they were reported and the summary.
    func render(_ paths: [String], ticket: JobTicket, limits: RenderLimits = RenderLimits()) throws(RasterError)
        -> (impressions: [PrintedSide], summary: RenderSummary)
    {
        let collected = Mutex<[PrintedSide]>([])
        let renderer = JobRenderer(folder: output, ticket: ticket, limits: limits, threads: 2)
        let summary = try renderer.render(paths.map { JobRenderer.Document(path: $0) }) { impression in
            collected.withLock { $0.append(impression) }
        }
        return (collected.withLock { $0 }, summary)
    }

    /// The PNG file `name` written by the renderer, decoded by ImageMagick.
    func image(_ name: String, gray: Bool = false) throws -> PageImage {
        let pnm = folder.file(name + (gray ? ".pgm" : ".ppm"))
        try ExternalTool.run("convert", [output + "/" + name, "-depth", "8", pnm])
        return try NetPBM.read(pnm)
    }

    /// Any image file decoded by ImageMagick to RGB, after `options` (for example a color conversion).
    func decode(_ path: String, options: [String] = []) throws -> PageImage {
        let pnm = folder.file(UUID().uuidString + ".ppm")
        try ExternalTool.run(
            "convert",
            [path] + options + ["-alpha", "off", "-colorspace", "sRGB", "-type", "TrueColor", "-depth", "8", pnm])
        return try NetPBM.read(pnm)
    }
}

extension PageImage {
    /// The pixel at (x, y) as (r, g, b); gray images repeat their value.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let index = (y * width + x) * channels
        if isGray { return (Int(pixels[index]), Int(pixels[index]), Int(pixels[index])) }
        return (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
    }

    /// True when the pixel at (x, y) is clearly blue.
    func isBlue(_ x: Int, _ y: Int) -> Bool {
        let (r, g, b) = rgb(x, y)
        return b > 200 && r < 80 && g < 80
    }

    /// True when the pixel at (x, y) is darker than mid gray in every channel.
    func isDark(_ x: Int, _ y: Int) -> Bool {
        let (r, g, b) = rgb(x, y)
        return r < 100 && g < 100 && b < 100
    }
}
