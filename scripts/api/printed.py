"""Helpers of the tests of what was printed (text, queries, snapshots, facts): documents made with ghostscript,
Print-Job with job attributes, and running the vprinter command line."""
import os
import struct
import subprocess
import urllib.request

from conftest import WAIT_LIMIT, build_request, ipp

ENUM = 0x23
RANGE_OF_INTEGER = 0x33
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
    """A PDF of `PAGES` (see postscript for the options), made with ghostscript's pdfwrite."""
    source = os.path.join(folder, name + ".ps")
    with open(source, "w") as file:
        file.write(postscript(**options))
    path = os.path.join(folder, name + ".pdf")
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite", "-sOutputFile=" + path,
                    source], check=True)
    return path


def make_pwg(folder, name, dpi=300, gray=True, **options):
    """The same document as PWG raster, made with ghostscript's pwgraster device."""
    source = os.path.join(folder, name + ".ps")
    with open(source, "w") as file:
        file.write(postscript(**options))
    path = os.path.join(folder, name + ".pwg")
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pwgraster", "-r%d" % dpi,
                    "-dcupsColorSpace=%d" % (18 if gray else 19), "-dcupsBitsPerColor=8",
                    "-sOutputFile=" + path, source], check=True, stdout=subprocess.DEVNULL)
    return path


def read(path):
    with open(path, "rb") as file:
        return file.read()


def job_attribute(name, value):
    """A job template attribute: int as integer, ('enum', n) as enum, ('range', low, high) as rangeOfInteger, str
    as keyword."""
    if isinstance(value, tuple) and value[0] == "range":
        return struct.pack(">BH", RANGE_OF_INTEGER, len(name)) + name.encode() + struct.pack(">Hii", 8, *value[1:])
    if isinstance(value, tuple):
        return struct.pack(">BH", ENUM, len(name)) + name.encode() + struct.pack(">Hi", 4, value[1])
    if isinstance(value, int):
        return ipp.attribute(ipp.INTEGER, name, value)
    return ipp.attribute(ipp.KEYWORD, name, value)


def print_job(uri, document, document_format="application/pdf", name="job", user="pytest", **attributes):
    """Print-Job with `document` and job attributes (keyword arguments, `_` for `-`); returns the job id."""
    # The operation attributes of conftest's request, without its end-of-attributes tag.
    body = build_request(uri, name, document_format, user)[:-1]
    if attributes:
        body += bytes([ipp.JOB_ATTRIBUTES])
        for key, value in attributes.items():
            body += job_attribute(key.replace("_", "-"), value)
    body += bytes([ipp.END_OF_ATTRIBUTES])
    request = urllib.request.Request(uri.replace("ipp://", "http://"), data=body + document,
                                     headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(request, timeout=WAIT_LIMIT) as response:
        answer = response.read()
    status = struct.unpack(">H", answer[2:4])[0]
    assert status < 0x0100, "Print-Job answered IPP status 0x%04x" % status
    # job-id: the first integer attribute named job-id in the answer.
    marker = b"\x21\x00\x06job-id\x00\x04"
    at = answer.index(marker) + len(marker)
    return struct.unpack(">i", answer[at:at + 4])[0]


def vprinter(*arguments, timeout=120, environment=None):
    """Runs the vprinter command line (with `environment` added to this one's); returns (exit status, stdout,
    stderr)."""
    done = subprocess.run([os.environ["VPRINTER"], *arguments], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(environment or {})))
    return done.returncode, done.stdout, done.stderr


def words(text):
    """The words of a text, lowercased, without surrounding punctuation."""
    result = []
    for word in text.split():
        word = word.strip(".,:;!?()[]\"'").lower()
        if word:
            result.append(word)
    return result
