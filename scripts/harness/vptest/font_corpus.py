"""The documents that show whether two machines print the same pixels (docs/snapshots.md, "What makes golden files
portable"): PDFs whose fonts are not embedded (the PostScript standard fonts, the common office fonts, Japanese text
in a CID font), a PDF with embedded fonts, PostScript, PWG raster and JPEG. Ghostscript makes all but the Japanese
PDF, which the vprinter package's PDF writer makes.

``write(folder)`` makes them, ``render`` prints them with a vprinter, ``differences`` compares two renderings;
``python3 -m vptest.font_corpus`` does the same from a shell (scripts/fresh-machine-test). Standard library only.
"""
import json
import os
import subprocess
import sys

from vprinter.documents import pdf_file

from . import documents

# The longest one ``vprinter render`` or ``vprinter compare`` may take, in seconds.
COMMAND_LIMIT = 300

# The PostScript standard fonts and the office fonts a PDF most often leaves out, as PostScript names.
NOT_EMBEDDED = ("Helvetica", "Helvetica-Bold", "Times-Roman", "Times-Italic", "Courier", "Symbol", "Palatino-Roman",
                "Arial", "TimesNewRoman", "CourierNew", "Calibri", "Cambria", "Garamond")
# Japanese text (Nihongo no tekisuto) as UCS-2 for the UniJIS-UCS2-H encoding.
JAPANESE = "日本語のテキスト"


def _lines(fonts):
    """PostScript that sets one line per font, 11 lines a page."""
    program = ""
    for index, font in enumerate(fonts):
        if index and index % 11 == 0:
            program += "showpage\n"
        program += "/%s findfont 22 scalefont setfont 54 %d moveto (%s: The quick brown fox 0123) show\n" % (
            font, 730 - 62 * (index % 11), font)
    return "%!PS\n<< /PageSize [612 792] >> setpagedevice\n" + program + "showpage\n"


def japanese_pdf():
    """A letter page of Japanese text in MS-Mincho, a CID font (Adobe-Japan1) the PDF does not embed."""
    text = JAPANESE.encode("utf-16-be").hex().upper()
    content = ("BT /F1 36 Tf 72 650 Td <%s> Tj ET" % text).encode()
    return pdf_file([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /MS-Mincho /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /MS-Mincho /FontDescriptor 7 0 R"
        b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> >>",
        b"<< /Type /FontDescriptor /FontName /MS-Mincho /Flags 6 /FontBBox [0 -141 1000 859] /ItalicAngle 0"
        b" /Ascent 859 /Descent -141 /CapHeight 700 /StemV 80 >>",
    ])


def write(folder):
    """Writes the corpus into ``folder`` (made when missing); returns the files' paths, sorted."""
    folder = os.fspath(folder)
    os.makedirs(folder, exist_ok=True)
    # The same lines as PostScript (document.ps, for Ghostscript's own font lookup) and as a PDF that embeds none.
    postscript = documents.source(folder, "document", _lines(NOT_EMBEDDED))
    # NeverEmbed: Ghostscript 10.05 (Debian 13) embeds the fonts it substitutes for the office fonts unless told not to.
    never = "<< /NeverEmbed [%s] >> setdistillerparams\n" % " ".join("/" + font for font in NOT_EMBEDDED)
    unembedded = documents.source(folder, "not-embedded", _lines(NOT_EMBEDDED).replace("%!PS\n", "%!PS\n" + never, 1))
    documents.ghostscript("pdfwrite", os.path.join(folder, "fonts-not-embedded.pdf"), "-dEmbedAllFonts=false",
                          "-dSubsetFonts=false", source=unembedded)
    os.remove(unembedded)
    # URW's own names: pdfwrite embeds these.
    documents.ghostscript("pdfwrite", os.path.join(folder, "fonts-embedded.pdf"), source=documents.source(
        folder, "embedded", _lines(("NimbusSans-Regular", "NimbusRoman-Italic", "URWGothic-Book", "C059-Roman"))))
    with open(os.path.join(folder, "japanese-not-embedded.pdf"), "wb") as file:
        file.write(japanese_pdf())
    documents.ghostscript("pwgraster", os.path.join(folder, "raster.pwg"), "-r150", "-dcupsColorSpace=%d"
                          % documents.PWG_RGB, "-dcupsBitsPerColor=8", source=postscript)
    documents.ghostscript("jpeg", os.path.join(folder, "photo.jpg"), "-r100",
                          source=documents.source(folder, "photo", "%!PS\n<< /PageSize [612 792] >> setpagedevice\n"
                                                  "0.2 0.4 0.8 setrgbcolor 72 72 468 648 rectfill\n1 1 0 setrgbcolor "
                                                  "306 396 150 0 360 arc fill showpage\n"))
    os.remove(os.path.join(folder, "photo.ps"))
    os.remove(os.path.join(folder, "embedded.ps"))
    return sorted(os.path.join(folder, name) for name in os.listdir(folder))


def render(vprinter, corpus, out):
    """Renders every file of the folder ``corpus`` with ``vprinter render`` into ``out``/NAME/ (``vprinter``: the
    command as a list, a binary or ``podman run ... IMAGE``, whose paths are this machine's); returns
    {name: its warning lines on stderr (``vprinter: warning: ...``)}. Fails naming the file that did not render."""
    warnings = {}
    for name in sorted(os.listdir(corpus)):
        done = subprocess.run([*vprinter, "render", os.path.join(corpus, name), "--out", os.path.join(out, name)],
                              capture_output=True, text=True, timeout=COMMAND_LIMIT)
        assert done.returncode == 0, "vprinter render %s: exit status %d: %s" % (name, done.returncode,
                                                                                 done.stderr.strip()[-1000:])
        warnings[name] = "".join(line for line in done.stderr.splitlines(keepends=True)
                                 if line.startswith("vprinter: warning: "))
    return warnings


def differences(binary, actual, expected):
    """Compares each document's sides in ``actual``/NAME with ``expected``/NAME (``vprinter compare --json``);
    returns one line per side that is not pixel-identical (PSNR inf), or per document that has no counterpart."""
    found = []
    for name in sorted(set(os.listdir(actual)) | set(os.listdir(expected))):
        done = subprocess.run([binary, "compare", os.path.join(actual, name), os.path.join(expected, name), "--json"],
                              capture_output=True, text=True, timeout=COMMAND_LIMIT)
        if done.returncode == 2 or not done.stdout.strip():
            found.append("%s: %s" % (name, done.stderr.strip() or "no comparison"))
            continue
        for side in json.loads(done.stdout)["sides"]:
            if not side.get("identical"):
                found.append("%s side %s: PSNR %s dB, %s pixels differ" % (
                    name, side.get("number"), side.get("psnr"), side.get("differing-pixels")))
    return found


USAGE = """usage: python3 -m vptest.font_corpus write FOLDER
       python3 -m vptest.font_corpus render VPRINTER CORPUS OUT
       python3 -m vptest.font_corpus compare VPRINTER ACTUAL EXPECTED   (exit 1 when a side differs)"""


def main(arguments):
    if arguments[:1] == ["write"] and len(arguments) == 2:
        print("\n".join(write(arguments[1])))
    elif arguments[:1] == ["render"] and len(arguments) == 4:
        for name, text in render([arguments[1]], arguments[2], arguments[3]).items():
            print("%s: %s" % (name, text.strip() or "no warnings"))
    elif arguments[:1] == ["compare"] and len(arguments) == 4:
        differing = differences(*arguments[1:])
        print("\n".join(differing) or "every side is identical (PSNR inf)")
        return 1 if differing else 0
    else:
        sys.exit(USAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
