"""The front panel in Chromium: each control clicked is a JSON API call whose effect the page shows at once and the
API (and IPP, and avahi-browse) confirm; a part the profile lacks is disabled and says why."""
import json
import urllib.parse

from selenium.common.exceptions import (ElementNotInteractableException, NoSuchElementException,
                                        StaleElementReferenceException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from vprinter import ipp
from vprinter.documents import pdf

from conftest import WAIT_LIMIT, enabled, printer_path, screenshot, state, text_of, wait_for
from vptest.artifacts import record_figure
from vptest.names import unique
from vptest.paths import REPO


def open_panel(driver, printer):
    driver.get(printer.base_url + "/printers/" + printer.name)
    enabled(driver)


def click(driver, element_id):
    """Clicks a control by id once it is enabled, found afresh each try: the page replaces its parts as the
    printer changes, so an element found a moment ago may be gone."""
    def clicked():
        try:
            element = driver.find_element(By.ID, element_id)
            if not element.is_enabled():
                return False
            element.click()
            return True
        except (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException):
            return False
    wait_for(clicked, element_id + " to be enabled and clicked")


def retried(driver, element_id, action, what):
    """Runs `action` on the element with this id, found afresh until it works (see click): a part the page is
    replacing may be gone, or there but not yet interactable."""
    def done():
        try:
            return action(driver.find_element(By.ID, element_id))
        except (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException):
            return False
    wait_for(done, what)


def fill(driver, element_id, text):
    """Types `text` into a field in place of its value. Focus first: the page leaves a part holding the field
    being edited alone when it refreshes, as it does for a person typing."""
    def typed(field):
        field.click()
        field.clear()
        field.send_keys(text)
        return field.get_attribute("value") == text
    retried(driver, element_id, typed, "%s to hold %r" % (element_id, text))


def choose(driver, element_id, text=None, value=None):
    """Picks an option of a select by its text or value (focusing it first, as fill does)."""
    def chosen(field):
        field.click()
        select = Select(field)
        select.select_by_visible_text(text) if value is None else select.select_by_value(value)
        option = select.first_selected_option
        return (option.text == text) if value is None else (option.get_attribute("value") == value)
    retried(driver, element_id, chosen, "%s to show %r" % (element_id, text or value))


def shown_reasons(driver):
    return text_of(driver, "printer-state-reasons") or ""


def job_row(driver, job_id):
    return driver.execute_script(
        "var row = document.getElementById('job-' + arguments[0]); return row ? row.textContent : '';", job_id)


def test_empty_tray_holds_a_job_until_loaded_and_power_withdraws_the_printer(desktop, printer, avahi_browser):
    driver = desktop
    name = printer.name
    assert avahi_browser.wait(name, limit=WAIT_LIMIT) is not None, "the printer was never browsable"
    open_panel(driver, printer)
    click(driver, "tray-main-empty")
    wait_for(lambda: "media-empty-report" in shown_reasons(driver), "media-empty-report on the panel")
    wait_for(lambda: "empty" in (text_of(driver, "tray-main") or ""), "the empty tray on the panel")

    job = printer.print_job(pdf("Invoice 42\nTotal 99.00"), name="waits for paper")
    printer.wait_for_job_state(job, "processing-stopped")
    # The event stream brings the printer's reasons and the job's state to the open page.
    wait_for(lambda: "media-empty-error" in shown_reasons(driver), "media-empty-error on the panel")
    wait_for(lambda: "processing-stopped" in job_row(driver, job), "the waiting job in the panel's list")
    record = printer.checked("GET", "/api/v1/jobs/%d" % job)
    assert "printer-stopped" in record["job-state-reasons"]
    screenshot(driver, "panel-media-empty")

    choose(driver, "tray-main-media", "iso_a4_210x297mm")
    choose(driver, "tray-main-type", "stationery")
    fill(driver, "tray-main-level", "100")
    click(driver, "tray-main-load")
    printer.wait_for_job_state(job, "completed")
    wait_for(lambda: "completed" in job_row(driver, job), "the job completed on the panel")
    main = [tray for tray in state(printer)["trays"] if tray["name"] == "main"][0]
    assert main["media"] == "iso_a4_210x297mm" and main["media-type"] == "stationery" and main["level"] == 100
    # The panel's parts update on their own events: wait for each rather than read it at once.
    wait_for(lambda: "iso_a4_210x297mm, stationery" in (text_of(driver, "tray-main") or ""),
             "the loaded media on the panel")
    wait_for(lambda: "media-empty" not in shown_reasons(driver), "media-empty gone from the panel")

    click(driver, "power-toggle")
    gone = avahi_browser.wait(name, present=False, limit=WAIT_LIMIT)
    assert gone is not None, "still browsable %d s after power off" % WAIT_LIMIT
    wait_for(lambda: text_of(driver, "power-word") == "off", "power off on the panel")
    assert state(printer)["power"] == "off"
    assert answers_ipp(printer) is None, "a switched-off printer answered Get-Printer-Attributes"
    screenshot(driver, "panel-power-off")

    click(driver, "power-toggle")
    back = avahi_browser.wait(name, limit=WAIT_LIMIT)
    assert back is not None, "not browsable again %d s after power on" % WAIT_LIMIT
    wait_for(lambda: text_of(driver, "power-word") == "on", "power on on the panel")
    assert ipp.successful(answers_ipp(printer).status)
    again = printer.print_job(pdf("back again"), name="after power on")
    printer.wait_for_job_state(again)
    record_figure("power off to gone from avahi-browse", seconds=round(gone, 3))
    record_figure("power on to browsable again", seconds=round(back, 3))
    assert gone <= 2.0 and back <= 5.0, "avahi-browse took %.2f s (off) and %.2f s (on)" % (gone, back)


def answers_ipp(printer):
    """The printer's answer to a Get-Printer-Attributes request, or None when it gives none (no IPP answer, or
    the connection closed)."""
    try:
        return printer.ipp(ipp.GET_PRINTER_ATTRIBUTES)
    except (ipp.IPPError, OSError):
        return None


def print_status(printer, name):
    """The IPP status of a Print-Job (the test expects a refusal)."""
    return printer.ipp(ipp.PRINT_JOB, {"job-name": name, "document-format": "application/pdf"},
                       document=pdf("refused?")).status


def test_every_control_acts_through_the_api_and_shows_the_result(desktop, printer):
    driver = desktop
    open_panel(driver, printer)
    reasons = lambda: state(printer)["printer-state-reasons"]  # noqa: E731

    for condition, reason, on, off in (("door", "door-open-error", "open", "closed"),
                                       ("cover", "cover-open-error", "open", "closed"),
                                       ("jam", "media-jam-error", "jammed", "clear")):
        click(driver, condition + "-toggle")
        wait_for(lambda: reason in shown_reasons(driver), reason + " on the panel")
        assert reason in reasons() and state(printer)["printer-state"] == "stopped"
        wait_for(lambda: text_of(driver, condition + "-word") == on, condition + " shown " + on)
        wait_for(lambda: "fault(s)" in (text_of(driver, "result") or ""), "the call's result on the panel")
        click(driver, condition + "-toggle")
        wait_for(lambda: text_of(driver, condition + "-word") == off, condition + " back to " + off)
        assert reason not in reasons()

    click(driver, "offline-toggle")
    wait_for(lambda: "offline-report" in shown_reasons(driver), "offline on the panel")
    assert print_status(printer, "while offline") == 0x0502  # server-error-service-unavailable
    click(driver, "offline-toggle")
    wait_for(lambda: text_of(driver, "offline-word") == "online", "online again")
    assert printer.faults() == []

    click(driver, "pause-toggle")
    wait_for(lambda: "paused" in shown_reasons(driver), "paused on the panel")
    assert "paused" in reasons()
    click(driver, "pause-toggle")
    wait_for(lambda: "paused" not in shown_reasons(driver), "resumed")

    click(driver, "hold-toggle")
    wait_for(lambda: "hold-new-jobs" in shown_reasons(driver), "hold-new-jobs on the panel")
    held = printer.print_job(pdf("held"), name="held at the panel")
    printer.wait_for_job_state(held, "pending-held")
    click(driver, "hold-toggle")
    printer.wait_for_job_state(held)

    choose(driver, "scenario-name", value="toner-low")
    click(driver, "scenario-play")
    wait_for(lambda: state(printer)["printer-supply"][0]["level"] == 5, "toner-low's supply level")
    wait_for(lambda: "toner-low" in (text_of(driver, "scenarios-playing") or ""), "toner-low listed as playing")
    assert "toner-low-report" in reasons()
    click(driver, "door-toggle")
    wait_for(lambda: "door-open-error" in shown_reasons(driver), "the door open again")
    screenshot(driver, "front-panel")
    click(driver, "stop-toner-low")
    wait_for(lambda: state(printer)["printer-supply"][0]["level"] == 100, "the supply back after stopping")

    fill(driver, "supply-1-level", "30")
    # A change while a person types: the page refreshes its other parts and leaves the one being edited alone.
    printer.checked("POST", printer_path(printer) + "/supplies", 200, {"index": 1, "level": 55})
    printer.fault(add_reasons=["cover-open-error"])
    wait_for(lambda: "cover-open-error" in shown_reasons(driver), "the cover's fault on the panel while typing")
    assert driver.find_element(By.ID, "supply-1-level").get_attribute("value") == "30", "the typed level was lost"
    assert "55 %" not in text_of(driver, "supply-1")
    # Once the focus leaves the field, that part is refreshed too.
    driver.execute_script("document.activeElement.blur()")
    wait_for(lambda: "55 %" in text_of(driver, "supply-1"), "the supplies refreshed after the field lost focus")
    fill(driver, "supply-1-level", "30")
    click(driver, "supply-1-set")
    wait_for(lambda: state(printer)["printer-supply"][0]["level"] == 30, "the supply set to 30 %")
    wait_for(lambda: "30 %" in text_of(driver, "supply-1"), "30 % on the panel")
    click(driver, "supply-1-replace")
    wait_for(lambda: state(printer)["printer-supply"][0]["level"] == 100, "the supply replaced")

    click(driver, "bin-fill")
    wait_for(lambda: "output-area-full-error" in shown_reasons(driver), "a full bin on the panel")
    click(driver, "bin-empty")
    wait_for(lambda: "output-area-full-error" not in shown_reasons(driver), "the bin emptied")

    click(driver, "clear-faults")
    wait_for(lambda: printer.faults() == [], "every fault cleared")
    wait_for(lambda: "door-open-error" not in shown_reasons(driver), "the door closed by clearing the faults")
    assert reasons() == ["none"]
    wait_for(lambda: driver.find_element(By.ID, "clear-faults").get_attribute("disabled") is not None,
             "Clear all faults disabled with nothing held")
    wait_for(lambda: "no fault is held" in (text_of(driver, "panel-operation") or ""), "no fault held, on the panel")


def test_parts_the_profile_lacks_are_disabled_with_a_reason(desktop, start_printer, tmp_path):
    base = json.loads((REPO / "profiles" / "duplex-laser.json").read_text())
    base.update(name="no trays", mediaSources=["auto"], mediaSourceDefault="auto", mediaReady=[])
    path = tmp_path / "no-trays.json"
    path.write_text(json.dumps(base))
    printer = start_printer("--profile", str(path), name=unique("web"))  # a name that is its own path segment
    open_panel(desktop, printer)
    trays = text_of(desktop, "panel-trays")
    assert "has no tray that holds a counted number of sheets" in trays
    assert desktop.find_elements(By.CSS_SELECTOR, "#panel-trays form") == []
    # A control whose action cannot do anything is disabled and says why.
    empty = desktop.find_element(By.ID, "bin-empty")
    assert empty.get_attribute("disabled") is not None
    assert empty.get_attribute("title") == "already empty" and "already empty" in text_of(desktop, "panel-bin")


# A scan from the glass, as an eSCL client asks for it (Mopria eSCL section 8.2.2).
SCAN_SETTINGS = (b'<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" '
                 b'xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>Platen</pwg:InputSource>'
                 b'<scan:XResolution>75</scan:XResolution><scan:YResolution>75</scan:YResolution>'
                 b'<pwg:DocumentFormat>image/jpeg</pwg:DocumentFormat></scan:ScanSettings>')


def test_the_scanner_card_sets_faults_and_loads_the_feeder_and_scans_are_listed(desktop, start_printer):
    printer = start_printer(name=unique("web"), profile="office-mfp")
    driver = desktop
    scanner = lambda: printer.checked("GET", printer_path(printer) + "/scanner")  # noqa: E731
    open_panel(driver, printer)
    assert text_of(driver, "scanner-state").strip() == "idle"

    click(driver, "scanner-cover-open-toggle")
    wait_for(lambda: text_of(driver, "scanner-cover-open-word") == "open", "the cover shown open on the panel")
    assert scanner()["faults"] == ["cover-open"] and scanner()["state"] == "Stopped"
    wait_for(lambda: (text_of(driver, "scanner-state") or "").strip() == "stopped", "the scanner shown stopped")
    click(driver, "scanner-busy-toggle")
    wait_for(lambda: scanner()["faults"] == ["busy", "cover-open"], "busy added to the cover's fault")
    click(driver, "scanner-cover-open-toggle")
    wait_for(lambda: scanner()["faults"] == ["busy"], "the cover closed, busy kept")
    wait_for(lambda: text_of(driver, "scanner-cover-open-word") == "closed", "the cover shown closed")
    click(driver, "scanner-clear-faults")
    wait_for(lambda: scanner()["faults"] == [], "every scanner fault cleared")

    fill(driver, "scanner-feeder-level", "7")
    click(driver, "scanner-feeder-load")
    wait_for(lambda: scanner()["feeder-sheets"] == 7, "7 sheets in the feeder")
    wait_for(lambda: (text_of(driver, "scanner-feeder-sheets") or "").startswith("7 of"), "7 sheets on the panel")

    created = printer.http("POST", printer.path + "/eSCL/ScanJobs", SCAN_SETTINGS, {"Content-Type": "text/xml"})
    assert created.status == 201, created
    image = printer.http("GET", urllib.parse.urlsplit(created.headers["Location"]).path + "/NextDocument")
    assert image.status == 200 and image.body[:2] == b"\xff\xd8", image[:2]
    # The platen gives one image: asked for the next, the job ends.
    assert printer.http("GET", urllib.parse.urlsplit(created.headers["Location"]).path + "/NextDocument").status == 404
    open_panel(driver, printer)
    scan = printer.checked("GET", "/api/v1/scans?printer=" + printer.name)["scans"][0]
    row = "scan-%s-%d" % (printer.name, scan["scan-id"])
    assert "completed" in (text_of(driver, row) or ""), text_of(driver, "scan-list")
    thumbnail = driver.find_element(By.CSS_SELECTOR, "#%s .scan-files img" % row)
    driver.execute_script("arguments[0].scrollIntoView()", thumbnail)
    wait_for(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumbnail)
             == scan["images"][0]["width"], "the scan's thumbnail loaded")
    assert thumbnail.size["width"] <= 100, "the thumbnail is not scaled down: %s" % thumbnail.size
    screenshot(driver, "panel-scanner")
