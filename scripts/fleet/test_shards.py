"""A fleet served by several processes: each with the same --config and its --shard INDEX/COUNT (given as a
number, or as a StatefulSet pod's name ending in its ordinal) serves every COUNT-th printer of the list from INDEX,
named and pathed as in the whole fleet, and numbers its jobs so that no two slices share a job-id."""
import json
import re
import socket

from vprinter import ipp

from vptest.names import free_port
from vptest.printer import run_vprinter

PRINTERS = 7
SLICES = 3


def test_three_slices_serve_the_fleet_between_them_with_job_ids_of_their_own(start_printer, tmp_path):
    config = tmp_path / "fleet.json"
    names = ["desk-%d" % number for number in range(PRINTERS)]
    config.write_text(json.dumps({"printers": [{"profile": "duplex-laser", "name": name} for name in names]}))
    served, job_ids = [], []
    for index in range(SLICES):
        shard = "%d/%d" % (index, SLICES) if index != 1 else "vprinter-1/%d" % SLICES
        process = start_printer("--config", str(config), "--shard", shard, "--render-dpi", "72")
        mine = names[index::SLICES]
        assert [uri.rsplit("/", 1)[1] for uri in process.uris] == mine
        assert [entry["printer-name"] for entry in process.checked("GET", "/api/v1/printers")] == mine
        served += mine
        answer = ipp.send(process.uris[0], ipp.request(ipp.GET_PRINTER_ATTRIBUTES, process.uris[0]))
        assert answer.status == 0 and answer.get("printer-name") == mine[0]
        for _ in range(2):
            job_ids.append(process.print_job())
        assert "slice %d/%d of the fleet" % (index, SLICES) in process.log
    assert sorted(served) == sorted(names)
    # Slice i numbers its jobs i + 1, i + 1 + 3, ...: six jobs, six job-ids.
    assert job_ids == [1, 4, 2, 5, 3, 6]


def test_a_slice_beyond_the_count_is_a_usage_error(tmp_path):
    refused = ["3/3", "1/0", "vprinter/3"]
    # hostname/COUNT takes the number ending the host name; a name that ends in none is refused.
    if not re.search(r"-\d+$", socket.gethostname()):
        refused.append("hostname/3")
    for shard in refused:
        status, _, err = run_vprinter("--shard", shard, "--port", "0", "--no-dnssd")
        assert status == 2, err
        assert "--shard needs INDEX/COUNT" in err


def test_any_slice_answers_for_the_whole_fleet_with_its_peers(start_printer, tmp_path):
    config = tmp_path / "fleet.json"
    names = ["desk-%d" % number for number in range(PRINTERS)]
    config.write_text(json.dumps({"printers": [{"profile": "duplex-laser", "name": name} for name in names]}))
    ports = [free_port() for _ in range(SLICES)]
    # Every slice is given the whole list, itself included, as a headless Service's name gives every pod.
    peers = [argument for port in ports for argument in ("--peers", "127.0.0.1:%d" % port)]
    slices = [start_printer("--config", str(config), "--shard", "%d/%d" % (index, SLICES), "--port", str(port),
                            "--render-dpi", "72", *peers) for index, port in enumerate(ports)]
    for process in slices:
        listed = [entry["printer-name"] for entry in process.checked("GET", "/api/v1/printers")]
        assert sorted(listed) == sorted(names)
    own = [entry["printer-name"] for entry in slices[1].checked("GET", "/api/v1/printers?peers=none")]
    assert own == names[1::SLICES]

    for process in slices:
        process.print_job()
        process.print_job()
    # Job-ids 1 to 6 across the slices, waited for and listed by any of them in order, page by page.
    ended = slices[2].checked("GET", "/api/v1/wait?count=6&timeout=60")
    assert [record["job-id"] for record in ended] == [1, 2, 3, 4, 5, 6]
    assert all(record["job-state"] == "completed" for record in ended)
    timed_out = slices[2].http("GET", "/api/v1/wait?count=7&timeout=0.5")
    assert timed_out.status == 408
    assert len(json.loads(timed_out.body)["jobs"]) == 6
    listing = slices[2].checked("GET", "/api/v1/jobs")
    assert [record["job-id"] for record in listing] == [1, 2, 3, 4, 5, 6]
    first = slices[0].http("GET", "/api/v1/jobs?limit=4")
    assert first.status == 200
    assert [record["job-id"] for record in json.loads(first.body)] == [1, 2, 3, 4]
    next_page = first.headers["Link"].split(">")[0].lstrip("<")
    assert [record["job-id"] for record in slices[0].checked("GET", next_page)] == [5, 6]
    assert [record["job-id"] for record in slices[0].checked("GET", "/api/v1/jobs?peers=none")] == [1, 4]

    # A job of another slice, its record and a page image, through slice 0.
    record = slices[0].checked("GET", "/api/v1/jobs/2")
    assert (record["job-id"], record["printer-name"]) == (2, names[1])
    image = slices[0].http("GET", "/api/v1/jobs/2/files/page-0001.png")
    assert image.status == 200 and image.headers["Content-Type"] == "image/png"
    assert image.body.startswith(b"\x89PNG\r\n\x1a\n")
    assert slices[0].http("GET", "/api/v1/jobs/99").status == 404

    # A slice that is gone makes the fleet's listings fail, naming it, rather than pass for the whole.
    slices[2].stop()
    answer = slices[0].http("GET", "/api/v1/printers")
    assert answer.status == 502
    assert "127.0.0.1:%d" % ports[2] in json.loads(answer.body)["error"]
