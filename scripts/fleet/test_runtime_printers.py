"""Printers per test: POST/DELETE /api/v1/printers and the PWG 5100.22 System Service,
checked with avahi-browse and ipptool."""
import os
import pathlib
import re
import subprocess
import tempfile
import time

import pytest

from conftest import (CREATE_PRINTER, DELETE_PRINTER, GET_PRINTERS, PRINTER_ATTRIBUTES, REPO, WAIT_LIMIT, attribute,
                      call, call_json, get_printer_attributes, integer_value, ipp, ipp_status, post_ipp, print_pdf,
                      record_figure, request, unique, wait_jobs)

IPPTOOL_TESTS = REPO / "Tests" / "ipptool" / "system"


def test_a_printer_created_through_the_api_prints_and_its_deletion_withdraws_it(advertised, browser):
    name = unique("runtime-api")
    created = call_json("POST", advertised.base + "/api/v1/printers",
                        {"profile": "color-inkjet", "name": name}, expect=201)
    assert created["printer-name"] == name
    assert created["resource"] == "/ipp/print/" + name
    uri = created["printer-uri-supported"]
    assert uri.endswith("/ipp/print/" + name)
    appeared = browser.wait(name, True)
    assert appeared is not None, "the created printer never became browsable"
    job = print_pdf(uri, "runtime api job")
    records = wait_jobs(advertised.base, 1, printer=name)
    assert [record["job-id"] for record in records] == [job]
    assert records[0]["job-state"] == "completed" and records[0]["impressions"], records[0]
    listed = call_json("GET", advertised.base + "/api/v1/printers")
    assert name in [printer["printer-name"] for printer in listed]

    started = time.monotonic()
    assert call_json("DELETE", advertised.base + "/api/v1/printers/" + name) == {"deleted": name}
    gone = browser.wait(name, False)
    assert gone is not None, "the deleted printer is still browsable after %d s" % WAIT_LIMIT
    record_figure("api-delete-withdrawn", seconds=round(time.monotonic() - started, 3), browsable_after_create=round(appeared, 3))
    assert name not in [printer["printer-name"] for printer in call_json("GET", advertised.base + "/api/v1/printers")]
    # Its path is gone; its job stays on disk.
    answer = post_ipp(uri, get_printer_attributes(uri))
    assert ipp_status(answer) == 0x0406, "a deleted printer's path answers 0x%04x" % ipp_status(answer)
    assert (pathlib.Path(advertised.output) / "jobs" / str(job) / "job.json").is_file()


def test_ipptool_create_printer_makes_a_printer_that_prints_and_delete_printer_withdraws_it(advertised, browser):
    name = unique("runtime-ipp")
    system_uri = "ipp://%s/ipp/system" % advertised.authority
    created = subprocess.run(
        ["ipptool", "-tv", "-T", "30", "-d", "name=" + name, "-d", "profile=duplex-laser", system_uri,
         str(IPPTOOL_TESTS / "create-printer.test")], capture_output=True, text=True, timeout=WAIT_LIMIT)
    assert created.returncode == 0, created.stdout[-3000:]
    uri = re.search(r"printer-uri-supported \(uri\) = (\S+)", created.stdout).group(1)
    printer_id = int(re.search(r"printer-id \(integer\) = (\d+)", created.stdout).group(1))
    assert browser.wait(name, True) is not None, "the printer made by Create-Printer never became browsable"
    with tempfile.NamedTemporaryFile(suffix=".pdf") as document:
        document.write(ipp.sample_pdf())
        document.flush()
        printed = subprocess.run(["ipptool", "-t", "-T", "30", "-f", document.name, uri, "print-job.test"],
                                 capture_output=True, text=True, timeout=WAIT_LIMIT)
    assert printed.returncode == 0, printed.stdout[-3000:]
    records = wait_jobs(advertised.base, 1, printer=name)
    assert records[0]["job-state"] == "completed" and records[0]["impressions"], records[0]
    # Get-Printers lists it; Get-Printer-Attributes on it answers with its printer-id.
    listed = post_ipp(system_uri, request(GET_PRINTERS, "system-uri", system_uri))
    assert ipp_status(listed) == 0 and name.encode() in listed
    answer = post_ipp(uri, get_printer_attributes(uri, ("printer-id", "printer-name")))
    assert ipp_status(answer) == 0 and integer_value(answer, "printer-id") == printer_id

    started = time.monotonic()
    deleted = subprocess.run(
        ["ipptool", "-t", "-T", "30", "-d", "printer_id=%d" % printer_id, system_uri,
         str(IPPTOOL_TESTS / "delete-printer.test")], capture_output=True, text=True, timeout=WAIT_LIMIT)
    assert deleted.returncode == 0, deleted.stdout[-3000:]
    assert browser.wait(name, False) is not None, "the printer Delete-Printer removed is still browsable"
    record_figure("ipp-delete-withdrawn", seconds=round(time.monotonic() - started, 3))


def test_the_system_service_answers_get_system_attributes_to_ipptool(vprinter):
    system_uri = "ipp://%s/ipp/system" % vprinter.authority
    result = subprocess.run(["ipptool", "-t", "-T", "30", system_uri, str(IPPTOOL_TESTS / "get-system-attributes.test")],
                            capture_output=True, text=True, timeout=WAIT_LIMIT)
    assert result.returncode == 0, result.stdout[-3000:]


def test_create_printer_refuses_a_taken_name_an_unknown_profile_and_a_missing_name(vprinter):
    system_uri = "ipp://%s/ipp/system" % vprinter.authority

    def create(*attributes):
        groups = bytes([PRINTER_ATTRIBUTES]) + b"".join(attributes)
        return ipp_status(post_ipp(system_uri, request(CREATE_PRINTER, "system-uri", system_uri, groups=groups)))

    taken = "vprinter duplex-laser"
    assert create(attribute(ipp.NAME, "printer-name", taken)) == 0x0404
    assert create(attribute(ipp.NAME, "printer-name", unique("p")), attribute(ipp.NAME, "vprinter-profile", "no-such")) == 0x040B
    assert create(attribute(ipp.NAME, "printer-info", "no name")) == 0x0400
    missing = request(DELETE_PRINTER, "system-uri", system_uri, attribute(0x21, "printer-id", 999))
    assert ipp_status(post_ipp(system_uri, missing)) == 0x0406


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
def test_post_printers_refuses_bad_bodies_with_the_reason(vprinter, body, status):
    got, _, answer = call("POST", vprinter.base + "/api/v1/printers", body)
    assert got == status, answer
    assert b"error" in answer


def test_delete_and_power_of_an_unknown_printer_are_404(vprinter):
    assert call("DELETE", vprinter.base + "/api/v1/printers/no-such")[0] == 404
    assert call("POST", vprinter.base + "/api/v1/printers/no-such/power", {"on": False})[0] == 404
    assert call("POST", vprinter.base + "/api/v1/printers/vprinter-duplex-laser/power", {"on": "no"})[0] == 400


def test_a_runtime_printer_with_an_inline_scenario_and_its_own_port(vprinter):
    name = unique("own-port")
    scenario = {"name": "empty", "faults": [{"effect": {"add-reasons": ["media-empty-error"]}}]}
    created = call_json("POST", vprinter.base + "/api/v1/printers", {"name": name, "port": 0, "scenario": scenario},
                        expect=201)
    own = created["port"]
    assert str(own) != vprinter.authority.rsplit(":", 1)[1]
    assert created["printer-uri-supported"].endswith(":%d/ipp/print/%s" % (own, name))
    assert "media-empty-error" in created["printer-state-reasons"]
    answer = post_ipp(created["printer-uri-supported"], get_printer_attributes(created["printer-uri-supported"]))
    assert ipp_status(answer) == 0 and name.encode() in answer
    call_json("DELETE", vprinter.base + "/api/v1/printers/" + name)
    with pytest.raises(OSError):
        post_ipp(created["printer-uri-supported"], get_printer_attributes(created["printer-uri-supported"]), timeout=5)
