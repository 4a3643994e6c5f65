"""Page overrides (PWG 5100.6 section 6.1, `overrides`): a job may print some pages of some documents with other
media, sides or orientation; vprinter prints them so, each override's pages on sheets of their own where media or
sides change, and keeps the overrides on the job as a real printer returns them."""
import subprocess

from vprinter import documents, ipp

PROFILE = "duplex-laser"
# Sizes at the profile's 300 dpi default (sides in pixels).
LETTER = (2550, 3300)
LEGAL = (2550, 4200)


def sides_of(record):
    return [(side["sheet"], side["side"], side["width"], side["height"]) for side in record["impressions"]]


def test_overrides_are_advertised_as_the_printer_prints_them(start_printer):
    printer = start_printer(profile=PROFILE)
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "overrides-supported"})
    assert {"pages", "document-numbers", "media", "media-col", "orientation-requested", "sides"} <= set(
        answer.values("overrides-supported"))


def test_overridden_pages_print_on_their_media_and_sides(start_printer):
    printer = start_printer(profile=PROFILE)
    pdf = documents.pdf(["page %d" % page for page in (1, 2, 3, 4, 5)])
    overrides = [
        {"pages": (1, 1), "document-numbers": (1, 1), "sides": "one-sided"},
        {"pages": (4, 4), "media": "na_legal_8.5x14in"},
    ]
    job = printer.print_job(pdf, sides="two-sided-long-edge", media="na_letter_8.5x11in", overrides=overrides)
    record = printer.wait_for_job_state(job, "completed")
    dpi = record["impressions"][0]["dpi"]
    letter = tuple(round(size * dpi / 300) for size in LETTER)
    legal = tuple(round(size * dpi / 300) for size in LEGAL)
    # Page 1 one-sided: a sheet of its own; pages 2-3 two-sided; page 4 on legal: a sheet of its own; page 5 back
    # on letter, two-sided, on a new sheet.
    assert sides_of(record) == [
        (1, "front") + letter, (2, "front") + letter, (2, "back") + letter, (3, "front") + legal,
        (4, "front") + letter]
    assert [side["pages"] for side in record["impressions"]] == [
        [{"document": 1, "page": page}] for page in (1, 2, 3, 4, 5)]
    kept = printer.ipp(ipp.GET_JOB_ATTRIBUTES, {"job-id": job, "requested-attributes": "overrides"})
    returned = kept.values("overrides")
    assert len(returned) == 2
    assert returned[1]["media"] == ["na_legal_8.5x14in"]


def inked_box(printer, job, side, folder):
    """Width and height in pixels of the part of a printed side that carries ink (ImageMagick's -trim)."""
    path = folder / ("side-%d.png" % side)
    path.write_bytes(printer.checked("GET", "/api/v1/jobs/%d/files/page-%04d.png" % (job, side),
                                     content_type="image/png"))
    trimmed = subprocess.run(["convert", str(path), "-trim", "-format", "%w %h", "info:"], check=True,
                             capture_output=True, text=True).stdout.split()
    return int(trimmed[0]), int(trimmed[1])


def test_an_overridden_orientation_turns_its_page(start_printer, tmp_path):
    printer = start_printer(profile=PROFILE)
    line = "a line of text across the page"
    job = printer.print_job(documents.pdf([line, line]), orientation_requested="portrait",
                            overrides=[{"pages": (2, 2), "orientation-requested": "landscape"}])
    record = printer.wait_for_job_state(job, "completed")
    assert len(record["impressions"]) == 2
    # The same line of text: across the upright page, up or down the sheet on the turned one.
    upright = inked_box(printer, job, 1, tmp_path)
    turned = inked_box(printer, job, 2, tmp_path)
    assert upright[0] > 4 * upright[1]
    assert turned[1] > 4 * turned[0]


def test_an_override_with_a_member_the_printer_cannot_change_is_refused_with_fidelity(start_printer):
    printer = start_printer(profile=PROFILE)
    answer = printer.ipp(
        ipp.PRINT_JOB, {"document-format": "application/pdf", "ipp-attribute-fidelity": True},
        {"overrides": [{"pages": (1, 2), "document-copies": (1, 2)}]}, document=documents.pdf(["one", "two"]))
    assert answer.status == ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED, answer.status_message
