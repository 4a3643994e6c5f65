extension JobRun {
    /// Interprets a PostScript document with Ghostscript (``GhostscriptProcess``) into PWG Raster at the ticket's
    /// resolution and streams its pages onto the sides; pages without a size of their own take the ticket's media.
    func renderPostScript(_ path: String, document: Int) throws(RasterError) -> Int {
        let points = 72.0 / 2540.0
        let interpreter = try GhostscriptProcess(
            document: path, dpi: min(ticket.resolution, limits.maximumResolution), gray: ticket.colorMode != .color,
            width: Double(ticket.mediaWidth) * points, height: Double(ticket.mediaHeight) * points, limits: limits)
        defer { interpreter.terminate() }
        let pages: Int
        do {
            let reader = try RasterReader(input: interpreter.output, limits: limits)
            pages = try renderRaster(reader, document: document)
        } catch .truncated(let what, _) where what == "raster signature" {
            // Nothing came out: either the interpreter failed, or the program printed no page.
            try interpreter.finish()
            throw .libraryFailure(library: "ghostscript", message: "the PostScript program printed no page")
        } catch {
            // A broken stream is the interpreter's failure first (stopped, out of memory, a PostScript error).
            try interpreter.finish(underlying: error)
            throw error
        }
        try interpreter.finish()
        return pages
    }
}
