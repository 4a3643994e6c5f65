import Foundation

/// Documents the tests generate at test time: pages that carry their number, colored shapes and corner marks,
/// so geometry and color mistakes show.
enum TestDocuments {
    /// PostScript for `pages` pages of `width` x `height` points.
    static func postScript(pages: Int, width: Int = 612, height: Int = 792) -> String {
        """
        %!PS
        << /PageSize [\(width) \(height)] >> setpagedevice
        /Helvetica findfont 72 scalefont setfont
        1 1 \(pages) {
          /n exch def
          1 0 0 setrgbcolor 60 \(height - 150) moveto n 10 string cvs show
          0 0 1 setrgbcolor 100 100 200 150 rectfill
          0 0.6 0 setrgbcolor 10 setlinewidth 300 300 moveto \(width - 100) \(height - 250) lineto stroke
          0.5 setgray 320 120 120 60 rectfill
          0 setgray 0 0 36 36 rectfill \(width - 36) \(height - 36) 36 36 rectfill
          showpage
        } for
        """
    }

    /// Writes the PostScript document to `folder` and returns its path.
    static func writePostScript(in folder: TemporaryFolder, pages: Int, width: Int = 612, height: Int = 792) throws
        -> String
    {
        let path = folder.file("document-\(pages)p-\(width)x\(height).ps")
        try postScript(pages: pages, width: width, height: height).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Makes `name`.pdf in `folder` from a PostScript `program` with ghostscript's pdfwrite.
    static func pdf(in folder: TemporaryFolder, named name: String, postScript program: String) throws -> String {
        let source = folder.file(name + ".ps")
        try program.write(toFile: source, atomically: true, encoding: .utf8)
        let path = folder.file(name + ".pdf")
        try ExternalTool.ghostscript(["-sDEVICE=pdfwrite", "-sOutputFile=\(path)", source])
        return path
    }

    /// Makes a PDF from the PostScript document with ghostscript's pdfwrite.
    static func pdf(in folder: TemporaryFolder, pages: Int, width: Int = 612, height: Int = 792) throws -> String {
        let source = try writePostScript(in: folder, pages: pages, width: width, height: height)
        let path = folder.file("document-\(pages)p-\(width)x\(height).pdf")
        try ExternalTool.ghostscript(["-sDEVICE=pdfwrite", "-sOutputFile=\(path)", source])
        return path
    }
}
