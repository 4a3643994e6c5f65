"""A fleet served by several processes: each with the same --config and its --shard INDEX/COUNT (given as a
number, or as a StatefulSet pod's name ending in its ordinal) serves every COUNT-th printer of the list from INDEX,
named and pathed as in the whole fleet, and numbers its jobs so that no two slices share a job-id."""
import base64
import collections
import http.server
import json
import re
import socket
import threading

import pytest

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


def slices_peering_each_other(start_printer, tmp_path, count):
    """``count`` slices of a fleet, each with every slice as its peer (itself included, as a headless Service's
    name gives every pod)."""
    config = tmp_path / ("fleet-%d.json" % count)
    names = ["storm-%d" % number for number in range(count * 2)]
    config.write_text(json.dumps({"printers": [{"profile": "duplex-laser", "name": name} for name in names]}))
    ports = [free_port() for _ in range(count)]
    peers = [argument for port in ports for argument in ("--peers", "127.0.0.1:%d" % port)]
    return names, [start_printer("--config", str(config), "--shard", "%d/%d" % (index, count), "--port", str(port),
                                 "--no-render", *peers) for index, port in enumerate(ports)]


def listings_journaled(process):
    """The requests for the printers' listing a slice journaled: what its peers asked of it."""
    return [entry for entry in process.checked("GET", "/api/v1/requests?kind=http")
            if entry["http"]["path"].startswith("/api/v1/printers")]


@pytest.mark.parametrize("count", [2, 3])
def test_a_forged_peers_value_asks_each_peer_once(start_printer, tmp_path, count):
    """Issue 40's fourth attack: `?peers=x` was read by its first value and `peers=none` appended, so every hop fanned
    out again (742 requests in 3 s on two slices, then 502). Peers ask each other with a header only they send, so
    one listing makes at most one request per peer, whatever its query says."""
    names, slices = slices_peering_each_other(start_printer, tmp_path, count)
    answer = slices[0].http("GET", "/api/v1/printers?peers=x&peers=y")
    assert answer.status == 200, answer.body
    assert sorted(entry["printer-name"] for entry in json.loads(answer.body)) == sorted(names)
    for peer in slices[1:]:
        asked = listings_journaled(peer)
        assert len(asked) == 1, asked
        assert "peers=" not in asked[0]["http"]["path"], "the forwarded query keeps no peers parameter"
    # A client that sends the peers' header itself gets the slice's own part, and no peer is asked.
    own = slices[0].http("GET", "/api/v1/printers?peers=x", headers={"VPrinter-Peer-Hop": "1"})
    assert sorted(entry["printer-name"] for entry in json.loads(own.body)) == sorted(names[0::count])
    assert all(len(listings_journaled(peer)) == 1 for peer in slices[1:])


def test_livez_stays_up_while_clients_loop_on_the_fleet_listing(start_printer, tmp_path):
    """Requests asking the peers are capped in flight (503 with Retry-After beyond the cap), and each asks every
    peer once: a loop of 200 listings from 8 threads leaves every slice answering /livez."""
    names, slices = slices_peering_each_other(start_printer, tmp_path, 3)
    statuses = collections.Counter()
    lock = threading.Lock()

    def loop():
        for _ in range(25):
            status = slices[0].http("GET", "/api/v1/printers?peers=x").status
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=loop) for _ in range(8)]
    for thread in threads:
        thread.start()
    live = []
    while any(thread.is_alive() for thread in threads):
        live += [process.http("GET", "/livez").status for process in slices]
    for thread in threads:
        thread.join()
    assert set(statuses) <= {200, 503} and statuses[200] > 0, statuses
    assert live and set(live) == {200}
    asked = len(listings_journaled(slices[1]))
    assert asked == statuses[200], "each listing answered asked the peer once (%d, %s)" % (asked, statuses)


@pytest.fixture
def recording_peer():
    """A stand-in peer on loopback that answers every listing with [] and keeps each request's path and header
    fields: what a slice sends its peers."""
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append((self.path, dict(self.headers)))
            body = b"[]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], seen
    server.shutdown()
    server.server_close()


def test_a_client_credentials_go_to_no_plain_http_peer_and_a_peer_named_with_its_own_gets_those(
        start_printer, recording_peer):
    """The client's Authorization went to every peer over plain HTTP. Now: over TLS only; a peer named with
    credentials of its own (http://user:password@host:port) gets those; any other gets none."""
    port, seen = recording_peer
    client = {"Authorization": "Basic " + base64.b64encode(b"alice:secret").decode()}
    plain = start_printer("--peers", "127.0.0.1:%d" % port, "--no-render")
    assert plain.http("GET", "/api/v1/printers?peers=x", headers=client).status == 200
    path, fields = seen[-1]
    assert path == "/api/v1/printers" and fields.get("VPrinter-Peer-Hop") == "1"
    assert "Authorization" not in fields
    named = start_printer("--peers", "http://fleet:peer%%20pw@127.0.0.1:%d" % port, "--no-render")
    answer = named.http("GET", "/api/v1/printers", headers=client)
    assert answer.status == 200
    assert seen[-1][1].get("Authorization") == "Basic " + base64.b64encode(b"fleet:peer pw").decode()
    down = start_printer("--peers", "http://fleet:pw@127.0.0.1:1", "--no-render").http("GET", "/api/v1/printers")
    assert down.status == 502 and "pw" not in json.loads(down.body)["error"], "a peer's password is never shown"
