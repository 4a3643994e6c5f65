"""Documents for tests: the sample PDF, and documents Ghostscript makes from PostScript (PDF, PWG raster, or any of
its devices). PDFs without Ghostscript come from the vprinter package (vprinter.documents)."""
import os
import subprocess

from vprinter import documents

from . import scriptlib

# A one-page PDF with one line of text: what a test prints when the document does not matter.
SAMPLE_PDF = documents.pdf(["printed by pytest"])
# The longest Ghostscript may take for one document, in seconds.
GHOSTSCRIPT_LIMIT = 120
# The documents CUPS's ipptool suites (ipp-1.1, ipp-2.x, ipp-everywhere) open by name in their FILE lines.
IPPTOOL_DOCUMENTS = ("document-a4.pdf", "document-letter.pdf", "document-a4.ps", "document-letter.ps", "color.jpg",
                     "gray.jpg")
# cupsColorSpace of Ghostscript's pwgraster device (CUPS's cups_cspace_t): 8-bit gray (sGray) and sRGB.
PWG_GRAY, PWG_RGB = 18, 19


def ghostscript(device, output, *options, source=None, program=None):
    """Runs Ghostscript's ``device`` on a PostScript file (``source``) or a PostScript program given on the command
    line (``program``); writes ``output`` and returns its path. ``options`` go before the input
    (``-r300``, ``-sPAPERSIZE=letter``)."""
    command = ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=" + device, "-sOutputFile=" + os.fspath(output),
               *options]
    command += ["-c", program] if program is not None else [os.fspath(source)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=GHOSTSCRIPT_LIMIT)
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


def ipptool_documents(folder):
    """Writes IPPTOOL_DOCUMENTS into ``folder`` (made when missing) with scripts/lib/documents.sh, the pages the bash
    stages print too; returns the folder. Fails naming Ghostscript's error when one is not made."""
    os.makedirs(folder, exist_ok=True)
    done = scriptlib.call("documents.sh", "documents_make_ipptool_set", folder)
    paths = [os.path.join(folder, name) for name in IPPTOOL_DOCUMENTS]
    missing = [path for path in paths if not (os.path.isfile(path) and os.path.getsize(path))]
    assert done.returncode == 0 and not missing, "documents_make_ipptool_set: exit status %d, missing: %s: %s" % (
        done.returncode, ", ".join(missing) or "none", done.stderr.strip()[-1000:])
    return folder
