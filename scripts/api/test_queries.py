"""Job queries. GET /api/v1/jobs filters, GET /api/v1/wait with the same filters and count=N,
DELETE /api/v1/jobs with filters, and the same filters as options of `vprinter jobs` and `vprinter wait`."""
import json
import os
import threading
import time
import urllib.parse

import pytest
from conftest import WAIT_LIMIT, Printer, call, checked
from printed import make_pdf, make_pwg, print_job, read, vprinter


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("query-documents"))
    return {
        "pdf": read(make_pdf(folder, "invoice")),
        "report": read(make_pdf(folder, "report", pages=[["Quarterly report"], ["Second page of the report"]])),
        "pwg": read(make_pwg(folder, "scan", dpi=150, pages=[["Scanned receipt 777"]])),
    }


@pytest.fixture
def two_printers(folder):
    """A monochrome duplex laser and a color inkjet in one process (paths /ipp/print/<name>)."""
    printer = Printer(folder, "--profile", "duplex-laser", "--profile", "color-inkjet")
    uris = [printer.uri] + [printer.process.stdout.readline().strip()]
    yield printer, uris
    printer.stop()


def ids(jobs):
    return [job["job-id"] for job in jobs]


def jobs(base, query):
    return checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?" + query, 200)


def test_every_filter_selects_the_jobs_it_names(two_printers, documents):
    printer, (laser, inkjet) = two_printers
    base = printer.base
    a = print_job(laser, documents["pdf"], name="invoice 42", user="alice", sides="two-sided-long-edge",
                  media="iso_a4_210x297mm")
    b = print_job(laser, documents["report"], name="report", user="bob")
    c = print_job(inkjet, documents["pwg"], "image/pwg-raster", name="scan", user="carol")
    d = print_job(inkjet, documents["pdf"], name="gray invoice", user="alice", print_color_mode="monochrome")
    e = print_job(laser, b"\x00not a document" * 8, "application/octet-stream", name="garbage", user="bob")
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=5&timeout=%d" % WAIT_LIMIT, 200)
    names = {p["printer-name"]: p for p in checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)}
    inkjet_name = next(name for name in names if "inkjet" in name)

    assert ids(jobs(base, "user=alice")) == [a, d]
    assert ids(jobs(base, "name=report")) == [b]
    assert ids(jobs(base, "printer=" + urllib.parse.quote(inkjet_name))) == [c, d]
    assert ids(jobs(base, "state=aborted")) == [e]
    assert ids(jobs(base, "state=completed,aborted")) == [a, b, c, d, e]
    assert ids(jobs(base, "format=pwg")) == [c]
    assert ids(jobs(base, "format=application/pdf")) == [a, b, d]
    assert ids(jobs(base, "media=iso_a4_210x297mm")) == [a]
    assert ids(jobs(base, "media=a4")) == [a]
    assert ids(jobs(base, "media=na_letter_8.5x11in&user=bob")) == [b, e]
    assert ids(jobs(base, "sides=two-sided-long-edge")) == [a]
    assert ids(jobs(base, "sides=two-sided")) == [a]
    assert ids(jobs(base, "color-mode=color")) == [c]
    assert ids(jobs(base, "color-mode=monochrome&printer=" + urllib.parse.quote(inkjet_name))) == [d]
    assert ids(jobs(base, "text=" + urllib.parse.quote("invoice 42 for JANE"))) == [a, d]
    assert ids(jobs(base, "text=" + urllib.parse.quote("total 99.00   eur"))) == [a, d]
    # The raster job's text comes from OCR, run for this query.
    assert ids(jobs(base, "text=receipt%20777")) == [c]
    assert ids(jobs(base, "since=%d" % b)) == [c, d, e]
    first_created = jobs(base, "")[0]["times"]["created"]
    assert ids(jobs(base, "since=" + urllib.parse.quote(first_created))) == [a, b, c, d, e]
    assert ids(jobs(base, "since=2000-01-01T00:00:00Z")) == [a, b, c, d, e]
    assert jobs(base, "since=2999-01-01T00:00:00%2B01:00") == []
    assert ids(jobs(base, "user=alice&sides=one-sided")) == [d]
    assert jobs(base, "user=nobody") == []

    for bad in ["state=sleeping", "format=docx", "sides=three-sided", "color-mode=purple", "since=yesterday",
                "nosuchfilter=1", "user=", "user=a&user=b"]:
        refused = checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?" + bad, 400)
        assert refused["error"], bad


def test_wait_counts_only_the_matching_jobs(printer, documents):
    base = printer.base
    first = print_job(printer.uri, documents["report"], name="before", user="bob")
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=1&timeout=%d" % WAIT_LIMIT, 200)

    def later():
        time.sleep(0.5)
        print_job(printer.uri, documents["report"], name="noise", user="bob")
        print_job(printer.uri, documents["pdf"], name="wanted", user="carol")

    thread = threading.Thread(target=later)
    thread.start()
    ended = checked("GET", base, "/api/v1/wait",
                    "/api/v1/wait?count=1&user=carol&since=%d&timeout=%d" % (first, WAIT_LIMIT), 200)
    thread.join()
    assert [job["job-name"] for job in ended] == ["wanted"]
    # The old parameter still works, and with the text filter a wait reads the ended jobs' text.
    assert len(checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=3&timeout=%d" % WAIT_LIMIT, 200)) == 3
    assert ids(checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=1&text=Jane%20Smith&timeout=5", 200)) == [
        first + 2]
    timed_out = checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=2&user=carol&timeout=0.3", 408)
    assert [job["job-name"] for job in timed_out["jobs"]] == ["wanted"]
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=1&jobs=2", 400)
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=1&state=bogus", 400)


def test_a_filtered_reset_forgets_only_the_matching_jobs(printer, documents):
    base = printer.base
    kept = print_job(printer.uri, documents["report"], name="keep", user="bob")
    gone = print_job(printer.uri, documents["pdf"], name="drop", user="alice")
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)
    assert checked("DELETE", base, "/api/v1/jobs", "/api/v1/jobs?user=alice", 200) == {"deleted": 1}
    assert ids(jobs(base, "")) == [kept]
    assert not os.path.exists(os.path.join(printer.output, "jobs", str(gone)))
    assert os.path.exists(os.path.join(printer.output, "jobs", str(kept), "job.json"))
    checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/%d" % gone, 404)
    assert checked("DELETE", base, "/api/v1/jobs", "/api/v1/jobs?text=nowhere%20to%20be%20found", 200) == {
        "deleted": 0}
    checked("DELETE", base, "/api/v1/jobs", "/api/v1/jobs?state=nonsense", 400)
    assert ids(jobs(base, "")) == [kept]
    assert checked("DELETE", base, "/api/v1/jobs", "/api/v1/jobs", 200) == {"deleted": 1}


def test_the_command_line_takes_the_same_filters(printer, documents):
    base = printer.base
    a = print_job(printer.uri, documents["pdf"], name="invoice", user="alice", sides="two-sided-short-edge")
    b = print_job(printer.uri, documents["pwg"], "image/pwg-raster", name="scan", user="bob")
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)

    status, out, err = vprinter("jobs", "--output-dir", printer.output, "--json", "--user", "alice")
    assert status == 0, err
    assert ids(json.loads(out)) == [a]
    status, out, err = vprinter("jobs", "--output-dir", printer.output, "--json", "--sides", "two-sided",
                                "--format", "pdf")
    assert status == 0 and ids(json.loads(out)) == [a], err
    # --text reads the text files, and has the raster side read by OCR first.
    status, out, err = vprinter("jobs", "--output-dir", printer.output, "--json", "--text", "receipt 777")
    assert status == 0 and ids(json.loads(out)) == [b], err
    # The printer's own variables (credentials, printer name) are no job filters of `vprinter jobs`.
    status, out, err = vprinter("jobs", "--output-dir", printer.output, "--json",
                                environment={"VPRINTER_USER": "alice:secret", "VPRINTER_NAME": "office"})
    assert status == 0 and ids(json.loads(out)) == [a, b], err
    status, out, err = vprinter("jobs", "--output-dir", printer.output, "--name", "scan")
    assert status == 0 and "scan" in out and "invoice" not in out, out
    status, _, err = vprinter("jobs", "--output-dir", printer.output, "--state", "sleeping")
    assert status == 2 and "state=sleeping" in err

    def later():
        time.sleep(0.5)
        print_job(printer.uri, documents["report"], name="late", user="dave")

    thread = threading.Thread(target=later)
    thread.start()
    status, out, err = vprinter("wait", "--url", printer.uri, "--count", "1", "--user", "dave", "--since", str(b),
                                "--timeout", str(WAIT_LIMIT))
    thread.join()
    assert status == 0, err
    assert [job["job-name"] for job in json.loads(out)] == ["late"]
    status, _, err = vprinter("wait", "--url", printer.uri, "--count", "1", "--user", "nobody", "--timeout", "0.5")
    assert status == 1 and "timed out" in err
    status, _, err = vprinter("wait", "--url", printer.uri, "--count", "1", "--media", "a4!")
    assert status == 2, err
