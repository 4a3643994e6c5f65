"""Fleets: 1,000 printers from one config file, each answering Get-Printer-Attributes on its own
path (and its own port when the config gives one), each printing a job; and a fleet advertised whole over DNS-SD.

Avahi needs minutes to probe and announce 1,000 services on a loaded machine (docs/dnssd.md "Many printers"), so the
advertised fleet of the test command has VP_FLEET_ADVERTISED printers (default 200); set it to 1000 to check the
whole fleet (the figure is recorded either way)."""
import json
import os
import time

from vprinter import ipp

from vptest.artifacts import record_figure
from vptest.calls import Session
from vptest.documents import SAMPLE_PDF
from vptest.names import unique
from vptest.waiting import wait_until

FLEET_SIZE = int(os.environ.get("VP_FLEET_SIZE", "1000"))
ADVERTISED_SIZE = int(os.environ.get("VP_FLEET_ADVERTISED", "200"))
# Printers of the fleet that get a port of their own (port 0: any free port).
OWN_PORTS = 10
# The longest a fleet may take to start, to print, or to be advertised (Avahi's part: docs/dnssd.md "Many
# printers"), in seconds.
FLEET_LIMIT = 300
# How often the advertised fleet is counted, in seconds.
COUNT_INTERVAL = 0.2


def post_ipp(session, uri, body):
    """An IPP request over the session's connection to the URI's port; the decoded answer (HTTP 200 asserted)."""
    answer = session.call("POST", uri, body, {"Content-Type": "application/ipp"})
    assert answer.status == 200, "%s: HTTP %d" % (uri, answer.status)
    return ipp.decode_message(answer.body)


def authority(uri):
    return uri.split("/")[2]


def test_a_fleet_of_1000_printers_from_one_config_answers_and_prints(start_printer, tmp_path):
    prefix = unique("fleet")
    printers = [{"name": "%s-%04d" % (prefix, index), "profile": "duplex-laser" if index % 2 else "color-inkjet"}
                for index in range(FLEET_SIZE)]
    for entry in printers[:OWN_PORTS]:
        entry["port"] = 0
    # Pages rendered at 20 dpi: every job is rendered to its PNG as usual, at a size that keeps 1,000 of them quick.
    (tmp_path / "fleet.json").write_text(json.dumps({"printers": printers, "render-workers": 2, "render-dpi": 20}))
    running = start_printer("--config", str(tmp_path / "fleet.json"), timeout=FLEET_LIMIT)
    assert len(running.uris) == FLEET_SIZE
    # Every printer answers Get-Printer-Attributes with its own name, over one keep-alive connection per port.
    with Session() as session:
        for index, uri in enumerate(running.uris):
            answer = post_ipp(session, uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, {
                "requested-attributes": ["printer-name", "printer-state"]}))
            assert answer.status == ipp.SUCCESSFUL_OK and answer.get("printer-name") == printers[index]["name"], uri
        own_ports = {authority(uri) for uri in running.uris[:OWN_PORTS]}
        main = {authority(uri) for uri in running.uris[OWN_PORTS:]}
        assert len(own_ports) == OWN_PORTS and len(main) == 1 and not main & own_ports

        # Every printer prints a job.
        printing = time.monotonic()
        for index, uri in enumerate(running.uris):
            body = ipp.request(ipp.PRINT_JOB, uri, {"requesting-user-name": "fleet-test",
                                                    "job-name": "fleet job %d" % index,
                                                    "document-format": "application/pdf"})
            status = post_ipp(session, uri, body + SAMPLE_PDF).status
            assert ipp.successful(status), "Print-Job to %s: 0x%04x" % (uri, status)
    records = running.wait(FLEET_SIZE, timeout=FLEET_LIMIT)
    assert len(records) == FLEET_SIZE
    assert all(record["job-state"] == "completed" for record in records)
    assert {record["printer-name"] for record in records} == {entry["name"] for entry in printers}
    print_seconds = time.monotonic() - printing

    running.checked("GET", "/readyz", 200)
    record_figure("fleet", printers=FLEET_SIZE, uris_seconds=round(running.startup_seconds, 2),
                  print_seconds=round(print_seconds, 2))


def test_a_fleet_from_one_config_is_advertised_whole_and_readyz_waits_for_it(start_printer, avahi_browser, tmp_path):
    prefix = unique("advertised")
    printers = [{"name": "%s-%04d" % (prefix, index)} for index in range(ADVERTISED_SIZE)]
    (tmp_path / "fleet.json").write_text(json.dumps({"printers": printers, "no-render": True}))
    started = time.monotonic()
    # Ready (GET /readyz 200) once every printer is advertised: start_printer waits for that.
    running = start_printer("--config", str(tmp_path / "fleet.json"), dnssd=True, timeout=FLEET_LIMIT)
    assert len(running.uris) == ADVERTISED_SIZE
    wait_until(lambda: avahi_browser.count(prefix) >= ADVERTISED_SIZE, FLEET_LIMIT - (time.monotonic() - started),
               COUNT_INTERVAL)
    count = avahi_browser.count(prefix)
    record_figure("fleet-advertised", printers=ADVERTISED_SIZE, ready_seconds=round(running.ready_seconds, 2),
                  browsable=count, browsable_seconds=round(time.monotonic() - started, 2))
    assert count == ADVERTISED_SIZE, "%d of %d printers browsable" % (count, ADVERTISED_SIZE)
