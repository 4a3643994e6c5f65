"""The text of every printed side, from the PDF (Poppler) or by OCR (Tesseract) for raster input,
through GET /api/v1/jobs/<id>/text (checked against docs/openapi.json) and the page-NNNN.txt files."""
import os

from printed import PAGES, make_pdf, make_pwg, read, words
from vptest import artifacts
from vptest.waiting import WAIT_LIMIT

# OCR of the 300 dpi PWG raster must return at least this share of the document's words.
MINIMUM_OCR_WORD_RATE = 0.95


def side_texts(printer, job_id):
    return printer.checked("GET", "/api/v1/jobs/%d/text" % job_id, 200)


def word_rate(expected_pages, sides):
    """The share of the expected words (per page, with repeats) found among the words of the matching side."""
    found = total = 0
    for lines, side in zip(expected_pages, sides):
        got = words(side["text"] or "")
        for word in words(" ".join(lines)):
            total += 1
            if word in got:
                got.remove(word)
                found += 1
    return found / total, found, total


def test_the_words_of_a_three_page_pdf_come_back_per_side(printer, tmp_path):
    pdf = make_pdf(tmp_path, "invoice")
    job = printer.print_job(pdf, name="invoice")
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    answer = side_texts(printer, job)
    assert answer["job-id"] == job and len(answer["sides"]) == 3
    for number, (lines, side) in enumerate(zip(PAGES, answer["sides"]), start=1):
        assert side["number"] == number and side["source"] == "pdf"
        assert side["text-file"] == "page-%04d.txt" % number
        assert side["text"].splitlines() == lines, "side %d: %r" % (number, side["text"])
        on_disk = read(os.path.join(printer.output_dir, "jobs", str(job), side["text-file"])).decode()
        assert on_disk == side["text"]
    # The text file is a file of the job like the others, served as text.
    text = printer.checked("GET", "/api/v1/jobs/%d/files/page-0002.txt" % job, 200, content_type="text/plain")
    assert text.decode().startswith("Total 99.00 EUR")
    record = printer.checked("GET", "/api/v1/jobs/%d" % job, 200)
    assert [side["text-source"] for side in record["impressions"]] == ["pdf"] * 3


def test_number_up_and_page_ranges_decide_the_text_of_a_side(printer, tmp_path):
    pdf = make_pdf(tmp_path, "invoice")
    job = printer.print_job(pdf, name="2-up", number_up=2)
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    sides = side_texts(printer, job)["sides"]
    assert len(sides) == 2
    first, second = sides[0]["text"].split("\f"), sides[1]["text"]
    assert [page.splitlines() for page in first] == PAGES[:2]
    assert second.splitlines() == PAGES[2]
    # Pages 2 and 3 only: one side each, with the text of its page.
    job = printer.print_job(pdf, name="pages 2-3", page_ranges=(2, 3))
    printer.checked("GET", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)
    assert [side["text"].splitlines() for side in side_texts(printer, job)["sides"]] == PAGES[1:]


def test_the_same_document_as_300_dpi_pwg_raster_is_read_by_ocr(printer, tmp_path):
    pwg = make_pwg(tmp_path, "invoice", dpi=300)
    job = printer.print_job(pwg, name="raster invoice", document_format="image/pwg-raster")
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    folder = os.path.join(printer.output_dir, "jobs", str(job))
    assert not os.path.exists(os.path.join(folder, "page-0001.txt")), "OCR runs only when the text is asked for"
    record = printer.checked("GET", "/api/v1/jobs/%d" % job, 200)
    assert [side["dpi"] for side in record["impressions"]] == [300] * 3
    sides = side_texts(printer, job)["sides"]
    assert [side["source"] for side in sides] == ["ocr"] * 3
    rate, found, total = word_rate(PAGES, sides)
    artifacts.write("ocr-word-rate.json", {"found": found, "words": total, "rate": rate,
                                           "sides": [side["text"] for side in sides]})
    assert rate >= MINIMUM_OCR_WORD_RATE, "OCR found %d of %d words (%.1f %%): %r" % (
        found, total, 100 * rate, [side["text"] for side in sides])
    # Cached beside each PNG: the second answer reads the files.
    assert all(os.path.exists(os.path.join(folder, "page-%04d.txt" % n)) for n in (1, 2, 3))
    assert side_texts(printer, job)["sides"] == sides


def test_no_ocr_leaves_raster_sides_without_text_and_says_why(start_printer, tmp_path):
    printer = start_printer("--no-ocr")
    pwg = make_pwg(tmp_path, "page", dpi=100, pages=[["One short page"]])
    job = printer.print_job(pwg, document_format="image/pwg-raster")
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    side = side_texts(printer, job)["sides"][0]
    assert side["source"] == "ocr" and side["text"] is None
    assert "--no-ocr" in side["message"]
    printer.checked("GET", "/api/v1/jobs/999/text", 404)
