"""The document of the tests of what was printed (text, queries, snapshots, facts): three pages of ordinary
sentences as PostScript, made into PDF or PWG raster by Ghostscript, and the words a tester looks for in them."""
from vptest import documents

# Three pages of ordinary sentences, the words a tester would look for among them.
PAGES = [
    ["Invoice 42 for Jane Smith", "Order date 12 March 2026", "Item one: blue paper, ten boxes",
     "Item two: black toner cartridge", "Please pay within thirty days"],
    ["Total 99.00 EUR including tax", "Bank transfer to account 1234", "Questions about this invoice",
     "call our office on Monday morning", "Thank you for your business"],
    ["Terms and conditions apply", "Goods remain our property until paid", "Returns accepted within two weeks",
     "Keep this page for your records", "End of document"],
]


def postscript(pages=PAGES, shift_mm=None, page_size=(612, 792)):
    """PostScript of `pages` (lists of lines); with shift_mm {page: mm}, that page's content moves right by mm."""
    width, height = page_size
    out = ["%!PS", "<< /PageSize [%d %d] >> setpagedevice" % (width, height)]
    for number, lines in enumerate(pages, start=1):
        dx = (shift_mm or {}).get(number, 0) * 72 / 25.4
        out.append("gsave %.3f 0 translate /Helvetica findfont 16 scalefont setfont" % dx)
        for index, line in enumerate(lines):
            out.append("72 %d moveto (%s) show" % (height - 100 - index * 30, line))
        out.append("0 0 0.8 setrgbcolor 72 %d 200 40 rectfill grestore showpage" % (height - 400))
    return "\n".join(out) + "\n"


def make_pdf(folder, name, **options):
    """A PDF of `PAGES` (see postscript for the options), made with ghostscript's pdfwrite; its path."""
    return documents.pdf_of_postscript(folder, name, postscript(**options))


def make_pwg(folder, name, dpi=300, gray=True, **options):
    """The same document as 8-bit PWG raster, made with ghostscript's pwgraster device; its path."""
    return documents.pwg_of_postscript(folder, name, postscript(**options), dpi=dpi, gray=gray)


def read(path):
    with open(path, "rb") as file:
        return file.read()


def words(text):
    """The words of a text, lowercased, without surrounding punctuation."""
    result = []
    for word in text.split():
        word = word.strip(".,:;!?()[]\"'").lower()
        if word:
            result.append(word)
    return result
