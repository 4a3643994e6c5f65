"""The printers list in Chromium: several printers with their state at a glance; a printer created from a profile
with the form (POST /api/v1/printers) appears, is advertised and prints; deleting it asks first, then it is gone
from the list, the API and avahi-browse."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from vprinter.documents import pdf

from conftest import WAIT_LIMIT, click_css, enabled, text_of, wait_for
from vptest.names import unique


def listed(driver):
    return driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('tr.printer'), "
                                 "function (row) { return row.getAttribute('data-printer'); });")


def test_create_a_printer_from_a_profile_and_delete_it(desktop, printer, avahi_browser):
    driver = desktop
    driver.get(printer.base_url + "/")
    enabled(driver)
    assert listed(driver) == [printer.name]
    name = unique("web-made")
    driver.find_element(By.ID, "create-name").send_keys(name)
    Select(driver.find_element(By.ID, "create-profile")).select_by_visible_text("color-inkjet")
    Select(driver.find_element(By.ID, "create-scenario")).select_by_visible_text("toner-low")
    driver.find_element(By.ID, "create-submit").click()
    wait_for(lambda: listed(driver) == [printer.name, name], "the new printer in the list")
    assert "(created at runtime)" in text_of(driver, "printer-" + name)
    made = printer.checked("GET", "/api/v1/printers/" + name)
    assert made["resource"] == "/ipp/print/" + name and "marker-supply-low-report" in made["printer-state-reasons"]
    assert "marker-supply-low-report" in text_of(driver, "printer-" + name)
    assert avahi_browser.wait(name, limit=WAIT_LIMIT) is not None, "the new printer was never browsable"

    # Its front panel, and a job printed to it.
    click_css(driver, "#printer-%s th a" % name)
    enabled(driver)
    assert name in driver.find_element(By.CSS_SELECTOR, "h1 .printer-name").text
    job = printer.print_job(pdf("hello"), name="to the new printer", uri=made["printer-uri-supported"])
    wait_for(lambda: "completed" in (text_of(driver, "job-%d" % job) or ""), "its job completed on its panel")

    driver.get(printer.base_url + "/")
    enabled(driver)
    click_css(driver, "#delete-" + name)
    alert = driver.switch_to.alert
    assert name in alert.text
    alert.accept()
    wait_for(lambda: listed(driver) == [printer.name], "the printer gone from the list")
    printer.checked("GET", "/api/v1/printers/" + name, 404)
    assert avahi_browser.wait(name, present=False, limit=WAIT_LIMIT) is not None, "still browsable after it was deleted"
    wait_for(lambda: "printer %s deleted" % name in (text_of(driver, "result") or ""), "the deletion's result")
