"""Documents for tests: the sample PDF, the sample documents CUPS's ipptool suites open, and documents Ghostscript
makes from PostScript (PDF, PWG raster, or any of its devices). They are generated at run time, so that no binary
fixture has to be committed. PDFs without Ghostscript come from the vprinter package (vprinter.documents)."""
import os
import subprocess

from vprinter import documents

# A one-page PDF with one line of text: what a test prints when the document does not matter.
SAMPLE_PDF = documents.pdf(["printed by pytest"])
# The longest Ghostscript may take for one document, in seconds.
GHOSTSCRIPT_LIMIT = 120
# cupsColorSpace of Ghostscript's pwgraster device (CUPS's cups_cspace_t): 8-bit gray (sGray) and sRGB.
PWG_GRAY, PWG_RGB = 18, 19

# A PostScript page titled %s: a frame 1/2 inch inside the sheet, a title and a gray and a colored patch, so that
# rendering, margins and color are all visible in the output.
PAGE_PROGRAM = """/W currentpagedevice /PageSize get 0 get def
/H currentpagedevice /PageSize get 1 get def
0 setgray 2 setlinewidth 36 36 W 72 sub H 72 sub rectstroke
/Helvetica findfont 28 scalefont setfont 72 H 120 sub moveto (%s) show
/Helvetica findfont 12 scalefont setfont 72 H 150 sub moveto (vprinter sample document) show
0.5 setgray 72 72 144 144 rectfill
0.9 0.2 0.1 setrgbcolor 240 72 144 144 rectfill
showpage
"""
# A small photo-like image: the page at 30 dpi on a 180x240 pixel sheet.
JPEG_OPTIONS = ("-r30", "-g180x240", "-dFIXEDMEDIA", "-dPDFFitPage")
# The documents CUPS's ipp-1.1/2.x/everywhere suites and ippsample's suites (pwg5100.7: testfile.ps, testfile.txt,
# onepage-letter.pdf) open by name in their FILE lines: the Ghostscript device (or "text" for a plain text file),
# the page's title and the device's options of each.
IPPTOOL_DOCUMENTS = {
    "document-a4.pdf": ("pdfwrite", "a4 page", ("-sPAPERSIZE=a4", "-dFIXEDMEDIA")),
    "document-letter.pdf": ("pdfwrite", "letter page", ("-sPAPERSIZE=letter", "-dFIXEDMEDIA")),
    "document-a4.ps": ("ps2write", "a4 page", ("-sPAPERSIZE=a4", "-dFIXEDMEDIA")),
    "document-letter.ps": ("ps2write", "letter page", ("-sPAPERSIZE=letter", "-dFIXEDMEDIA")),
    "testfile.ps": ("ps2write", "test file", ("-sPAPERSIZE=letter", "-dFIXEDMEDIA")),
    "testfile.txt": ("text", "test file", ()),
    "onepage-letter.pdf": ("pdfwrite", "one letter page", ("-sPAPERSIZE=letter", "-dFIXEDMEDIA")),
    "color.jpg": ("jpeg", "color image", JPEG_OPTIONS),
    "gray.jpg": ("jpeggray", "gray image", JPEG_OPTIONS),
}


class GhostscriptError(subprocess.SubprocessError):
    """Ghostscript did not make a document; the message names its error."""


def ghostscript(device, output, *options, source=None, program=None):
    """Runs Ghostscript's ``device`` on a PostScript file (``source``) or a PostScript program given on its standard
    input (``program``); writes ``output`` and returns its path. ``options`` go before the input (``-r300``,
    ``-sPAPERSIZE=letter``). Raises GhostscriptError when it fails."""
    # pdfwrite and ps2write write this command line into the document (%%Invocation, the paths as "?").
    command = ["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=" + device, *options, "-o", os.fspath(output),
               "-" if program is not None else os.fspath(source)]
    done = subprocess.run(command, input=program, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=GHOSTSCRIPT_LIMIT)
    if done.returncode:
        said = done.stdout.strip().splitlines() or ["no message"]
        raise GhostscriptError("gs -sDEVICE=%s %s: exit status %d: %s" % (device, os.fspath(output), done.returncode,
                                                                          said[0]))
    return os.fspath(output)


def source(folder, name, postscript):
    """Writes PostScript text to ``folder``/``name``.ps; returns its path."""
    path = os.path.join(os.fspath(folder), name + ".ps")
    with open(path, "w") as file:
        file.write(postscript)
    return path


def pdf_of_postscript(folder, name, postscript):
    """``folder``/``name``.pdf made by pdfwrite from PostScript text; returns its path."""
    return ghostscript("pdfwrite", os.path.join(os.fspath(folder), name + ".pdf"),
                       source=source(folder, name, postscript))


def pwg_of_postscript(folder, name, postscript, dpi=300, gray=True):
    """``folder``/``name``.pwg, 8-bit sGray (or sRGB) PWG raster at ``dpi``, from PostScript text; returns its
    path."""
    return ghostscript("pwgraster", os.path.join(os.fspath(folder), name + ".pwg"), "-r%d" % dpi,
                       "-dcupsColorSpace=%d" % (PWG_GRAY if gray else PWG_RGB), "-dcupsBitsPerColor=8",
                       source=source(folder, name, postscript))


def pdf_of_program(path, program):
    """A PDF made by pdfwrite from a PostScript program (``1 1 20 { ... showpage } for``); returns its bytes."""
    ghostscript("pdfwrite", path, program=program)
    with open(path, "rb") as file:
        return file.read()


def ipptool_document(folder, name):
    """Writes the IPPTOOL_DOCUMENTS document ``name`` into ``folder``; returns its path."""
    device, title, options = IPPTOOL_DOCUMENTS[name]
    if device == "text":
        path = os.path.join(os.fspath(folder), name)
        with open(path, "w") as file:
            file.write("%s\nvprinter sample document\n" % title)
        return path
    return ghostscript(device, os.path.join(os.fspath(folder), name), *options, program=PAGE_PROGRAM % title)


def ipptool_documents(folder):
    """Writes every IPPTOOL_DOCUMENTS document into ``folder`` (made when missing); returns the folder."""
    os.makedirs(folder, exist_ok=True)
    for name in IPPTOOL_DOCUMENTS:
        ipptool_document(folder, name)
    return folder
