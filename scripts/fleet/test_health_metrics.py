"""Health and metrics: /livez, /readyz and /metrics, the metrics read with prometheus_client's
parser and checked against the jobs printed here."""
import json
import subprocess
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
from vprinter import ipp

from vptest.names import free_port
from vptest.paths import REPO
from vptest.printer import START_LIMIT, binary

TWO_PRINTERS = ("--profile", "duplex-laser", "--profile", "color-inkjet")


def metrics(printer):
    answer = printer.http("GET", "/metrics")
    assert answer.status == 200
    assert answer.content_type.startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(answer.body.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


def test_livez_and_readyz_answer_and_readyz_follows_accepting(start_printer):
    running = start_printer(*TWO_PRINTERS)
    assert len(running.uris) == 2
    assert running.checked("GET", "/livez") == {"status": "ok"}
    assert running.checked("GET", "/readyz") == {"status": "ready", "printers": 2}
    # Disable-Printer (IPP/2.x): the printer stops accepting jobs, so the process is not ready.
    assert running.ipp(ipp.DISABLE_PRINTER, uri=running.uris[1]).status == ipp.SUCCESSFUL_OK
    answer = running.checked("GET", "/readyz", 503)
    assert "not accepting jobs" in str(answer), answer
    assert running.ipp(ipp.ENABLE_PRINTER, uri=running.uris[1]).status == ipp.SUCCESSFUL_OK
    running.checked("GET", "/readyz", 200)


def test_readyz_is_not_ready_until_every_printer_of_the_config_is_there(tmp_path):
    """The process listens before it adds its printers; a fleet of thousands takes a while, and a /readyz that
    answered ready meanwhile (every printer added so far being ready) would send a Kubernetes Service's traffic to
    printers that are not there yet."""
    count = 3000
    config = tmp_path / "fleet.json"
    config.write_text(json.dumps({"printers": [{"profile": "duplex-laser", "name": "p%04d" % number}
                                               for number in range(count)]}))
    port = free_port()
    process = subprocess.Popen([binary(), "--config", str(config), "--port", str(port), "--no-dnssd",
                                "--output-dir", str(tmp_path / "output")], cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    answers = []
    try:
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/readyz" % port, timeout=5) as response:
                    answers.append((response.status, json.loads(response.read())))
                    break
            except urllib.error.HTTPError as error:
                answers.append((error.code, json.loads(error.read())))
            except OSError:
                pass
            assert process.poll() is None, "vprinter exited with %s" % process.returncode
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert answers and answers[-1] == (200, {"status": "ready", "printers": count}), answers[-3:]
    starting = [body for status, body in answers if status == 503]
    assert all("still being added" in str(body) for body in starting), starting[:3]


def test_metrics_count_the_jobs_pages_bytes_requests_and_faults_of_this_test(start_printer):
    running = start_printer(*TWO_PRINTERS)
    first, second = running.uris
    names = [p["printer-name"] for p in running.checked("GET", "/api/v1/printers")]
    running.print_job(name="one", uri=first)
    running.print_job(name="two copies", uri=first, copies=2)
    running.print_job(name="three", uri=second)
    for _ in range(5):
        assert running.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=second).status == ipp.SUCCESSFUL_OK
    fault = {"trigger": "now", "effect": {"add-reasons": ["toner-low-report"]}}
    running.checked("POST", "/api/v1/printers/vprinter-color-inkjet/faults", 201, fault)
    records = running.wait(3)
    samples = metrics(running)
    for name in names:
        mine = [record for record in records if record["printer-name"] == name]
        assert value(samples, "vprinter_jobs", printer=name, state="completed") == len(mine)
        assert value(samples, "vprinter_jobs", printer=name, state="aborted") == 0
        assert value(samples, "vprinter_impressions_total", printer=name) == sum(r["job-impressions"] for r in mine)
        assert value(samples, "vprinter_sheets_total", printer=name) == sum(r["job-media-sheets"] for r in mine)
        assert value(samples, "vprinter_received_bytes_total", printer=name) == sum(
            d["size"] for r in mine for d in r["documents"])
    assert value(samples, "vprinter_impressions_total", printer=names[0]) == 3  # 1 + 2 copies
    assert value(samples, "vprinter_faults_fired_total", printer=names[1]) == 1
    assert value(samples, "vprinter_faults_fired_total", printer=names[0]) == 0
    assert value(samples, "vprinter_ipp_requests_total", operation="Print-Job", status="successful-ok") == 3
    assert value(samples, "vprinter_ipp_requests_total", operation="Get-Printer-Attributes",
                 status="successful-ok") == 5
    assert value(samples, "vprinter_ipp_request_duration_seconds_count", operation="Print-Job") == 3
    assert value(samples, "vprinter_ipp_request_duration_seconds_bucket", operation="Get-Printer-Attributes",
                 le="+Inf") == 5
    assert value(samples, "vprinter_render_seconds_count") == 3
    assert value(samples, "vprinter_render_seconds_sum") > 0
    assert value(samples, "vprinter_printers", power="on") == 2
    assert value(samples, "vprinter_open_connections") >= 1
    # A refused request is counted under its status.
    unknown = running.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=first.replace("/ipp/print/", "/ipp/print/x"))
    assert unknown.status == ipp.CLIENT_ERROR_NOT_FOUND
    samples = metrics(running)
    assert value(samples, "vprinter_ipp_requests_total", operation="Get-Printer-Attributes",
                 status="client-error-not-found") == 1
