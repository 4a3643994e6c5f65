"""The request journal with real clients: an ipptool run appears in it with its operations in order, the same
entries are in OUTPUT/requests.jsonl, the event stream sends each new request, and `vprinter requests` and
`vprinter verify` answer from a running printer with the exit status a CI step needs."""
import json
import pathlib
import subprocess
import threading
import urllib.request

from vprinter import documents
from vptest import waiting
from vptest.printer import run_vprinter

# CUPS's example suites, as cups-ipp-utils installs them, and the operation each of these three sends.
IPPTOOL_SUITES = pathlib.Path("/usr/share/cups/ipptool")
SUITES = {"get-printer-attributes.test": "Get-Printer-Attributes", "print-job.test": "Print-Job",
          "get-jobs.test": "Get-Jobs"}
# Seconds an ipptool run may take.
IPPTOOL_LIMIT = 120


def run_ipptool(uri, document, *suites):
    done = subprocess.run(["ipptool", "-t", "-f", str(document), uri, *(str(IPPTOOL_SUITES / suite) for suite in suites)],
                          capture_output=True, text=True, timeout=IPPTOOL_LIMIT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_ipptool_run_is_journaled_in_order(printer, tmp_path):
    document = tmp_path / "letter.pdf"
    document.write_bytes(documents.pdf(["journaled by ipptool"], size="letter"))
    since = printer.clear_requests()
    run_ipptool(printer.uri, document, *SUITES)
    entries = printer.requests(kind="ipp")
    assert [entry["ipp"]["operation"] for entry in entries] == list(SUITES.values())
    assert all(entry["client"]["user-agent"].startswith("CUPS/") for entry in entries), entries[0]["client"]
    assert printer.verify(sequence=[{"operation": operation} for operation in SUITES.values()], since=since)
    [print_job] = [entry for entry in entries if entry["ipp"]["operation"] == "Print-Job"]
    assert print_job["ipp"]["document"]["size"] == document.stat().st_size
    assert print_job["ipp"]["job-id"] == printer.wait(1)[0]["job-id"]
    # ipptool opens a connection for each suite file: the connection numbers go up with them.
    connections = [entry["connection"] for entry in entries]
    assert connections == sorted(set(connections)) and connections[0] > 0, connections
    failed = printer.verify(sequence=[{"operation": "Get-Jobs"}, {"operation": "Print-Job"}], since=since)
    assert not failed and failed["message"] == "step 2 of 2 matched no request after request %d" % entries[2]["id"]


def test_the_journal_file_holds_every_entry(printer):
    printer.jobs()
    printer.checked("GET", "/livez", 200)
    in_memory = printer.requests()
    # The file is written beside the requests, on a queue of its own: wait until it has caught up.
    path = pathlib.Path(printer.output_dir) / "requests.jsonl"
    assert waiting.wait_until(lambda: path.exists() and len(path.read_text().splitlines()) >= len(in_memory), 10, 0.05)
    on_disk = [json.loads(line) for line in path.read_text().splitlines()]
    assert on_disk[:len(in_memory)] == in_memory


def test_the_event_stream_sends_each_new_request(printer):
    received = []
    ready = threading.Event()

    def listen():
        with urllib.request.urlopen(printer.base_url + "/api/v1/requests/events?kind=http", timeout=30) as stream:
            ready.set()
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    received.append(json.loads(line[len("data: "):]))
                    return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert ready.wait(10)
    printer.checked("GET", "/api/v1/jobs", 200)
    # Well before the stream's keep-alive (15 s), which would push out an event the printer held back.
    listener.join(5)
    assert [entry["http"]["path"] for entry in received] == ["/api/v1/jobs"]


def test_the_command_line_lists_and_verifies(printer):
    printer.jobs()
    status, out, err = run_vprinter("requests", "--url", printer.uri, "--kind", "http", "--status", "200")
    assert status == 0, err
    assert "/api/v1/jobs" in [entry["http"]["path"] for entry in json.loads(out)]
    status, out, err = run_vprinter("verify", "--url", printer.uri, '{"request": {"kind": "http"}, "atLeast": 1}')
    assert status == 0 and json.loads(out)["pass"], err
    status, out, err = run_vprinter("verify", "--url", printer.uri, '{"request": {"operation": "Cancel-Job"}}')
    assert status == 1 and "FAIL" in err and "near miss" in err, err
    status, _, err = run_vprinter("verify", "--url", printer.uri, '{"request": {"operaton": "Cancel-Job"}}')
    assert status == 2 and "operaton" in err, err
    status, _, err = run_vprinter("requests", "--url", printer.uri, "--operaton", "x")
    assert status == 2, err
