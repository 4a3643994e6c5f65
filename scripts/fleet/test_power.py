"""Power: off, a printer is withdrawn from DNS-SD and its path closes connections without
an answer; on, it is browsable again and prints. Through the API, the System Service and a fault effect."""
import time

from conftest import (SHUTDOWN_ONE_PRINTER, STARTUP_ONE_PRINTER, attribute, call_json, get_printer_attributes,
                      http_ipp_bytes, ipp_status, post_ipp, print_pdf, raw_exchange, record_figure, request, unique,
                      wait_jobs)


def test_power_off_withdraws_and_silences_the_printer_and_power_on_brings_it_back(advertised, browser):
    name = unique("powered")
    created = call_json("POST", advertised.base + "/api/v1/printers", {"name": name}, expect=201)
    uri = created["printer-uri-supported"]
    assert browser.wait(name, True) is not None

    started = time.monotonic()
    assert call_json("POST", advertised.base + "/api/v1/printers/%s/power" % name, {"on": False}) == {
        "printer-name": name, "power": "off"}
    gone = browser.wait(name, False)
    assert gone is not None, "a switched-off printer is still browsable"
    withdrawn = time.monotonic() - started
    # IPP requests get no answer: the connection closes without a byte, for Get-Printer-Attributes and Print-Job.
    assert raw_exchange(advertised.authority, http_ipp_bytes(uri, get_printer_attributes(uri))) == b""
    assert raw_exchange(advertised.authority, b"GET /ipp/print/%s HTTP/1.1\r\nHost: x\r\n\r\n" % name.encode()) == b""
    # The other printer and the API go on answering; the listing says it is off.
    assert ipp_status(post_ipp(advertised.uri, get_printer_attributes(advertised.uri))) == 0
    listed = {p["printer-name"]: p for p in call_json("GET", advertised.base + "/api/v1/printers")}
    assert listed[name]["power"] == "off" and listed[advertised.name]["power"] == "on"
    assert call_json("GET", advertised.base + "/readyz")["status"] == "ready"

    started = time.monotonic()
    call_json("POST", advertised.base + "/api/v1/printers/%s/power" % name, {"on": True})
    back = browser.wait(name, True)
    assert back is not None, "a printer switched on again never became browsable"
    browsable = time.monotonic() - started
    job = print_pdf(uri, "after power on")
    records = wait_jobs(advertised.base, 1, printer=name)
    assert records[0]["job-id"] == job and records[0]["job-state"] == "completed"
    record_figure("power-off-withdrawn", seconds=round(withdrawn, 3))
    record_figure("power-on-browsable", seconds=round(browsable, 3))


def test_shutdown_and_startup_one_printer_switch_it_off_and_on(vprinter):
    system_uri = "ipp://%s/ipp/system" % vprinter.authority
    off = request(SHUTDOWN_ONE_PRINTER, "system-uri", system_uri, attribute(0x21, "printer-id", 1))
    assert ipp_status(post_ipp(system_uri, off)) == 0
    assert raw_exchange(vprinter.authority, http_ipp_bytes(vprinter.uri, get_printer_attributes(vprinter.uri))) == b""
    on = request(STARTUP_ONE_PRINTER, "system-uri", system_uri, attribute(0x21, "printer-id", 1))
    assert ipp_status(post_ipp(system_uri, on)) == 0
    assert ipp_status(post_ipp(vprinter.uri, get_printer_attributes(vprinter.uri))) == 0


def test_a_power_fault_switches_the_printer_off_after_a_job_and_clears_itself(vprinter):
    name = call_json("GET", vprinter.base + "/api/v1/printers")[0]["printer-name"]
    fault = {"name": "unplugged", "trigger": {"after-jobs": 1}, "effect": {"power": "off"}, "clear-after": 1.5}
    call_json("POST", vprinter.base + "/api/v1/printers/vprinter-duplex-laser/faults", fault, expect=201)
    print_pdf(vprinter.uri, "the last job before the plug is pulled")
    wait_jobs(vprinter.base, 1)
    deadline = time.monotonic() + 10
    while call_json("GET", vprinter.base + "/api/v1/printers")[0]["power"] != "off" and time.monotonic() < deadline:
        time.sleep(0.05)
    printers = call_json("GET", vprinter.base + "/api/v1/printers")
    assert printers[0]["printer-name"] == name and printers[0]["power"] == "off"
    assert raw_exchange(vprinter.authority, http_ipp_bytes(vprinter.uri, get_printer_attributes(vprinter.uri))) == b""
    deadline = time.monotonic() + 10
    while call_json("GET", vprinter.base + "/api/v1/printers")[0]["power"] != "on" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ipp_status(post_ipp(vprinter.uri, get_printer_attributes(vprinter.uri))) == 0
