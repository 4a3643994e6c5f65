"""Job queries. GET /api/v1/jobs filters, GET /api/v1/wait with the same filters and count=N,
DELETE /api/v1/jobs with filters, and the same filters as options of `vprinter jobs` and `vprinter wait`."""
import json
import os
import threading
import time
import urllib.parse

import pytest
from printed import make_pdf, make_pwg, read
from vptest.printer import run_vprinter
from vptest.waiting import WAIT_LIMIT


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("query-documents"))
    return {
        "pdf": read(make_pdf(folder, "invoice")),
        "report": read(make_pdf(folder, "report", pages=[["Quarterly report"], ["Second page of the report"]])),
        "pwg": read(make_pwg(folder, "scan", dpi=150, pages=[["Scanned receipt 777"]])),
    }


@pytest.fixture
def two_printers(start_printer):
    """A monochrome duplex laser and a color inkjet in one process (paths /ipp/print/<name>)."""
    printer = start_printer("--profile", "duplex-laser", "--profile", "color-inkjet")
    return printer, printer.uris


def ids(jobs):
    return [job["job-id"] for job in jobs]


def jobs(printer, query):
    return printer.checked("GET", "/api/v1/jobs?" + query, 200)


def test_every_filter_selects_the_jobs_it_names(two_printers, documents):
    printer, (laser, inkjet) = two_printers
    a = printer.print_job(documents["pdf"], name="invoice 42", user="alice", uri=laser, sides="two-sided-long-edge",
                          media="iso_a4_210x297mm")
    b = printer.print_job(documents["report"], name="report", user="bob", uri=laser)
    c = printer.print_job(documents["pwg"], name="scan", user="carol", uri=inkjet, document_format="image/pwg-raster")
    d = printer.print_job(documents["pdf"], name="gray invoice", user="alice", uri=inkjet,
                          print_color_mode="monochrome")
    e = printer.print_job(b"\x00not a document" * 8, name="garbage", user="bob", uri=laser,
                          document_format="application/octet-stream")
    printer.checked("GET", "/api/v1/wait?count=5&timeout=%d" % WAIT_LIMIT, 200)
    names = {p["printer-name"]: p for p in printer.checked("GET", "/api/v1/printers", 200)}
    inkjet_name = next(name for name in names if "inkjet" in name)

    assert ids(jobs(printer, "user=alice")) == [a, d]
    assert ids(jobs(printer, "name=report")) == [b]
    assert ids(jobs(printer, "printer=" + urllib.parse.quote(inkjet_name))) == [c, d]
    assert ids(jobs(printer, "state=aborted")) == [e]
    assert ids(jobs(printer, "state=completed,aborted")) == [a, b, c, d, e]
    assert ids(jobs(printer, "format=pwg")) == [c]
    assert ids(jobs(printer, "format=application/pdf")) == [a, b, d]
    assert ids(jobs(printer, "media=iso_a4_210x297mm")) == [a]
    assert ids(jobs(printer, "media=a4")) == [a]
    assert ids(jobs(printer, "media=na_letter_8.5x11in&user=bob")) == [b, e]
    assert ids(jobs(printer, "sides=two-sided-long-edge")) == [a]
    assert ids(jobs(printer, "sides=two-sided")) == [a]
    assert ids(jobs(printer, "color-mode=color")) == [c]
    assert ids(jobs(printer, "color-mode=monochrome&printer=" + urllib.parse.quote(inkjet_name))) == [d]
    assert ids(jobs(printer, "text=" + urllib.parse.quote("invoice 42 for JANE"))) == [a, d]
    assert ids(jobs(printer, "text=" + urllib.parse.quote("total 99.00   eur"))) == [a, d]
    # The raster job's text comes from OCR, run for this query.
    assert ids(jobs(printer, "text=receipt%20777")) == [c]
    assert ids(jobs(printer, "since=%d" % b)) == [c, d, e]
    first_created = jobs(printer, "")[0]["times"]["created"]
    assert ids(jobs(printer, "since=" + urllib.parse.quote(first_created))) == [a, b, c, d, e]
    assert ids(jobs(printer, "since=2000-01-01T00:00:00Z")) == [a, b, c, d, e]
    assert jobs(printer, "since=2999-01-01T00:00:00%2B01:00") == []
    assert ids(jobs(printer, "user=alice&sides=one-sided")) == [d]
    assert jobs(printer, "user=nobody") == []

    for bad in ["state=sleeping", "format=docx", "sides=three-sided", "color-mode=purple", "since=yesterday",
                "nosuchfilter=1", "user=", "user=a&user=b"]:
        refused = printer.checked("GET", "/api/v1/jobs?" + bad, 400)
        assert refused["error"], bad


def test_wait_counts_only_the_matching_jobs(printer, documents):
    checked = printer.checked
    first = printer.print_job(documents["report"], name="before", user="bob")
    checked("GET", "/api/v1/wait?jobs=1&timeout=%d" % WAIT_LIMIT, 200)

    def later():
        time.sleep(0.5)
        printer.print_job(documents["report"], name="noise", user="bob")
        printer.print_job(documents["pdf"], name="wanted", user="carol")

    thread = threading.Thread(target=later)
    thread.start()
    ended = checked("GET", "/api/v1/wait?count=1&user=carol&since=%d&timeout=%d" % (first, WAIT_LIMIT), 200)
    thread.join()
    assert [job["job-name"] for job in ended] == ["wanted"]
    # The old parameter still works, and with the text filter a wait reads the ended jobs' text.
    assert len(checked("GET", "/api/v1/wait?jobs=3&timeout=%d" % WAIT_LIMIT, 200)) == 3
    assert ids(checked("GET", "/api/v1/wait?count=1&text=Jane%20Smith&timeout=5", 200)) == [
        first + 2]
    timed_out = checked("GET", "/api/v1/wait?count=2&user=carol&timeout=0.3", 408)
    assert [job["job-name"] for job in timed_out["jobs"]] == ["wanted"]
    checked("GET", "/api/v1/wait?count=1&jobs=2", 400)
    checked("GET", "/api/v1/wait?count=1&state=bogus", 400)


def test_a_filtered_reset_forgets_only_the_matching_jobs(printer, documents):
    checked = printer.checked
    kept = printer.print_job(documents["report"], name="keep", user="bob")
    gone = printer.print_job(documents["pdf"], name="drop", user="alice")
    checked("GET", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)
    assert checked("DELETE", "/api/v1/jobs?user=alice", 200) == {"deleted": 1}
    assert ids(jobs(printer, "")) == [kept]
    assert not os.path.exists(os.path.join(printer.output_dir, "jobs", str(gone)))
    assert os.path.exists(os.path.join(printer.output_dir, "jobs", str(kept), "job.json"))
    checked("GET", "/api/v1/jobs/%d" % gone, 404)
    assert checked("DELETE", "/api/v1/jobs?text=nowhere%20to%20be%20found", 200) == {
        "deleted": 0}
    checked("DELETE", "/api/v1/jobs?state=nonsense", 400)
    assert ids(jobs(printer, "")) == [kept]
    assert checked("DELETE", "/api/v1/jobs", 200) == {"deleted": 1}


def test_the_command_line_takes_the_same_filters(printer, documents):
    checked = printer.checked
    a = printer.print_job(documents["pdf"], name="invoice", user="alice", sides="two-sided-short-edge")
    b = printer.print_job(documents["pwg"], name="scan", user="bob", document_format="image/pwg-raster")
    checked("GET", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)

    status, out, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--json", "--user", "alice")
    assert status == 0, err
    assert ids(json.loads(out)) == [a]
    status, out, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--json", "--sides", "two-sided",
                                    "--format", "pdf")
    assert status == 0 and ids(json.loads(out)) == [a], err
    # --text reads the text files, and has the raster side read by OCR first.
    status, out, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--json", "--text", "receipt 777")
    assert status == 0 and ids(json.loads(out)) == [b], err
    # The printer's own variables (credentials, printer name) are no job filters of `vprinter jobs`.
    status, out, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--json",
                                    env={"VPRINTER_USER": "alice:secret", "VPRINTER_NAME": "office"})
    assert status == 0 and ids(json.loads(out)) == [a, b], err
    status, out, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--name", "scan")
    assert status == 0 and "scan" in out and "invoice" not in out, out
    status, _, err = run_vprinter("jobs", "--output-dir", printer.output_dir, "--state", "sleeping")
    assert status == 2 and "state=sleeping" in err

    def later():
        time.sleep(0.5)
        printer.print_job(documents["report"], name="late", user="dave")

    thread = threading.Thread(target=later)
    thread.start()
    status, out, err = run_vprinter("wait", "--url", printer.uri, "--count", "1", "--user", "dave", "--since", str(b),
                                    "--timeout", str(WAIT_LIMIT))
    thread.join()
    assert status == 0, err
    assert [job["job-name"] for job in json.loads(out)] == ["late"]
    status, _, err = run_vprinter("wait", "--url", printer.uri, "--count", "1", "--user", "nobody", "--timeout", "0.5")
    assert status == 1 and "timed out" in err
    status, _, err = run_vprinter("wait", "--url", printer.uri, "--count", "1", "--media", "a4!")
    assert status == 2, err
