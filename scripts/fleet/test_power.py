"""Power: off, a printer is withdrawn from DNS-SD and its path closes connections without
an answer; on, it is browsable again and prints. Through the API, the System Service and a fault effect."""
import time

from vprinter import ipp

from vptest.artifacts import record_figure
from vptest.calls import raw_exchange, request_bytes
from vptest.names import unique
from vptest.waiting import wait_for

# Seconds the power fault of the last test holds the printer off.
UNPLUGGED_SECONDS = 1.5
# The longest the fault's power change may take to show, in seconds.
POWER_CHANGE_LIMIT = 10


def silent(printer, uri):
    """Whether a Get-Printer-Attributes request to `uri` (as raw HTTP) gets the connection closed without a byte."""
    body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, {"requesting-user-name": "fleet-test"})
    return raw_exchange(printer.authority, request_bytes("POST", uri, body, {"Content-Type": "application/ipp"})) == b""


def answers(printer, uri=None):
    """Whether the printer answers Get-Printer-Attributes with successful-ok."""
    return printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=uri).status == ipp.SUCCESSFUL_OK


def power_of(printer):
    return printer.checked("GET", "/api/v1/printers")[0]["power"]


def test_power_off_withdraws_and_silences_the_printer_and_power_on_brings_it_back(advertised, avahi_browser):
    name = unique("powered")
    uri = advertised.checked("POST", "/api/v1/printers", 201, {"name": name})["printer-uri-supported"]
    assert avahi_browser.wait(name) is not None

    started = time.monotonic()
    power = "/api/v1/printers/%s/power" % name
    assert advertised.checked("POST", power, 200, {"on": False}) == {"printer-name": name, "power": "off"}
    gone = avahi_browser.wait(name, present=False)
    assert gone is not None, "a switched-off printer is still browsable"
    withdrawn = time.monotonic() - started
    # IPP requests get no answer: the connection closes without a byte, for Get-Printer-Attributes and Print-Job.
    assert silent(advertised, uri)
    assert raw_exchange(advertised.authority, request_bytes("GET", uri)) == b""
    # The other printer and the API go on answering; the listing says it is off.
    assert answers(advertised)
    listed = {p["printer-name"]: p for p in advertised.checked("GET", "/api/v1/printers")}
    assert listed[name]["power"] == "off" and listed[advertised.name]["power"] == "on"
    assert advertised.checked("GET", "/readyz")["status"] == "ready"

    started = time.monotonic()
    advertised.checked("POST", power, 200, {"on": True})
    back = avahi_browser.wait(name)
    assert back is not None, "a printer switched on again never became browsable"
    browsable = time.monotonic() - started
    job = advertised.print_job(name="after power on", uri=uri)
    records = advertised.wait(1, printer=name)
    assert records[0]["job-id"] == job and records[0]["job-state"] == "completed"
    record_figure("power-off-withdrawn", seconds=round(withdrawn, 3))
    record_figure("power-on-browsable", seconds=round(browsable, 3))


def test_shutdown_and_startup_one_printer_switch_it_off_and_on(printer):
    system_uri = "ipp://%s/ipp/system" % printer.authority
    off = printer.ipp(ipp.SHUTDOWN_ONE_PRINTER, {"printer-id": 1}, uri=system_uri, target="system-uri")
    assert off.status == ipp.SUCCESSFUL_OK
    assert silent(printer, printer.uri)
    on = printer.ipp(ipp.STARTUP_ONE_PRINTER, {"printer-id": 1}, uri=system_uri, target="system-uri")
    assert on.status == ipp.SUCCESSFUL_OK
    assert answers(printer)


def test_a_power_fault_switches_the_printer_off_after_a_job_and_clears_itself(printer):
    name = printer.checked("GET", "/api/v1/printers")[0]["printer-name"]
    fault = {"name": "unplugged", "trigger": {"after-jobs": 1}, "effect": {"power": "off"},
             "clear-after": UNPLUGGED_SECONDS}
    printer.checked("POST", "/api/v1/printers/vprinter-duplex-laser/faults", 201, fault)
    printer.print_job(name="the last job before the plug is pulled")
    printer.wait(1)
    wait_for(lambda: power_of(printer) == "off", "the power fault to switch the printer off",
             limit=POWER_CHANGE_LIMIT)
    assert printer.checked("GET", "/api/v1/printers")[0]["printer-name"] == name
    assert silent(printer, printer.uri)
    wait_for(lambda: power_of(printer) == "on", "the power fault to clear itself", limit=POWER_CHANGE_LIMIT)
    assert answers(printer)
