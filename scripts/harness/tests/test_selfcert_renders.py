"""vptest.selfcert_renders, the self-certification document suite's hardcopy checks, on output folders made here: a
run that printed every job as asked gives no problem, and each check fails on the one thing a fabricated record or
PNG gets wrong (copies=1 where 2 were asked, a colored pixel in a monochrome job, a Letter sheet for an A4 job...).
Needs no printer: only the PWG's test files (selfcert.tests_folder()), read where they are, and pdfinfo."""
import json
import math
import pathlib
import shutil
import struct
import zlib

import pytest

from vptest import selfcert, selfcert_renders

# A color inkjet's attributes as `vprinter profiles --show color-inkjet` gives them, the ones the suite reads.
COLOR_PRINTER = {
    "color-supported": "true",
    "compression-supported": "none,deflate,gzip",
    "document-format-supported": "application/pdf,image/jpeg,image/pwg-raster,application/octet-stream",
    "media-default": "na_letter_8.5x11in",
    "media-supported": "na_letter_8.5x11in,iso_a4_210x297mm",
    "print-color-mode-default": "auto",
    "pwg-raster-document-resolution-supported": "300dpi,600dpi",
    "pwg-raster-document-type-supported": "black_1,sgray_8,srgb_8",
    "sides-default": "one-sided",
    "sides-supported": "one-sided,two-sided-long-edge,two-sided-short-edge",
}
# A monochrome duplex laser's: no color, no srgb_8 raster.
MONOCHROME_PRINTER = dict(COLOR_PRINTER, **{
    "color-supported": "false",
    "document-format-supported": "application/pdf,image/pwg-raster,image/jpeg,application/octet-stream",
    "print-color-mode-default": "monochrome",
    "pwg-raster-document-type-supported": "black_1,sgray_8",
})
# The fabricated sides' resolution: small PNGs (a Letter sheet is 170 x 220 pixels).
DPI = 20
GRAY, WHITE, RED = (128, 128, 128), (255, 255, 255), (230, 40, 20)
# The PNGs made so far, by what png() was asked.
WRITTEN = {}


@pytest.fixture(scope="module")
def tests_folder():
    try:
        return selfcert.tests_folder()
    except selfcert.SelfcertError as error:
        pytest.fail(str(error))


def png(path, width, height, color=True, ink=GRAY, spot=None, filters=(0,)):
    """Writes a PNG: white with a block of ``ink`` (RGB, or gray when ``color`` is false), ``spot`` (x, y, rgb) one
    pixel of its own; rows filtered with ``filters`` in turn (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth)."""
    key = (width, height, color, ink, spot, filters)
    if key not in WRITTEN:
        WRITTEN[key] = _png_bytes(width, height, color, ink, spot, filters)
    path.write_bytes(WRITTEN[key])


def _png_bytes(width, height, color, ink, spot, filters):
    channels = 3 if color else 1
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            pixel = ink if width // 4 <= x < width // 2 and height // 4 <= y < height // 2 else WHITE
            if spot and (x, y) == spot[:2]:
                pixel = spot[2]
            row += bytes(pixel) if color else bytes(pixel[:1])
        rows.append(row)
    raw, previous = bytearray(), bytearray(width * channels)
    for y, row in enumerate(rows):
        kind = filters[y % len(filters)]
        raw.append(kind)
        raw += _filtered(kind, row, previous, channels)
        previous = row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if color else 0, 0, 0, 0)
    return (selfcert_renders.PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def _filtered(kind, row, previous, step):
    out = bytearray()
    for index, value in enumerate(row):
        left = row[index - step] if index >= step else 0
        up, corner = previous[index], previous[index - step] if index >= step else 0
        estimate = left + up - corner
        paeth = min((abs(estimate - left), 0, left), (abs(estimate - up), 1, up),
                    (abs(estimate - corner), 2, corner))[2]
        predictor = {0: 0, 1: left, 2: up, 3: (left + up) // 2, 4: paeth}[kind]
        out.append((value - predictor) & 0xFF)
    return out


def pixels(media):
    width, height = selfcert_renders.media_mm(media)
    return round(width / 25.4 * DPI), round(height / 25.4 * DPI)


def write_run(folder, attributes, tests):
    """An output folder where every job the suite sends to a printer with ``attributes`` printed as asked; returns
    {job-name's test key: job folder}."""
    checker = selfcert_renders.Checker(selfcert_renders.suite_jobs(attributes, tests), [], attributes, tests)
    folders = {}
    for job_id, job in enumerate(checker.sent, start=1):
        job_folder = pathlib.Path(folder, "jobs", str(job_id))
        job_folder.mkdir(parents=True)
        pages = checker.expected_pages(job)
        copies = int(job.attributes.get("copies", "1"))
        sides = job.attributes.get("sides", attributes["sides-default"])
        media = job.attributes.get("media", attributes["media-default"])
        monochrome = checker.monochrome(job)
        color_pages = checker.color_pages(job)
        width, height = pixels(media)
        impressions = []
        for index, page in enumerate(pages):
            two_sided = sides.startswith("two-sided")
            number = index + 1
            name = "page-%04d.png" % number
            in_color = page in color_pages
            png(job_folder / name, width, height, color=not monochrome, ink=RED if in_color else GRAY)
            if job.document and job.document.endswith(".pdf"):
                (job_folder / name).with_suffix(".txt").write_text("the text of page %d\n" % page)
            impressions.append({
                "number": number, "file": name, "sheet": index // 2 + 1 if two_sided else number,
                "side": ("front", "back")[index % 2] if two_sided else "front", "width": width, "height": height,
                "dpi": DPI, "color": not monochrome, "pages": [{"document": 1, "page": page}], "blank": False,
                "has-color": in_color})
        sheets = max(impression["sheet"] for impression in impressions)
        record = {
            "schema": 1, "job-id": job_id, "job-name": job.job_name, "job-state": "completed",
            "job-state-reasons": ["job-completed-successfully"], "attributes": job.attributes,
            "impressions": impressions, "sheets": sheets, "copies": copies,
            "job-impressions": len(impressions) * copies, "job-media-sheets": sheets * copies,
            "media-actual": media, "sides-actual": sides, "warnings": [],
            "print-color-mode-actual": "monochrome" if monochrome else "color"}
        (job_folder / "job.json").write_text(json.dumps(record))
        folders[job.key] = job_folder
    return folders


def edit(folder, change):
    path = folder / "job.json"
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))


@pytest.fixture
def color_run(tmp_path, tests_folder):
    return tmp_path, write_run(tmp_path, COLOR_PRINTER, tests_folder)


def only_problem(output, attributes=COLOR_PRINTER):
    found = selfcert_renders.problems(output, attributes)
    assert len(found) == 1, found
    return found[0]


def test_the_suite_sends_what_the_printer_supports(tests_folder):
    color = selfcert_renders.suite_jobs(COLOR_PRINTER, tests_folder)
    monochrome = selfcert_renders.suite_jobs(MONOCHROME_PRINTER, tests_folder)
    # D-1.1..D-1.3 in 3 color spaces, D-1.4, D-1.5, D-2.1..D-2.5 (color only), D-3.1..D-3.6.
    assert len(color) == 22 and len(monochrome) == 14
    assert ("D-1.2", "srgb_8") in [job.key for job in color] and not any(
        job.key[0].startswith("D-2") or job.key[1] == "srgb_8" for job in monochrome)
    jobs = {job.key: job for job in color}
    assert jobs[("D-1.1", "black_1")].job_name == "D-1.1 black_1, no compression"  # "\," unescaped
    assert jobs[("D-2.2", "")].attributes == {"copies": "2"} and jobs[("D-2.2", "")].document == "color.jpg"
    assert jobs[("D-3.3", "")].attributes == {"page-ranges": "3-3", "print-color-mode": "monochrome"}
    assert jobs[("D-3.6", "")].fidelity and jobs[("D-1.4", "")].generate["NUM-PAGES"] == "4"


@pytest.mark.parametrize("attributes", [COLOR_PRINTER, MONOCHROME_PRINTER], ids=["color", "monochrome"])
def test_a_run_that_printed_as_asked_has_no_problem(tmp_path, tests_folder, attributes):
    write_run(tmp_path, attributes, tests_folder)
    assert selfcert_renders.problems(tmp_path, attributes) == []


def test_one_copy_where_two_were_asked(color_run):
    output, jobs = color_run

    def one_set(record):
        record.update({"copies": 1, "job-media-sheets": 1, "job-impressions": 1})

    edit(jobs[("D-2.2", "")], one_set)
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert found and all(problem.startswith("D-2.2 color.jpg with copies=2 (job 13):") for problem in found), found
    assert "1 set printed (copies 1), 2 asked" in found[0]


def test_two_copies_of_fewer_sheets_than_the_defaults_job(color_run):
    output, jobs = color_run
    # D-3.2 with 2 sets of 3 sheets: its own counts agree, D-3.1 (4 sheets) says a set is 4.
    folder = jobs[("D-3.2", "")]
    edit(folder, lambda record: record.update({"impressions": record["impressions"][:3], "sheets": 3,
                                               "job-media-sheets": 6, "job-impressions": 6}))
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert any("6 sheets for 2 copies, but one copy (D-3.1 document-letter.pdf with defaults, job 17) is 4 sheets"
               in problem for problem in found), found
    assert any("printed pages 1, 2, 3, the document asks for pages 1, 2, 3, 4" in problem for problem in found)


def test_a_colored_pixel_in_a_monochrome_job(color_run):
    output, jobs = color_run
    folder = jobs[("D-2.3", "")]
    png(folder / "page-0001.png", *pixels("na_letter_8.5x11in"), color=True, spot=(5, 7, (200, 180, 180)))
    problem = only_problem(output)
    assert problem == ("D-2.3 color.jpg with print-color-mode=monochrome (job 14): monochrome expected "
                       "(print-color-mode=monochrome), but side 1 has 1 pixel in color (the first at x=5 y=7: RGB "
                       "(200, 180, 180))"), problem


def test_a_pixel_within_the_gray_tolerance_is_gray(color_run):
    output, jobs = color_run
    near = 128 + selfcert_renders.GRAY_TOLERANCE
    png(jobs[("D-3.3", "")] / "page-0001.png", *pixels("na_letter_8.5x11in"), spot=(3, 3, (near, 128, 128)))
    assert selfcert_renders.problems(output, COLOR_PRINTER) == []


def test_a_monochrome_printer_that_printed_color(tmp_path, tests_folder):
    jobs = write_run(tmp_path, MONOCHROME_PRINTER, tests_folder)
    png(jobs[("D-3.1", "")] / "page-0003.png", *pixels("na_letter_8.5x11in"), ink=RED)
    problem = only_problem(tmp_path, MONOCHROME_PRINTER)
    assert problem.startswith("D-3.1 document-letter.pdf with defaults (job 9): monochrome expected (the printer "
                              "has no color), but side 3 has"), problem


def test_a_color_photo_printed_without_color_on_a_color_printer(color_run):
    output, jobs = color_run
    png(jobs[("D-2.1", "")] / "page-0001.png", *pixels("na_letter_8.5x11in"), ink=GRAY)
    problem = only_problem(output)
    assert problem == ("D-2.1 color.jpg with defaults (job 12): side 1 (page 1, in color in the document) came out "
                       "without color on a color printer: 0 pixels with a hue"), problem


def test_a_letter_sheet_for_an_a4_job(color_run):
    output, jobs = color_run
    folder = jobs[("D-2.5", "")]
    width, height = pixels("na_letter_8.5x11in")
    png(folder / "page-0001.png", width, height, ink=RED)
    edit(folder, lambda record: record["impressions"][0].update({"width": width, "height": height}))
    problem = only_problem(output)
    assert problem == ("D-2.5 color.jpg with media=iso_a4_210x297mm and ipp-attribute-fidelity=true (job 16): side 1 "
                       "is a 215.9 x 279.4 mm sheet (170x220 pixels at 20 dpi), iso_a4_210x297mm is 210.0 x 297.0 "
                       "mm"), problem


def test_the_record_naming_other_media_or_a_raster_made_for_other_media(color_run):
    output, jobs = color_run
    edit(jobs[("D-3.6", "")], lambda record: record.update({"media-actual": "iso_a4_210x297mm"}))
    edit(jobs[("D-1.4", "")], lambda record: record["warnings"].append({
        "kind": "raster-page-size", "document": 1, "page": 1,
        "message": "page 1 is 215.9 x 279.4 mm but the job prints on 210.0 x 297.0 mm media"}))
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert len(found) == 2, found
    assert found[0] == ("D-1.4 A4 PWG (job 10): the document sent does not fit the job (raster-page-size warning): "
                        "page 1 is 215.9 x 279.4 mm but the job prints on 210.0 x 297.0 mm media")
    assert found[1].startswith("D-3.6 document-a4.pdf with media=na_letter_8.5x11in and ipp-attribute-fidelity=true "
                               "(job 22): printed on iso_a4_210x297mm, na_letter_8.5x11in asked")


def test_page_ranges_that_printed_every_page_or_another_page(color_run):
    output, jobs = color_run
    folder = jobs[("D-3.3", "")]
    (folder / "page-0001.txt").write_text("the text of page 2\n")
    problem = only_problem(output)
    assert problem.startswith("D-3.3 document-letter.pdf with page-ranges=3-3 and print-color-mode=monochrome "
                              "(job 19): its side 1 does not read as page 3 of D-3.1"), problem
    (folder / "page-0001.txt").write_text("the text of page 1\n")
    edit(folder, lambda record: record["impressions"][0].update({"pages": [{"document": 1, "page": 1}]}))
    assert "printed page 1, the document with page-ranges=3-3 asks for page 3" in only_problem(output)


def test_two_sided_with_the_odd_page_on_a_back_or_printed_one_sided(color_run):
    output, jobs = color_run
    folder = jobs[("D-3.4", "")]

    def swapped(record):
        first, second = record["impressions"][0], record["impressions"][1]
        first["pages"], second["pages"] = second["pages"], first["pages"]

    edit(folder, swapped)
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert ("D-3.4 document-letter.pdf with sides=two-sided-long-edge (job 20): the front of sheet 1 has page 2, "
            "the odd page belongs there") in found, found

    def one_sided(record):
        for number, impression in enumerate(record["impressions"], start=1):
            impression.update({"side": "front", "sheet": number})
        record.update({"sides-actual": "one-sided", "sheets": 4, "job-media-sheets": 4})

    edit(folder, swapped)
    edit(folder, one_sided)
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert found[0] == ("D-3.4 document-letter.pdf with sides=two-sided-long-edge (job 20): printed one-sided, "
                        "two-sided-long-edge asked"), found
    assert "two-sided, but 4 sides on 4 sheets (4 make 2 sheets)" in found[1]


def test_a_one_page_raster_job_that_printed_twice_or_a_blank_side(color_run):
    output, jobs = color_run
    folder = jobs[("D-1.1", "srgb_8")]
    shutil.copy(folder / "page-0001.png", folder / "page-0002.png")

    def two_sides(record):
        second = dict(record["impressions"][0], number=2, file="page-0002.png", sheet=2, blank=True)
        record["impressions"].append(second)
        record.update({"sheets": 2, "job-media-sheets": 2, "job-impressions": 2})

    edit(folder, two_sides)
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert found == ["D-1.1 srgb_8, no compression (job 3): printed pages 1, 1, the document asks for page 1",
                     "D-1.1 srgb_8, no compression (job 3): side 2 came out blank (no ink on the sheet)"], found


def test_a_lost_job_and_an_aborted_one(color_run):
    output, jobs = color_run
    shutil.rmtree(jobs[("D-1.5", "")])
    edit(jobs[("D-1.2", "sgray_8")], lambda record: record.update({
        "job-state": "aborted", "job-state-reasons": ["document-format-error"],
        "job-state-message": "The raster's header is not PWG's."}))
    found = selfcert_renders.problems(output, COLOR_PRINTER)
    assert found == [
        "D-1.2 sgray_8, deflate (job 5): did not print: it ended aborted (document-format-error): The raster's "
        "header is not PWG's.",
        "D-1.5 Letter PWG: not in the output: the suite's test 'D-1.5 Print Letter PWG @ maximum resolution, auto' "
        "sent it (or tried to), and no job of the printer has that name"], found


def test_the_decoder_reads_every_row_filter(tmp_path):
    # vprinter writes no row filter; other PNGs (a golden file, a fabricated one) may have all five.
    plain, filtered = tmp_path / "plain.png", tmp_path / "filtered.png"
    png(plain, 23, 11, ink=RED, spot=(2, 9, (10, 200, 30)))
    png(filtered, 23, 11, ink=RED, spot=(2, 9, (10, 200, 30)), filters=(0, 1, 2, 3, 4))
    rows = [[row for _, row, _ in selfcert_renders._png_rows(path)] for path in (plain, filtered)]
    assert rows[0] == rows[1]
    hued = 1 + math.prod((23 // 2 - 23 // 4, 11 // 2 - 11 // 4))
    assert selfcert_renders.hued_pixels(filtered) == (hued, (5, 2, RED))
    gray = tmp_path / "gray.png"
    png(gray, 5, 5, color=False)
    assert selfcert_renders.hued_pixels(gray) == (0, None)
