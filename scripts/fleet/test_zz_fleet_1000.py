"""Fleets: 1,000 printers from one config file, each answering Get-Printer-Attributes on its own
path (and its own port when the config gives one), each printing a job; and a fleet advertised whole over DNS-SD.

Avahi needs minutes to probe and announce 1,000 services on a loaded machine (docs/dnssd.md "Many printers"), so the
advertised fleet of the test command has VP_FLEET_ADVERTISED printers (default 200); set it to 1000 to check the
whole fleet (the figure is recorded either way)."""
import http.client
import json
import os
import pathlib
import struct
import tempfile
import time

from conftest import (Vprinter, call, call_json, get_printer_attributes, ipp, record_figure, unique, wait_jobs,
                      WAIT_LIMIT)

FLEET_SIZE = int(os.environ.get("VP_FLEET_SIZE", "1000"))
ADVERTISED_SIZE = int(os.environ.get("VP_FLEET_ADVERTISED", "200"))
# Printers of the fleet that get a port of their own (port 0: any free port).
OWN_PORTS = 10
# The longest a fleet may take to print, or to be advertised (Avahi's part: docs/dnssd.md "Many printers"), in
# seconds.
FLEET_LIMIT = 300


def keep_alive_post(connection, path, body):
    connection.request("POST", path, body=body, headers={"Content-Type": "application/ipp"})
    response = connection.getresponse()
    answer = response.read()
    assert response.status == 200, response.status
    return struct.unpack(">H", answer[2:4])[0], answer


def test_a_fleet_of_1000_printers_from_one_config_answers_and_prints():
    prefix = unique("fleet")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="vprinter-fleet-config-"))
    printers = [{"name": "%s-%04d" % (prefix, index), "profile": "duplex-laser" if index % 2 else "color-inkjet"}
                for index in range(FLEET_SIZE)]
    for entry in printers[:OWN_PORTS]:
        entry["port"] = 0
    # Pages rendered at 20 dpi: every job is rendered to its PNG as usual, at a size that keeps 1,000 of them quick.
    (folder / "fleet.json").write_text(json.dumps({"printers": printers, "render-workers": 2, "render-dpi": 20}))
    started = time.monotonic()
    running = Vprinter("--config", str(folder / "fleet.json"), expect_uris=FLEET_SIZE)
    try:
        uris_seconds = time.monotonic() - started
        deadline = time.monotonic() + FLEET_LIMIT
        # Every printer answers Get-Printer-Attributes with its own name, over one keep-alive connection per port.
        connections = {}
        for index, uri in enumerate(running.uris):
            authority, _, path = uri[len("ipp://"):].partition("/")
            if authority not in connections:
                host, port = authority.rsplit(":", 1)
                connections[authority] = http.client.HTTPConnection(host, int(port), timeout=WAIT_LIMIT)
            status, answer = keep_alive_post(connections[authority], "/" + path, get_printer_attributes(uri))
            assert status == 0 and printers[index]["name"].encode() in answer, uri
        own_ports = {uri[len("ipp://"):].split("/", 1)[0] for uri in running.uris[:OWN_PORTS]}
        main = {uri[len("ipp://"):].split("/", 1)[0] for uri in running.uris[OWN_PORTS:]}
        assert len(own_ports) == OWN_PORTS and len(main) == 1 and not main & own_ports

        # Every printer prints a job.
        printing = time.monotonic()
        for index, uri in enumerate(running.uris):
            authority, _, path = uri[len("ipp://"):].partition("/")
            body = ipp.print_job_request(uri, "fleet job %d" % index, ipp.sample_pdf())
            status, _ = keep_alive_post(connections[authority], "/" + path, body)
            assert status < 0x0100, "Print-Job to %s: 0x%04x" % (uri, status)
        records = call_json("GET", running.base + "/api/v1/wait?jobs=%d&timeout=%d" % (FLEET_SIZE, FLEET_LIMIT),
                            timeout=FLEET_LIMIT + 30)
        assert len(records) == FLEET_SIZE
        assert all(record["job-state"] == "completed" for record in records)
        assert {record["printer-name"] for record in records} == {entry["name"] for entry in printers}
        print_seconds = time.monotonic() - printing

        status, _, body = call("GET", running.base + "/readyz")
        assert status == 200, body
        record_figure("fleet", printers=FLEET_SIZE, uris_seconds=round(uris_seconds, 2),
                      print_seconds=round(print_seconds, 2))
        for connection in connections.values():
            connection.close()
    finally:
        running.stop()


def test_a_fleet_from_one_config_is_advertised_whole_and_readyz_waits_for_it(browser):
    prefix = unique("advertised")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="vprinter-fleet-config-"))
    printers = [{"name": "%s-%04d" % (prefix, index)} for index in range(ADVERTISED_SIZE)]
    (folder / "fleet.json").write_text(json.dumps({"printers": printers, "no-render": True}))
    started = time.monotonic()
    running = Vprinter("--config", str(folder / "fleet.json"), dnssd=True, expect_uris=ADVERTISED_SIZE)
    try:
        deadline = time.monotonic() + FLEET_LIMIT
        while call("GET", running.base + "/readyz")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        status, _, body = call("GET", running.base + "/readyz")
        assert status == 200, body
        ready_seconds = time.monotonic() - started
        while browser.count(prefix) < ADVERTISED_SIZE and time.monotonic() < deadline:
            time.sleep(0.2)
        count = browser.count(prefix)
        record_figure("fleet-advertised", printers=ADVERTISED_SIZE, ready_seconds=round(ready_seconds, 2),
                      browsable=count, browsable_seconds=round(time.monotonic() - started, 2))
        assert count == ADVERTISED_SIZE, "%d of %d printers browsable" % (count, ADVERTISED_SIZE)
    finally:
        running.stop()
