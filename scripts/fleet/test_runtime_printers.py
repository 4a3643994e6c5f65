"""Printers per test: POST/DELETE /api/v1/printers and the PWG 5100.22 System Service,
checked with avahi-browse and ipptool."""
import pathlib
import re
import subprocess
import time

import pytest
from vprinter import ipp

from vptest import avahi
from vptest.artifacts import record_figure
from vptest.documents import SAMPLE_PDF
from vptest.names import unique
from vptest.paths import REPO

IPPTOOL_TESTS = REPO / "Tests" / "ipptool" / "system"
# The longest one ipptool run may take, in seconds.
IPPTOOL_LIMIT = 60
# client-error-attributes-or-values-not-supported (RFC 8011 section 4.1.4.2 and appendix B).
ATTRIBUTES_OR_VALUES_NOT_SUPPORTED = 0x040B


def ipptool(*arguments):
    """Runs ipptool with a 30 s time-out per request; asserts it passed and returns what it printed."""
    done = subprocess.run(["ipptool", "-T", "30", *arguments], capture_output=True, text=True, timeout=IPPTOOL_LIMIT)
    assert done.returncode == 0, done.stdout[-3000:]
    return done.stdout


def printer_names(answer):
    """The printer-name of each printer group of an answer (Get-Printers answers one group per printer)."""
    return [group["printer-name"][0] for group in answer.groups_of(ipp.PRINTER_ATTRIBUTES)]


def test_a_printer_created_through_the_api_prints_and_its_deletion_withdraws_it(advertised, avahi_browser):
    name = unique("runtime-api")
    created = advertised.checked("POST", "/api/v1/printers", 201, {"profile": "color-inkjet", "name": name})
    assert created["printer-name"] == name
    assert created["resource"] == "/ipp/print/" + name
    uri = created["printer-uri-supported"]
    assert uri.endswith("/ipp/print/" + name)
    appeared = avahi_browser.wait(name)
    assert appeared is not None, "the created printer never became browsable"
    job = advertised.print_job(name="runtime api job", uri=uri)
    records = advertised.wait(1, printer=name)
    assert [record["job-id"] for record in records] == [job]
    assert records[0]["job-state"] == "completed" and records[0]["impressions"], records[0]
    assert name in [printer["printer-name"] for printer in advertised.checked("GET", "/api/v1/printers")]

    started = time.monotonic()
    assert advertised.checked("DELETE", "/api/v1/printers/" + name) == {"deleted": name}
    gone = avahi_browser.wait(name, present=False)
    assert gone is not None, "the deleted printer is still browsable after %d s" % avahi.BROWSE_LIMIT
    record_figure("api-delete-withdrawn", seconds=round(time.monotonic() - started, 3),
                  browsable_after_create=round(appeared, 3))
    assert name not in [printer["printer-name"] for printer in advertised.checked("GET", "/api/v1/printers")]
    # Its path is gone; its job stays on disk.
    answer = advertised.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=uri)
    assert answer.status == ipp.CLIENT_ERROR_NOT_FOUND, "a deleted printer's path answers 0x%04x" % answer.status
    assert (pathlib.Path(advertised.output_dir) / "jobs" / str(job) / "job.json").is_file()


def test_ipptool_create_printer_makes_a_printer_that_prints_and_delete_printer_withdraws_it(advertised, avahi_browser,
                                                                                           tmp_path):
    name = unique("runtime-ipp")
    system_uri = "ipp://%s/ipp/system" % advertised.authority
    created = ipptool("-tv", "-d", "name=" + name, "-d", "profile=duplex-laser", system_uri,
                      str(IPPTOOL_TESTS / "create-printer.test"))
    uri = re.search(r"printer-uri-supported \(uri\) = (\S+)", created).group(1)
    printer_id = int(re.search(r"printer-id \(integer\) = (\d+)", created).group(1))
    assert avahi_browser.wait(name) is not None, "the printer made by Create-Printer never became browsable"
    document = tmp_path / "sample.pdf"
    document.write_bytes(SAMPLE_PDF)
    ipptool("-t", "-f", str(document), uri, "print-job.test")
    records = advertised.wait(1, printer=name)
    assert records[0]["job-state"] == "completed" and records[0]["impressions"], records[0]
    # Get-Printers lists it; Get-Printer-Attributes on it answers with its printer-id.
    listed = advertised.ipp(ipp.GET_PRINTERS, uri=system_uri, target="system-uri")
    assert listed.status == ipp.SUCCESSFUL_OK and name in printer_names(listed)
    answer = advertised.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": ["printer-id", "printer-name"]},
                            uri=uri)
    assert answer.status == ipp.SUCCESSFUL_OK and answer.get("printer-id") == printer_id

    started = time.monotonic()
    ipptool("-t", "-d", "printer_id=%d" % printer_id, system_uri, str(IPPTOOL_TESTS / "delete-printer.test"))
    assert avahi_browser.wait(name, present=False) is not None, "the printer Delete-Printer removed is still browsable"
    record_figure("ipp-delete-withdrawn", seconds=round(time.monotonic() - started, 3))


def test_the_system_service_answers_get_system_attributes_to_ipptool(printer):
    ipptool("-t", "ipp://%s/ipp/system" % printer.authority, str(IPPTOOL_TESTS / "get-system-attributes.test"))


def test_create_printer_refuses_a_taken_name_an_unknown_profile_and_a_missing_name(printer):
    system_uri = "ipp://%s/ipp/system" % printer.authority

    def create(attributes):
        return printer.ipp(ipp.CREATE_PRINTER, uri=system_uri, target="system-uri",
                           groups=[(ipp.PRINTER_ATTRIBUTES, attributes)]).status

    assert create({"printer-name": "vprinter duplex-laser"}) == ipp.CLIENT_ERROR_NOT_POSSIBLE
    assert create({"printer-name": unique("p"), "vprinter-profile": ipp.Value(ipp.NAME, "no-such")}) == \
        ATTRIBUTES_OR_VALUES_NOT_SUPPORTED
    assert create({"printer-info": ipp.Value(ipp.NAME, "no name")}) == ipp.CLIENT_ERROR_BAD_REQUEST
    missing = printer.ipp(ipp.DELETE_PRINTER, {"printer-id": 999}, uri=system_uri, target="system-uri")
    assert missing.status == ipp.CLIENT_ERROR_NOT_FOUND


@pytest.mark.parametrize("body, status", [
    ({"profile": "duplex-laser"}, 400),
    ({"name": ""}, 400),
    ({"name": "a/b"}, 400),
    ({"name": "x", "profile": "no-such-profile"}, 400),
    ({"name": "x", "colour": "red"}, 400),
    ({"name": "x", "port": 70000}, 400),
    ({"name": "x", "scenario": "no-such-scenario"}, 400),
    ({"name": "vprinter duplex-laser"}, 409),
])
def test_post_printers_refuses_bad_bodies_with_the_reason(printer, body, status):
    answer = printer.checked("POST", "/api/v1/printers", status, body)
    assert answer["error"], answer


def test_delete_and_power_of_an_unknown_printer_are_404(printer):
    printer.checked("DELETE", "/api/v1/printers/no-such", 404)
    printer.checked("POST", "/api/v1/printers/no-such/power", 404, {"on": False})
    printer.checked("POST", "/api/v1/printers/vprinter-duplex-laser/power", 400, {"on": "no"})


def test_a_runtime_printer_with_an_inline_scenario_and_its_own_port(printer):
    name = unique("own-port")
    scenario = {"name": "empty", "faults": [{"effect": {"add-reasons": ["media-empty-error"]}}]}
    created = printer.checked("POST", "/api/v1/printers", 201, {"name": name, "port": 0, "scenario": scenario})
    own = created["port"]
    assert own != printer.port
    uri = created["printer-uri-supported"]
    assert uri.endswith(":%d/ipp/print/%s" % (own, name))
    assert "media-empty-error" in created["printer-state-reasons"]
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=uri)
    assert answer.status == ipp.SUCCESSFUL_OK and answer.get("printer-name") == name
    printer.checked("DELETE", "/api/v1/printers/" + name)
    with pytest.raises(OSError):
        ipp.send(uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri), timeout=5)
