"""The document suite of the PWG's IPP Everywhere Printer Self-Certification 1.1 (the manual's section 7, "Document
Data Tests": document-tests.test, D-1 to D-3) checked as the manual asks a person to check its hardcopy, from what
vprinter printed: the job records (docs/job-record.md) and the PNG of every printed side in its output folder.

    attributes = vptest.printer.profile_attributes("color-inkjet")
    for problem in selfcert_renders.problems(printer.output_dir, attributes):
        print(problem)   # "D-2.2 color.jpg with copies=2 (job 13): 1 set printed (job-media-sheets 1), 2 asked"

What the suite sends is read from the PWG's test file itself (selfcert.tests_folder(), never copied): every Print-Job
test, with the job-name, the job attributes and the document it sends, left out when ipptool skips it
(SKIP-IF-NOT-DEFINED of the variables its Get-Printer-Attributes tests define with DEFINE-MATCH, evaluated here on
``attributes``). A job of the output is that test's when its job-name has the test's "D-x.y" and, for the PWG
raster tests, its color space ("D-1.2 sgray_8, deflate"), so the names may be spelled a little differently.

The suite's own verdicts do not see the paper: its "Wait for job to complete" tests pass once job-state is above
processing, an aborted job too. The checks here, each a sentence naming the job when it fails:

- every job the suite sent is in the output, and it completed;
- the pages printed, in order, are the document's (NUM-PAGES of a GENERATE-FILE raster: one for D-1.1 to D-1.3,
  four for D-1.4 and D-1.5; one for color.jpg; the PDFs' pages as pdfinfo counts them) or those page-ranges asks
  (D-3.3: page 3 only, and the same text as page 3 of D-3.1); no side is blank;
- copies=2 makes two sets (D-2.2, D-3.2): copies, job-media-sheets and job-impressions twice one set's, and one set
  the same sheets as the same document sent with defaults (D-2.1, D-3.1);
- sides=two-sided-long-edge (D-3.4): the job printed two-sided, each sheet's front has the odd page and its back
  the even one, half as many sheets as pages; a one-sided job has no backs;
- the sheet size: each PNG's pixels at its dpi are the media the job asked (D-1.4, D-1.5, D-2.4, D-2.5, D-3.5,
  D-3.6: A4 or Letter) or else the printer's media-default, within SIZE_TOLERANCE_MM, and the record's media-actual
  names that media; the document's pages were made for it (no raster-page-size warning);
- color: print-color-mode=monochrome (D-2.3, D-3.3) or a printer without color-supported prints no pixel with a
  hue (R, G and B within GRAY_TOLERANCE); on a color printer a color document's color pages (color.jpg, the photo
  and graph pages of the PDFs, the color PWG rasters) have at least COLOR_PIXELS pixels with one.

PNGs are read with Pillow when the Python running this has it, else with the small decoder below (zlib from the
standard library; vprinter writes 8-bit gray or RGB and 1-bit gray PNGs without row filters, which it reads fast).
"""
import dataclasses
import functools
import json
import math
import pathlib
import re
import shutil
import struct
import subprocess
import zlib
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from . import selfcert

# A pixel has no hue when its strongest and weakest channel differ by this much or less (of 255).
GRAY_TOLERANCE = 8
# Pixels with a hue a color page must show to count as printed in color (a photo has hundreds of thousands).
COLOR_PIXELS = 100
# How far a sheet's size may be from the media's, in millimetres, either way (Letter and A4 differ by 5.9 and 17.6).
SIZE_TOLERANCE_MM = 2.0
# Seconds pdfinfo may take to count a document's pages.
PDFINFO_LIMIT = 30
# The pages of the suite's documents that carry color, by file name, as a person sees them (None: every page):
# color.jpg is a photo; page 1 of document-letter.pdf and document-a4.pdf has a photo, page 3 a color bar graph,
# pages 2 and 4 are black text.
COLOR_PAGES: Dict[str, Optional[Tuple[int, ...]]] = {
    "color.jpg": None,
    "document-letter.pdf": (1, 3),
    "document-a4.pdf": (1, 3),
}
# PWG raster types (pwg-raster-document-type-supported) that carry color; the rasters selfcert.Rasters makes for
# them have a red square on every page.
COLOR_TYPES = ("srgb_8", "srgb_16", "adobe-rgb_8", "adobe-rgb_16", "cmyk_8", "cmyk_16")
# The jobs' folder in an output folder, and an ended job's states.
JOBS = "jobs"
ENDED = ("completed", "canceled", "aborted")
# A job-name's test ("D-2.2") and, for the raster tests, its color space ("black_1").
JOB_KEY = re.compile(r"^\s*(D-\d+\.\d+)\b(?:\s+((?:[a-z]+-)*[a-z]+_\d+)\b)?")
# The lines of document-tests.test read here.
NAME_LINE = re.compile(r'^\s*NAME\s+"(.*)"\s*$')
OPERATION_LINE = re.compile(r"^\s*OPERATION\s+(\S+)")
SKIP_LINE = re.compile(r"^\s*SKIP-IF-NOT-DEFINED\s+(\S+)")
ATTR_LINE = re.compile(r"^\s*ATTR\s+(\S+)\s+(\S+)\s+(.*?)\s*$")
FILE_LINE = re.compile(r'^\s*FILE\s+"?([^"]+?)"?\s*$')
GROUP_LINE = re.compile(r"^\s*GROUP\s+(\S+)")
EXPECT_DEFINE = re.compile(r'^\s*EXPECT\s+(\S+)\s.*\bWITH-VALUE\s+"?([^"\s]+)"?.*\bDEFINE-MATCH\s+(\S+)')
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Bytes of pixel rows inflated at a time (a 600 dpi Letter RGB side is 100 MB of them).
INFLATE_CHUNK = 1 << 20
# Millimetres in a point and in an inch.
MM_PER_POINT = 25.4 / 72
MM_PER_INCH = 25.4

try:  # Pillow, when this Python has it (the project does not require it)
    from PIL import Image
except ImportError:
    Image = None


@dataclasses.dataclass
class SentJob:
    """One Print-Job of the suite: its test's NAME, the job-name it sends, the job attributes it sets (its
    job-attributes-tag group, by IPP name, as text: ``{"copies": "2"}``), ``fidelity`` its ipp-attribute-fidelity,
    its document's file name (FILE) or None for a GENERATE-FILE raster, whose keys are ``generate`` (COLORSPACE,
    NUM-PAGES...)."""

    test: str
    job_name: str
    attributes: Dict[str, str]
    fidelity: bool
    document: Optional[str]
    generate: Dict[str, str]

    @property
    def key(self) -> Tuple[str, str]:
        return job_key(self.job_name)

    @property
    def label(self) -> str:
        return self.job_name


@dataclasses.dataclass
class Png:
    """A PNG's size and how its pixels were stored: ``channels`` 1 (gray) or 3 (RGB), ``bits`` per channel."""

    width: int
    height: int
    channels: int
    bits: int


def job_key(name: str) -> Tuple[str, str]:
    """("D-1.2", "sgray_8") of "D-1.2 sgray_8, deflate", ("D-3.4", "") of "D-3.4 document-letter.pdf with ...";
    ("", "") for a name of no test."""
    match = JOB_KEY.match(name or "")
    return (match[1], match[2] or "") if match else ("", "")


def _unquoted(text: str) -> str:
    # ipptool's value: a quoted string whose unescaped commas separate values; the first value, "\," made ",".
    text = text.strip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        text = text[1:-1]
    first = re.split(r"(?<!\\),", text, maxsplit=1)[0]
    return first.replace("\\,", ",").replace('\\"', '"')


def _blocks(text: str) -> Iterator[List[str]]:
    # The top-level { ... } blocks of an ipptool file, as lines; a GENERATE-FILE { } inside stays in its block.
    depth, lines = 0, []
    for line in text.splitlines():
        code = line.split("#", 1)[0] if not line.lstrip().startswith("ATTR") else line
        opens, closes = code.count("{"), code.count("}")
        if depth == 0 and opens:
            lines = []
        depth += opens - closes
        if depth > 0 or opens or closes:
            lines.append(line)
        if depth == 0 and (opens or closes) and lines:
            yield lines
            lines = []


def _defined(attribute: str, value: str, attributes: Dict[str, str]) -> bool:
    # EXPECT attribute WITH-VALUE value DEFINE-MATCH: the printer's value (text, a 1setOf comma-separated) has it.
    values = [item.strip() for item in attributes.get(attribute, "").split(",")]
    if value == "1":  # a boolean's true, as ipptool compares it
        return "true" in values
    return value in values


def suite_jobs(attributes: Dict[str, str], tests: Optional[pathlib.Path] = None) -> List[SentJob]:
    """The Print-Jobs document-tests.test sends to a printer with ``attributes`` (`vprinter profiles --show`'s, as
    vptest.printer.profile_attributes gives them), in order; ``tests`` is the PWG's folder (selfcert.tests_folder()
    when not given)."""
    folder = pathlib.Path(tests) if tests else selfcert.tests_folder()
    _, test_file, _ = selfcert.SCRIPTS["document"]
    defined, jobs = set(), []
    for block in _blocks((folder / test_file).read_text()):
        operation = next((m[1] for m in map(OPERATION_LINE.match, block) if m), "")
        if operation == "Get-Printer-Attributes":
            for match in filter(None, map(EXPECT_DEFINE.match, block)):
                if _defined(match[1], match[2], attributes):
                    defined.add(match[3])
            continue
        if operation != "Print-Job":
            continue
        if any(match[1] not in defined for match in filter(None, map(SKIP_LINE.match, block))):
            continue
        name = next((m[1] for m in map(NAME_LINE.match, block) if m), "?")
        groups: Dict[str, Dict[str, str]] = {}
        document, generate, inside, group = None, {}, False, "operation-attributes-tag"
        for line in block:
            if "GENERATE-FILE" in line:
                inside = True
                continue
            if inside:
                parts = line.split()
                if "}" in line:
                    inside = False
                elif len(parts) == 2:
                    generate[parts[0]] = parts[1]
                continue
            group_match, attr, file_match = GROUP_LINE.match(line), ATTR_LINE.match(line), FILE_LINE.match(line)
            if group_match:
                group = group_match[1]
            elif attr:
                groups.setdefault(group, {})[attr[2]] = _unquoted(attr[3])
            elif file_match:
                document = file_match[1]
        operation_attributes = groups.get("operation-attributes-tag", {})
        media = groups.get("job-attributes-tag", {}).get("media")
        if (operation_attributes.get("ipp-attribute-fidelity") == "true" and media and
                not _defined("media-supported", media, attributes)):
            # Refused, as RFC 8011 section 5.1.8 (ipp-attribute-fidelity) asks of a printer without that media:
            # D-2.4, D-2.5, D-3.5 and D-3.6 on a printer of neither Letter nor A4 (istopwg/ippeveselfcert#99).
            continue
        jobs.append(SentJob(name, operation_attributes.get("job-name", name), groups.get("job-attributes-tag", {}),
                            operation_attributes.get("ipp-attribute-fidelity") == "true", document, generate))
    return jobs


def read_records(output_dir: pathlib.Path) -> List[dict]:
    """Every job record of an output folder, by job-id."""
    records = []
    for path in pathlib.Path(output_dir, JOBS).glob("*/job.json"):
        record = json.loads(path.read_text())
        record["_folder"] = path.parent
        records.append(record)
    return sorted(records, key=lambda record: record["job-id"])


def png_header(path: pathlib.Path) -> Png:
    """The size and pixel layout of a PNG (its IHDR); raises ValueError when it is not a PNG."""
    with open(path, "rb") as file:
        head = file.read(33)
    if head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise ValueError("%s is not a PNG" % path)
    width, height, bits, color_type = struct.unpack(">IIBB", head[16:26])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(color_type)
    if channels is None:
        raise ValueError("%s has PNG color type %d" % (path, color_type))
    if color_type == 3:
        channels = -1  # palette: read with Pillow or the decoder's palette path
    return Png(width, height, channels, bits)


def _png_rows(path: pathlib.Path) -> Iterator[Tuple[int, bytes, int]]:
    # (channels, row of 8-bit samples, row number) of an 8-bit gray/RGB(A) or palette PNG, or a 1..8-bit gray one
    # widened to 8 bits per sample; rows unfiltered (PNG specification section 9), one at a time.
    data = pathlib.Path(path).read_bytes()
    if data[:8] != PNG_SIGNATURE:
        raise ValueError("%s is not a PNG" % path)
    position, palette = 8, b""
    width = height = bits = color_type = interlace = 0
    compressed = []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, bits, color_type, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"PLTE":
            palette = chunk
        elif kind == b"IDAT":
            compressed.append(chunk)
        elif kind == b"IEND":
            break
    if interlace:
        raise ValueError("%s is interlaced (Adam7), which this decoder does not read" % path)
    samples = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    if bits == 16:
        raise ValueError("%s has 16-bit samples, which this decoder does not read" % path)
    pixel_bytes = max(1, samples * bits // 8)
    stride = (width * samples * bits + 7) // 8
    pending, inflater = b"".join(compressed), zlib.decompressobj()
    previous = bytearray(stride)
    buffer, offset = b"", 0
    for number in range(height):
        while len(buffer) - offset < stride + 1:
            if pending:
                more = inflater.decompress(pending, INFLATE_CHUNK)
                pending = inflater.unconsumed_tail
            else:
                more = inflater.flush()
                if not more:
                    raise ValueError("%s ends before its row %d" % (path, number))
            buffer, offset = buffer[offset:] + more, 0
        kind, row = buffer[offset], buffer[offset + 1:offset + 1 + stride]
        offset += stride + 1
        if kind == 0:
            current = row
        else:
            current = _unfiltered(kind, bytearray(row), previous, pixel_bytes)
        previous = current if isinstance(current, bytearray) else bytearray(current)
        if color_type == 3:
            rgb = b"".join(palette[3 * index:3 * index + 3] for index in current)
            yield 3, rgb, number
        elif bits < 8:
            yield 1, _widened(current, bits, width), number
        else:
            yield samples, bytes(current), number


def _unfiltered(kind: int, row: bytearray, previous: bytearray, pixel_bytes: int) -> bytearray:
    # PNG filters 1 (Sub), 2 (Up), 3 (Average), 4 (Paeth), reversed in place. Slow (a Python loop a byte), used only
    # on PNGs written with filters; vprinter writes none.
    for index in range(len(row)):
        left = row[index - pixel_bytes] if index >= pixel_bytes else 0
        up = previous[index]
        corner = previous[index - pixel_bytes] if index >= pixel_bytes else 0
        if kind == 1:
            predictor = left
        elif kind == 2:
            predictor = up
        elif kind == 3:
            predictor = (left + up) // 2
        elif kind == 4:
            estimate = left + up - corner
            distances = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
            predictor = left if distances[0] <= distances[1] and distances[0] <= distances[2] else (
                up if distances[1] <= distances[2] else corner)
        else:
            raise ValueError("PNG row filter %d" % kind)
        row[index] = (row[index] + predictor) & 0xFF
    return row


def _widened(row: bytes, bits: int, width: int) -> bytes:
    # A 1, 2 or 4-bit gray row as 8-bit samples (0 black, 255 white).
    scale, per_byte, mask = 255 // ((1 << bits) - 1), 8 // bits, (1 << bits) - 1
    out = bytearray()
    for byte in row:
        for shift in range(8 - bits, -1, -bits):
            out.append(((byte >> shift) & mask) * scale)
    return bytes(out[:width])


def hued_pixels(path: pathlib.Path, enough: Optional[int] = None) -> Tuple[int, Optional[Tuple[int, int, Tuple]]]:
    """(how many pixels of a PNG have a hue: strongest and weakest of R, G, B more than GRAY_TOLERANCE apart; the
    first one's (x, y, (r, g, b))), counting stops at ``enough``. A gray PNG has none and is not decoded."""
    header = png_header(path)
    if header.channels in (1, 2):
        return 0, None
    if Image is not None:
        return _hued_with_pillow(path, enough)
    count, first = 0, None
    for channels, row, y in _png_rows(path):
        if channels < 3:
            return 0, None
        red, green, blue = row[0::channels], row[1::channels], row[2::channels]
        if red == green == blue:  # the common case of a gray row, compared in C
            continue
        for x, (r, g, b) in enumerate(zip(red, green, blue)):
            if max(r, g, b) - min(r, g, b) > GRAY_TOLERANCE:
                count += 1
                first = first or (x, y, (r, g, b))
                if enough is not None and count >= enough:
                    return count, first
    return count, first


def _hued_with_pillow(path: pathlib.Path, enough: Optional[int]) -> Tuple[int, Optional[Tuple[int, int, Tuple]]]:
    with Image.open(path) as image:
        image = image.convert("RGB")
        width = image.width
        count, first = 0, None
        for index, (r, g, b) in enumerate(image.getdata()):
            if max(r, g, b) - min(r, g, b) > GRAY_TOLERANCE:
                count += 1
                first = first or (index % width, index // width, (r, g, b))
                if enough is not None and count >= enough:
                    break
        return count, first


def media_mm(name: str) -> Optional[Tuple[float, float]]:
    """(width, height) in millimetres of a self-describing media name (na_letter_8.5x11in: 215.9 x 279.4)."""
    points = selfcert.MEDIA_SIZE.search(name or "")
    if not points:
        return None
    unit = MM_PER_INCH if points[3] == "in" else 1.0
    return float(points[1]) * unit, float(points[2]) * unit


@functools.lru_cache(maxsize=None)
def document_pages(path: pathlib.Path) -> Optional[int]:
    """The pages of one of the suite's documents as a person counts them: 1 for an image, pdfinfo's count for a PDF
    (None when pdfinfo is missing or fails)."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix in (".jpg", ".jpeg", ".png"):
        return 1
    if suffix == ".pdf" and shutil.which("pdfinfo"):
        done = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, timeout=PDFINFO_LIMIT)
        match = re.search(r"^Pages:\s+(\d+)", done.stdout, re.M)
        if done.returncode == 0 and match:
            return int(match[1])
    return None


def _ranges(text: str) -> List[Tuple[int, int]]:
    # page-ranges as ipptool's ATTR rangeOfInteger gives it: "3-3" (or "1-2,5-5").
    found = []
    for part in (text or "").split(","):
        match = re.match(r"^\s*(\d+)\s*-\s*(\d+)\s*$", part)
        if match:
            found.append((int(match[1]), int(match[2])))
    return found


class Checker:
    """The checks of one finished suite run: ``sent`` (the suite's SentJobs for the printer), ``records`` (the
    output folder's job records), ``attributes`` (the printer's), ``tests`` (the PWG's folder, for the documents'
    page counts)."""

    def __init__(self, sent: Sequence[SentJob], records: Sequence[dict], attributes: Dict[str, str],
                 tests: pathlib.Path):
        self.sent, self.records, self.attributes, self.tests = list(sent), list(records), attributes, tests
        self.problems: List[str] = []
        self.found: Dict[Tuple[str, str], dict] = {}
        for record in self.records:  # the newest job of a test when the suite ran more than once
            self.found[job_key(record.get("job-name", ""))] = record

    # The printer's facts.

    @property
    def color_printer(self) -> bool:
        return self.attributes.get("color-supported", "false").strip() == "true"

    def default_media(self) -> str:
        return self.attributes.get("media-default", "")

    # What a sent job should give.

    def pages_of_document(self, job: SentJob) -> Optional[int]:
        if job.document is None:
            return int(job.generate.get("NUM-PAGES", "1"))
        return document_pages(self.tests / job.document)

    def expected_pages(self, job: SentJob) -> Optional[List[int]]:
        total = self.pages_of_document(job)
        if total is None:
            return None
        pages = list(range(1, total + 1))
        ranges = _ranges(job.attributes.get("page-ranges", ""))
        if ranges:
            pages = [page for page in pages if any(lower <= page <= upper for lower, upper in ranges)]
        return pages

    def color_pages(self, job: SentJob) -> Tuple[int, ...]:
        """The document pages a person expects in color from this job on this printer (none in monochrome)."""
        if not self.color_printer or job.attributes.get("print-color-mode") in ("monochrome", "bi-level"):
            return ()
        total = self.pages_of_document(job) or 0
        if job.document is None:
            kind = job.generate.get("COLORSPACE", "auto")
            if kind == "auto":
                kind = self._auto_type()
            return tuple(range(1, total + 1)) if kind in COLOR_TYPES else ()
        pages = COLOR_PAGES.get(job.document, ())
        return tuple(range(1, total + 1)) if pages is None else tuple(pages)

    def _auto_type(self) -> str:
        # The type libcups 3's GENERATE-FILE picks for COLORSPACE auto (selfcert.generated_file's order).
        types = [value.strip() for value in self.attributes.get("pwg-raster-document-type-supported", "").split(",")]
        order = ("srgb_8", "sgray_8", "black_1")
        if self.attributes.get("print-color-mode-default", "") == "monochrome":
            order = ("sgray_8", "black_1", "srgb_8")
        return next((kind for kind in order if kind in types), types[0] if types else "")

    def monochrome(self, job: SentJob) -> bool:
        return not self.color_printer or job.attributes.get("print-color-mode") in ("monochrome", "bi-level")

    def sibling(self, job: SentJob) -> Optional[SentJob]:
        """The same document sent with defaults (D-2.1 for D-2.2, D-3.1 for D-3.2 and D-3.3)."""
        for other in self.sent:
            if (other is not job and other.document == job.document and other.generate == job.generate
                    and not other.attributes and not other.fidelity):
                return other
        return None

    # The checks.

    def problem(self, job: SentJob, record: Optional[dict], text: str) -> None:
        where = " (job %d)" % record["job-id"] if record else ""
        self.problems.append("%s%s: %s" % (job.label, where, text))

    def run(self) -> List[str]:
        for job in self.sent:
            record = self.found.get(job.key)
            if record is None:
                self.problem(job, None, "not in the output: the suite's test %r sent it (or tried to), and no job "
                                        "of the printer has that name" % job.test)
                continue
            if record.get("job-state") != "completed":
                self.problem(job, record, "did not print: it ended %s (%s)%s" % (
                    record.get("job-state"), ", ".join(record.get("job-state-reasons", [])),
                    ": " + record["job-state-message"] if record.get("job-state-message") else ""))
                continue
            self.check_job(job, record)
        return self.problems

    def check_job(self, job: SentJob, record: dict) -> None:
        impressions = record.get("impressions", [])
        if not impressions:
            self.problem(job, record, "completed without a printed side (no impression was rendered)")
            return
        self.check_pages(job, record, impressions)
        self.check_copies(job, record)
        self.check_sides(job, record, impressions)
        self.check_media(job, record, impressions)
        self.check_color(job, record, impressions)

    def check_pages(self, job: SentJob, record: dict, impressions: List[dict]) -> None:
        # D-1.1..D-1.3 one page (NUM-PAGES 1), D-1.4/D-1.5 four, D-2.x one, D-3.x the PDF's pages; D-3.3 page 3.
        expected = self.expected_pages(job)
        printed = [place["page"] for impression in impressions for place in impression.get("pages", [])]
        if not any("pages" in impression for impression in impressions):
            printed = list(range(1, len(impressions) + 1))
        if expected is not None and printed != expected:
            self.problem(job, record, "printed page%s %s, the document%s asks for page%s %s" % (
                "s" if len(printed) != 1 else "", _pages_text(printed),
                " with page-ranges=%s" % job.attributes["page-ranges"] if "page-ranges" in job.attributes else "",
                "s" if len(expected) != 1 else "", _pages_text(expected)))
        blank = [impression["number"] for impression in impressions if impression.get("blank")]
        if blank:
            self.problem(job, record, "side%s %s came out blank (no ink on the sheet)" % (
                "s" if len(blank) > 1 else "", _pages_text(blank)))
        if "page-ranges" in job.attributes and expected:
            self.check_range_text(job, record, impressions, expected)

    def check_range_text(self, job: SentJob, record: dict, impressions: List[dict], expected: List[int]) -> None:
        # D-3.3: the page printed is page 3 of the document, as the defaults job (D-3.1) printed it.
        sibling = self.sibling(job)
        other = self.found.get(sibling.key) if sibling else None
        if other is None or other.get("job-state") != "completed":
            return
        theirs = {place["page"]: impression for impression in other.get("impressions", [])
                  for place in impression.get("pages", [])}
        for impression in impressions:
            for place in impression.get("pages", []):
                if place["page"] not in theirs:
                    continue
                mine = _side_text(record, impression)
                reference = _side_text(other, theirs[place["page"]])
                if mine is not None and reference is not None and mine.split() != reference.split():
                    self.problem(job, record, "its side %d does not read as page %d of %s (job %d): %r..." % (
                        impression["number"], place["page"], sibling.label, other["job-id"], mine[:60]))

    def check_copies(self, job: SentJob, record: dict) -> None:
        # D-2.2 and D-3.2: copies=2 makes two sets of the same sheets as the defaults job (D-2.1, D-3.1).
        asked = int(job.attributes.get("copies", "1"))
        sheets, impressions = record.get("sheets", 0), len(record.get("impressions", []))
        if record.get("copies") != asked:
            self.problem(job, record, "%s set%s printed (copies %s), %d asked" % (
                record.get("copies"), "" if record.get("copies") == 1 else "s", record.get("copies"), asked))
        if record.get("job-media-sheets") != sheets * asked:
            self.problem(job, record, "%s sheets printed (job-media-sheets), %d sets of %d make %d" % (
                record.get("job-media-sheets"), asked, sheets, sheets * asked))
        if record.get("job-impressions") != impressions * asked:
            self.problem(job, record, "%s sides printed (job-impressions), %d sets of %d make %d" % (
                record.get("job-impressions"), asked, impressions, impressions * asked))
        if asked > 1:
            sibling = self.sibling(job)
            other = self.found.get(sibling.key) if sibling else None
            if other is not None and other.get("job-state") == "completed":
                if other.get("job-media-sheets", 0) * asked != record.get("job-media-sheets"):
                    self.problem(job, record, "%s sheets for %d copies, but one copy (%s, job %d) is %s sheets" % (
                        record.get("job-media-sheets"), asked, sibling.label, other["job-id"],
                        other.get("job-media-sheets")))

    def check_sides(self, job: SentJob, record: dict, impressions: List[dict]) -> None:
        # D-3.4: two-sided-long-edge: the back of each sheet has the even page; one-sided jobs have no backs.
        asked = job.attributes.get("sides") or self.attributes.get("sides-default", "one-sided")
        if record.get("sides-actual") != asked:
            self.problem(job, record, "printed %s, %s asked" % (record.get("sides-actual"), asked))
        backs = [impression for impression in impressions if impression.get("side") == "back"]
        if not asked.startswith("two-sided"):
            if backs:
                self.problem(job, record, "one-sided, but side%s %s printed on the back of a sheet" % (
                    "s" if len(backs) > 1 else "", _pages_text([impression["number"] for impression in backs])))
            if record.get("sheets") != len(impressions):
                self.problem(job, record, "one-sided, but %d sides on %s sheets" % (len(impressions),
                                                                                    record.get("sheets")))
            return
        wanted_sheets = math.ceil(len(impressions) / 2)
        if record.get("sheets") != wanted_sheets:
            self.problem(job, record, "two-sided, but %d sides on %s sheets (%d make %d sheets)" % (
                len(impressions), record.get("sheets"), len(impressions), wanted_sheets))
        for index, impression in enumerate(impressions):
            side = "front" if index % 2 == 0 else "back"
            sheet = index // 2 + 1
            pages = [place["page"] for place in impression.get("pages", [])]
            if impression.get("side") != side or impression.get("sheet") != sheet:
                self.problem(job, record, "side %d is the %s of sheet %s, two-sided printing puts it on the %s of "
                                          "sheet %d" % (impression["number"], impression.get("side"),
                                                        impression.get("sheet"), side, sheet))
            elif pages and any((page % 2 == 0) != (side == "back") for page in pages):
                self.problem(job, record, "the %s of sheet %d has page %s, the %s page belongs there" % (
                    side, sheet, _pages_text(pages), "even" if side == "back" else "odd"))
        fronts = {impression.get("sheet"): impression for impression in impressions
                  if impression.get("side") == "front"}
        for back in backs:
            front = fronts.get(back.get("sheet"))
            if front and (front["width"], front["height"]) != (back["width"], back["height"]):
                self.problem(job, record, "sheet %s's back is %dx%d pixels, its front %dx%d" % (
                    back.get("sheet"), back["width"], back["height"], front["width"], front["height"]))

    def check_media(self, job: SentJob, record: dict, impressions: List[dict]) -> None:
        # D-1.4/D-2.5/D-3.5 A4, D-1.5/D-2.4/D-3.6 Letter (with ipp-attribute-fidelity for D-2.4..D-3.6); the others
        # the printer's media-default.
        media = job.attributes.get("media") or self.default_media()
        size = media_mm(media)
        if record.get("media-actual") != media:
            self.problem(job, record, "printed on %s, %s asked%s" % (
                record.get("media-actual"), media, "" if "media" in job.attributes else " (the printer's default)"))
        for warning in record.get("warnings", []):
            if warning.get("kind") in ("raster-page-size", "raster-duplex"):
                self.problem(job, record, "the document sent does not fit the job (%s warning): %s" % (
                    warning["kind"], warning.get("message")))
        for impression in impressions:
            path = pathlib.Path(record["_folder"], impression["file"])
            try:
                header = png_header(path)
            except (OSError, ValueError) as error:
                self.problem(job, record, "side %d has no readable image: %s" % (impression["number"], error))
                continue
            if (header.width, header.height) != (impression.get("width"), impression.get("height")):
                self.problem(job, record, "side %d's PNG is %dx%d pixels, its record says %sx%s" % (
                    impression["number"], header.width, header.height, impression.get("width"),
                    impression.get("height")))
            dpi = impression.get("dpi") or 0
            if size is None or dpi <= 0:
                continue
            sheet = sorted((header.width * MM_PER_INCH / dpi, header.height * MM_PER_INCH / dpi))
            if any(abs(got - want) > SIZE_TOLERANCE_MM for got, want in zip(sheet, sorted(size))):
                self.problem(job, record, "side %d is a %.1f x %.1f mm sheet (%dx%d pixels at %d dpi), %s is "
                                          "%.1f x %.1f mm" % (impression["number"], sheet[0], sheet[1], header.width,
                                                              header.height, dpi, media, *sorted(size)))

    def check_color(self, job: SentJob, record: dict, impressions: List[dict]) -> None:
        # D-2.3 and D-3.3 (print-color-mode=monochrome) and every job of a monochrome printer: no hue anywhere;
        # on a color printer (D-2's "if color printing is supported") the color pages come out in color.
        if self.monochrome(job):
            why = ("print-color-mode=%s" % job.attributes["print-color-mode"] if "print-color-mode" in job.attributes
                   else "the printer has no color")
            if record.get("print-color-mode-actual") not in ("monochrome", "bi-level"):
                self.problem(job, record, "rendered in %s, monochrome expected (%s)" % (
                    record.get("print-color-mode-actual"), why))
            for impression in impressions:
                path = pathlib.Path(record["_folder"], impression["file"])
                try:
                    count, first = hued_pixels(path)
                except (OSError, ValueError) as error:
                    self.problem(job, record, "side %d could not be read: %s" % (impression["number"], error))
                    continue
                if count:
                    x, y, rgb = first
                    self.problem(job, record, "monochrome expected (%s), but side %d has %d pixel%s in color (the "
                                              "first at x=%d y=%d: RGB %s)" % (why, impression["number"], count,
                                                                               "s" if count > 1 else "", x, y, rgb))
            return
        wanted = set(self.color_pages(job))
        for impression in impressions:
            pages = {place["page"] for place in impression.get("pages", [])} or {impression["number"]}
            if not pages & wanted:
                continue
            path = pathlib.Path(record["_folder"], impression["file"])
            try:
                count, _ = hued_pixels(path, enough=COLOR_PIXELS)
            except (OSError, ValueError) as error:
                self.problem(job, record, "side %d could not be read: %s" % (impression["number"], error))
                continue
            if count < COLOR_PIXELS:
                self.problem(job, record, "side %d (page %s, in color in the document) came out without color on "
                                          "a color printer: %d pixel%s with a hue" % (
                                              impression["number"], _pages_text(sorted(pages)), count,
                                              "" if count == 1 else "s"))


def _pages_text(pages: Sequence[int]) -> str:
    return ", ".join(str(page) for page in pages) if pages else "none"


def _side_text(record: dict, impression: dict) -> Optional[str]:
    # The text printed on a side (page-NNNN.txt beside its PNG), when vprinter wrote it (PDF sides).
    path = pathlib.Path(record["_folder"], impression["file"]).with_suffix(".txt")
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def problems(output_dir: pathlib.Path, attributes: Dict[str, str], tests: Optional[pathlib.Path] = None) -> List[str]:
    """What a person would find wrong with the hardcopy of a finished document suite run: one sentence a problem,
    naming the job; empty when every job the suite sent to a printer with ``attributes`` printed as asked.
    ``output_dir`` is vprinter's output folder, ``tests`` the PWG's folder (selfcert.tests_folder() when not
    given)."""
    folder = pathlib.Path(tests) if tests else selfcert.tests_folder()
    checker = Checker(suite_jobs(attributes, folder), read_records(output_dir), attributes, folder)
    return checker.run()
