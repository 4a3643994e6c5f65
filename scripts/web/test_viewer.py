"""The viewer in Chromium: a two-sided 2-up job shows its sheets as front/back pairs with each page's number placed
on its half of the side, each side's text beside it, the ticket sent next to what the printer did, the state
history; the keyboard moves between sides and jobs, and z zooms a side to 100 %. A raster side's text is read by
OCR when the viewer first asks for it."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from vprinter.documents import pdf

from conftest import enabled, screenshot, text_of, wait_for
from vptest.documents import pwg_of_postscript

# How long OCR of one 300 dpi side may take on a loaded machine, in seconds.
OCR_LIMIT = 60


def press(driver, key):
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def current_side(driver):
    return driver.execute_script(
        "var s = document.querySelector('figure.side.current'); return s ? s.getAttribute('data-side') : null;")


def test_sheets_pages_text_ticket_and_keys(desktop, start_printer):
    printer = start_printer()
    pages = ["Page %d of 6\nword%d alpha" % (n, n) for n in range(1, 7)]
    older = printer.print_job(pdf("the older job"), name="older job")
    job = printer.print_job(pdf(pages), name="two-up report", user="alice", sides="two-sided-long-edge", number_up=2,
                            output_bin="no-such-bin")
    newer = printer.print_job(pdf("the newer job"), name="newer job")
    for each in (older, job, newer):
        printer.wait_for_job_state(each)
    record = printer.checked("GET", "/api/v1/jobs/%d" % job)
    assert [i["sheet"] for i in record["impressions"]] == [1, 1, 2]

    driver = desktop
    driver.get(printer.base_url + "/jobs/%d" % job)
    enabled(driver)
    assert driver.find_element(By.CSS_SELECTOR, "h1 .job-name").text == "two-up report"
    sheets = driver.find_elements(By.CSS_SELECTOR, "section.sheet")
    assert len(sheets) == 2
    first = sheets[0].find_elements(By.CSS_SELECTOR, "figure.side")
    assert [side.get_attribute("data-side") for side in first] == ["1", "2"]
    assert "Front" in first[0].text and "Back" in first[1].text
    assert "One-sided: nothing on the back" not in sheets[0].text
    assert "nothing on the back" in sheets[1].text  # side 3 is alone on sheet 2

    # Page numbers on each half of the side, in reading order (top half first on a portrait sheet).
    labels = driver.execute_script("""
        return Array.prototype.map.call(document.querySelectorAll('#side-1 .cells li'), function (li) {
          var box = li.getBoundingClientRect();
          return [li.textContent, Math.round(box.top), Math.round(box.height)];
        });""")
    assert [label[0] for label in labels] == ["p. 1", "p. 2"]
    assert labels[0][1] < labels[1][1] and labels[0][2] > 100
    assert text_of(driver, "side-1").count("p. 1, p. 2") == 1

    # The text of each side beside it, from Poppler.
    assert "Page 1 of 6" in text_of(driver, "side-text-1") and "Page 2 of 6" in text_of(driver, "side-text-1")
    assert "Page 5 of 6" in text_of(driver, "side-text-3")

    # The ticket sent and what the printer did with it.
    rows = {row.find_element(By.TAG_NAME, "th").text: row for row in
            driver.find_elements(By.CSS_SELECTOR, "table.ticket tbody tr")}
    assert "replaced" in rows["output-bin"].text and "face-down" in rows["output-bin"].text
    assert "changed" in rows["output-bin"].get_attribute("class")
    assert "printed as sent" in rows["sides"].text and "two-sided-long-edge" in rows["sides"].text
    assert "na_letter_8.5x11in" in rows["media"].text and "not sent" in rows["media"].text
    history = text_of(driver, "job-details")
    assert "pending" in history and "processing" in history and "completed" in history

    # Keys: sides forwards and back, zoom to 100 %, then the newer and older job.
    press(driver, Keys.ARROW_RIGHT)
    wait_for(lambda: current_side(driver) == "1", "side 1 current")
    press(driver, Keys.ARROW_RIGHT)
    press(driver, Keys.ARROW_RIGHT)
    wait_for(lambda: current_side(driver) == "3", "side 3 current")
    assert text_of(driver, "side-position") == "Side 3 of 3"
    assert driver.execute_script("return document.activeElement.id") == "side-3"
    assert "current" in driver.find_element(By.ID, "side-text-3").get_attribute("class")
    press(driver, Keys.ARROW_LEFT)
    wait_for(lambda: current_side(driver) == "2", "side 2 current")
    assert driver.current_url.endswith("#side-2")
    fitted = driver.execute_script("var i = document.querySelector('#side-2 img'); return [i.clientWidth, i.naturalWidth];")
    assert fitted[0] < fitted[1]
    screenshot(driver, "viewer")
    press(driver, "z")
    wait_for(lambda: driver.find_element(By.ID, "zoom").get_attribute("aria-pressed") == "true", "zoomed")
    zoomed = driver.execute_script("var i = document.querySelector('#side-2 img'); return [i.clientWidth, i.naturalWidth];")
    assert abs(zoomed[0] - zoomed[1]) <= 1, "zoomed side is %d px wide, its PNG %d px" % tuple(zoomed)
    screenshot(driver, "viewer-zoomed", full_page=False)
    press(driver, "z")
    press(driver, "]")
    wait_for(lambda: driver.current_url.endswith("/jobs/%d" % newer), "the newer job")
    enabled(driver)
    press(driver, "[")
    wait_for(lambda: driver.current_url.endswith("/jobs/%d" % job), "back to the job")
    enabled(driver)
    press(driver, "[")
    wait_for(lambda: driver.current_url.endswith("/jobs/%d" % older), "the older job")


def test_the_viewer_follows_a_job_as_it_prints(desktop, start_printer):
    printer = start_printer("--speed", "realistic")
    job = printer.print_job(pdf(["slow %d" % n for n in range(1, 4)]), name="slow job")
    desktop.get(printer.base_url + "/jobs/%d" % job)
    enabled(desktop)
    printer.wait_for_job_state(job)
    wait_for(lambda: "completed" in (text_of(desktop, "job-summary") or ""), "completed in the open viewer")
    wait_for(lambda: len(desktop.find_elements(By.CSS_SELECTOR, "figure.side")) == 3, "three sides")


def postscript_page(lines):
    """One US Letter page of `lines` in 24 pt Helvetica, in PostScript."""
    text = "%!PS\n<< /PageSize [612 792] >> setpagedevice /Helvetica findfont 24 scalefont setfont\n"
    text += "".join("72 %d moveto (%s) show\n" % (680 - index * 40, line) for index, line in enumerate(lines))
    return text + "showpage\n"


def test_a_raster_sides_text_is_read_by_ocr_when_the_viewer_opens(desktop, start_printer, tmp_path):
    printer = start_printer()
    # 300 dpi 8-bit gray PWG raster, made by Ghostscript.
    raster = pwg_of_postscript(tmp_path, "page", postscript_page(["Invoice 42 for Jane Smith", "Total 99.00 EUR"]))
    job = printer.print_job(raster, name="scanned invoice", document_format="image/pwg-raster")
    printer.wait_for_job_state(job)
    # The server's page says the side is not read yet (OCR runs on the first request for the text) ...
    answer = printer.http("GET", "/jobs/%d" % job)
    assert answer.status == 200
    html = answer.body.decode()
    assert 'data-ocr-side="1"' in html and "Jane Smith" not in html
    # ... and the viewer's script asks GET /api/v1/jobs/<id>/text and puts what OCR read beside the side.
    desktop.get(printer.base_url + "/jobs/%d" % job)
    enabled(desktop)
    wait_for(lambda: "Jane Smith" in (text_of(desktop, "side-text-1") or ""), "the side's text read by OCR",
             limit=OCR_LIMIT)
    assert "Invoice 42" in text_of(desktop, "side-text-1")
    assert desktop.find_elements(By.CSS_SELECTOR, "[data-ocr-side]") == []
