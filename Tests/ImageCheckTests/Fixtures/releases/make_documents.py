"""Writes the PDFs whose renderings are the release fixtures (README.md beside this file): a text page and a mixed
page (text, a rule, a table, a colour fill, an image), neither embedding its fonts, and the changed variants of
them. Ghostscript's pdfwrite makes them from PostScript. Standard library only.

usage: python3 make_documents.py FOLDER
"""
import os
import subprocess
import sys

HEADER = "%!PS\n<< /PageSize [612 792] >> setpagedevice\n"

BODY = [
    "The quick brown fox jumps over the lazy dog while the printer waits for its next job.",
    "Golden files hold the pixels a test expects; a renderer of another release places",
    "each glyph a fraction of a pixel elsewhere and smooths its edges in its own way.",
    "Invoice 2026-0415, amount due 1,250.00 EUR, payable within thirty days of receipt.",
    "Sphinx of black quartz, judge my vow: 0123456789 and a few more words to fill it.",
]


def text_page(body=BODY):
    """A letter page: a heading in Helvetica-Bold, paragraphs in Times-Roman 11 pt, a footer in Courier."""
    program = "/Helvetica-Bold findfont 20 scalefont setfont 72 700 moveto (Release fixture: text) show\n"
    program += "/Times-Roman findfont 11 scalefont setfont\n"
    for paragraph in range(3):
        for index, line in enumerate(body):
            y = 660 - paragraph * 90 - index * 15
            program += "72 %d moveto (%s) show\n" % (y, line)
    program += "/Courier findfont 9 scalefont setfont 72 72 moveto (page 1 of 1  printed by vprinter) show\n"
    return HEADER + program + "showpage\n"


def mixed_page(rule_y=610, amount="1,250.00", fill=(0.2, 0.4, 0.8), image=True):
    """A letter page: a heading, a paragraph in Helvetica, a rule at ``rule_y``, a table with an amount, a colour
    fill and an 8 x 8 RGB image drawn 144 pt wide."""
    program = "/Helvetica-Bold findfont 18 scalefont setfont 72 700 moveto (Release fixture: mixed) show\n"
    program += "/Helvetica findfont 10 scalefont setfont\n"
    for index, line in enumerate(BODY[:3]):
        program += "72 %d moveto (%s) show\n" % (670 - index * 13, line)
    program += "0 setgray 1 setlinewidth 72 %d moveto 540 %d lineto stroke\n" % (rule_y, rule_y)
    rows = [("Item", "Qty", "Amount"), ("Paper, A4", "2", "12.40"), ("Toner", "1", amount), ("Total", "", "1,262.40")]
    program += "0.5 setlinewidth\n"
    for index, (item, quantity, value) in enumerate(rows):
        y = 570 - index * 20
        program += "72 %d moveto 400 %d lineto stroke\n" % (y - 6, y - 6)
        program += "/Times-Roman findfont 11 scalefont setfont 76 %d moveto (%s) show 260 %d moveto (%s) show\n" % (
            y, item, y, quantity)
        program += "(%s) dup stringwidth pop 396 exch sub %d moveto show\n" % (value, y)
    program += "%.2f %.2f %.2f setrgbcolor 72 300 180 120 rectfill\n" % fill
    if image:
        pixels = "".join("%02x%02x%02x" % ((x * 36) % 256, (y * 36) % 256, ((x + y) * 18) % 256)
                         for y in range(8) for x in range(8))
        program += "gsave 300 300 translate 144 144 scale 8 8 8 [8 0 0 -8 0 8] <%s> false 3 colorimage grestore\n" % (
            pixels)
    program += "0 setgray /Courier findfont 9 scalefont setfont 72 72 moveto (page 1 of 1  printed by vprinter) show\n"
    return HEADER + program + "showpage\n"


def documents():
    """{file name: PostScript}: the originals and their changed variants."""
    dropped = list(BODY)
    dropped[0] = dropped[0].replace("brown", "bown")
    swapped = list(BODY)
    swapped[3] = swapped[3].replace("1,250.00", "1,290.00")
    return {
        "text.pdf": text_page(),
        "mixed.pdf": mixed_page(),
        "text-glyph-dropped.pdf": text_page(dropped),
        "text-glyph-swapped.pdf": text_page(swapped),
        "mixed-line-moved.pdf": mixed_page(rule_y=607),
        "mixed-glyph-swapped.pdf": mixed_page(amount="1,290.00"),
        "mixed-image-removed.pdf": mixed_page(image=False),
        "mixed-colour-changed.pdf": mixed_page(fill=(0.2, 0.5, 0.8)),
    }


def main(folder):
    os.makedirs(folder, exist_ok=True)
    for name, postscript in documents().items():
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-dEmbedAllFonts=false",
                        "-dSubsetFonts=false", "-o", os.path.join(folder, name), "-"],
                       input=postscript.encode(), check=True, timeout=120)
        print(os.path.join(folder, name))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(sys.argv[1])
