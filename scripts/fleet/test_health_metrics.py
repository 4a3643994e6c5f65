"""Health and metrics: /livez, /readyz and /metrics, the metrics read with prometheus_client's
parser and checked against the jobs printed here."""
import subprocess

from prometheus_client.parser import text_string_to_metric_families

from conftest import (Vprinter, attribute, call, call_json, get_printer_attributes, ipp, ipp_status, post_ipp,
                      print_pdf, request, wait_jobs)


def metrics(base):
    status, headers, body = call("GET", base + "/metrics")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


def test_livez_and_readyz_answer_and_readyz_follows_accepting():
    running = Vprinter("--profile", "duplex-laser", "--profile", "color-inkjet", expect_uris=2)
    try:
        assert call_json("GET", running.base + "/livez") == {"status": "ok"}
        assert call_json("GET", running.base + "/readyz") == {"status": "ready", "printers": 2}
        # Disable-Printer (IPP/2.x): the printer stops accepting jobs, so the process is not ready.
        disable = request(0x0023, "printer-uri", running.uris[1])
        assert ipp_status(post_ipp(running.uris[1], disable)) == 0
        status, _, body = call("GET", running.base + "/readyz")
        assert status == 503 and b"not accepting jobs" in body, body
        assert ipp_status(post_ipp(running.uris[1], request(0x0022, "printer-uri", running.uris[1]))) == 0
        assert call("GET", running.base + "/readyz")[0] == 200
    finally:
        running.stop()


def test_metrics_count_the_jobs_pages_bytes_requests_and_faults_of_this_test():
    running = Vprinter("--profile", "duplex-laser", "--profile", "color-inkjet", expect_uris=2)
    try:
        first, second = running.uris
        names = [p["printer-name"] for p in call_json("GET", running.base + "/api/v1/printers")]
        print_pdf(first, "one")
        print_pdf(first, "two copies", copies=2)
        print_pdf(second, "three")
        for _ in range(5):
            assert ipp_status(post_ipp(second, get_printer_attributes(second))) == 0
        fault = {"trigger": "now", "effect": {"add-reasons": ["toner-low-report"]}}
        call_json("POST", running.base + "/api/v1/printers/vprinter-color-inkjet/faults", fault, expect=201)
        records = wait_jobs(running.base, 3)
        samples = metrics(running.base)
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
        post_ipp(first, request(0x000B, "printer-uri", first.replace("/ipp/print/", "/ipp/print/x")))
        samples = metrics(running.base)
        assert value(samples, "vprinter_ipp_requests_total", operation="Get-Printer-Attributes",
                     status="client-error-not-found") == 1
    finally:
        running.stop()
