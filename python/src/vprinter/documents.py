"""Small documents to print from a test, made with the standard library: a PDF of text pages, a PDF of an image,
and any PDF of objects given.

    pdf(["Invoice 42\\nTotal 99.00", "Page two"], size="a4")
    image_pdf(os.urandom(300 * 300 * 3), 300, 300)

Each page's lines are set in Helvetica from the top left; Poppler reads them back as the page's text.
"""

# Page sizes in PDF points (1/72 inch).
PAGE_SIZES = {"letter": (612, 792), "a4": (595, 842), "legal": (612, 1008), "a5": (420, 595)}
# Where the first line starts, from the top left corner, and the line height, in points.
MARGIN = 72
FONT_SIZE = 24
LINE_HEIGHT = 32


def _escaped(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(pages, size="letter", font_size=FONT_SIZE):
    """A PDF with one page per item of ``pages`` (each a string; lines split at newlines).

    ``size`` is a name of PAGE_SIZES or (width, height) in points. Text is Latin-1 (Helvetica's
    WinAnsi encoding); other characters become '?'.
    """
    if isinstance(pages, str):
        pages = [pages]
    if not pages:
        raise ValueError("a PDF needs at least one page")
    width, height = PAGE_SIZES[size] if isinstance(size, str) else size
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>"}
    font = 3
    objects[font] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    kids = []
    number = 4
    for text in pages:
        lines = str(text).split("\n")
        content = "BT /F1 %d Tf %d TL %d %d Td " % (font_size, LINE_HEIGHT, MARGIN, height - MARGIN - font_size)
        content += " T* ".join("(%s) Tj" % _escaped(line) for line in lines) + " ET"
        stream = content.encode("latin-1", "replace")
        objects[number] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
        objects[number + 1] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R"
            b" /Resources << /Font << /F1 %d 0 R >> >> >>" % (width, height, number, font))
        kids.append(number + 1)
        number += 2
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % kid for kid in kids), len(kids))
    return pdf_file([objects[key] for key in range(1, max(objects) + 1)])


def image_pdf(pixels, width, height, size="letter"):
    """A one-page PDF showing one RGB image, uncompressed (``pixels``: ``width * height * 3`` bytes, rows top
    first), as wide as the page less 1 inch margins, from the top margin down."""
    if len(pixels) != width * height * 3:
        raise ValueError("an RGB image of %d x %d needs %d bytes, not %d" % (width, height, width * height * 3,
                                                                             len(pixels)))
    page_width, page_height = PAGE_SIZES[size] if isinstance(size, str) else size
    shown_width = page_width - 2 * MARGIN
    shown_height = shown_width * height / width
    placement = b"q %d 0 0 %.2f %d %.2f cm /Im1 Do Q" % (shown_width, shown_height, MARGIN,
                                                          page_height - MARGIN - shown_height)
    return pdf_file([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R"
        b" /Resources << /XObject << /Im1 5 0 R >> >> >>" % (page_width, page_height),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(placement), placement),
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8"
        b" /Length %d >>\nstream\n" % (width, height, len(pixels)) + bytes(pixels) + b"\nendstream",
    ])


def pdf_file(objects):
    """A PDF file (PDF 1.4) of these objects, each the bytes between ``N 0 obj`` and ``endobj``, numbered from 1;
    the first is the catalog. Writes the cross-reference table and the trailer."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    count = len(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % count
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, xref)
    return out
