"""The records benchmark, job records at scale: GET /api/v1/jobs and the web page's job list with 10,000 recorded
jobs, a start with them on disk, and a start until they are taken over; and write_records, which writes such
records without printing (scripts/web/test_job_list.py uses it too)."""
import json
import os
import statistics
import time
import uuid

from vprinter import Client

from . import processes
from .report import compare
from .startup import median_start_ms

GOAL_JOB_LIST_RATIO = 150
GOAL_RECORDS_STARTUP_RATIO = 5
# The web page's job list with 10,000 jobs, answered by the server, in milliseconds.
GOAL_JOB_PAGE_MS = 500
RECORDS_SMALL = 100
RECORDS_LARGE = 10000
# Every record is kept (the default --max-jobs, 1000, would prune the 10,000 at start).
KEEP_ALL = ("--max-jobs", str(RECORDS_LARGE))
# Seconds one GET of a job list may take.
CALL_LIMIT = 300


def record(job_id):
    """A completed two-sided job's record, as docs/job-record.md describes it."""
    created = "2026-01-01T00:00:00Z"
    return {
        "schema": 1, "printer-name": "vprinter duplex-laser", "job-id": job_id,
        "job-uuid": "urn:uuid:" + str(uuid.UUID(int=job_id)), "job-name": "bench job %d" % job_id,
        "job-originating-user-name": "bench", "job-printer-uri": "ipp://localhost:8631/ipp/print",
        "job-state": "completed", "job-state-reasons": ["job-completed-successfully"],
        "job-state-message": "Job completed.",
        "attributes": {"copies": 1, "sides": "two-sided-long-edge", "media": "na_letter_8.5x11in"},
        "documents": [{"document-number": 1, "document-format": "application/pdf",
                       "document-format-detected": "application/pdf", "compression": "none", "size": 12345,
                       "sha256": "0" * 64, "file": "document-1.pdf", "pages": 2}],
        "impressions": [{"number": n, "file": "page-%04d.png" % n, "sheet": 1, "side": side, "width": 1275,
                         "height": 1650, "dpi": 150, "color": False, "pages": [{"document": 1, "page": n}]}
                        for n, side in ((1, "front"), (2, "back"))],
        "sheets": 1, "copies": 1, "job-impressions": 2, "job-media-sheets": 1, "job-pages": 2,
        "times": {"created": created, "processing": created, "completed": created},
        "history": [{"time": created, "job-state": state, "job-state-reasons": [reason]}
                    for state, reason in (("pending", "job-incoming"), ("processing", "job-printing"),
                                          ("completed", "job-completed-successfully"))],
        "client": {"address": "127.0.0.1", "user-agent": "bench"},
    }


def write_records(output, count):
    """Writes ``count`` completed job records to ``output``/jobs/ID/job.json."""
    for job_id in range(1, count + 1):
        folder = os.path.join(output, "jobs", str(job_id))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "job.json"), "w") as file:
            json.dump(record(job_id), file, indent=2, sort_keys=True)


def command(bench, count):
    """The command line of a printer whose output folder holds ``count`` records, keeping them all."""
    return bench.vprinter_command(bench.work / ("records-%d" % count), *KEEP_ALL)


def timed_gets(bench, count, path):
    """The median milliseconds, over --runs, of GET ``path`` on a printer whose output folder holds ``count``
    records; and the last answer."""
    output = bench.work / ("records-%d" % count)
    if not (output / "jobs").is_dir():
        write_records(output, count)
    times = []
    with bench.vprinter(output, *KEEP_ALL) as printer:
        for _ in range(bench.runs):
            started = time.perf_counter()
            answer = printer.call("GET", path, timeout=CALL_LIMIT)
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), answer


def taken_over(process):
    """Ready: the earlier jobs are taken over (read, tidied, requeued) and listed: GET /api/v1/jobs?state=processing
    waits for them."""
    Client(processes.first_uri(process)).call("GET", "/api/v1/jobs?state=processing", timeout=CALL_LIMIT)


def records(bench):
    small, small_jobs = timed_gets(bench, RECORDS_SMALL, "/api/v1/jobs")
    large, large_jobs = timed_gets(bench, RECORDS_LARGE, "/api/v1/jobs")
    ratio, verdict = compare(large, small, GOAL_JOB_LIST_RATIO, at_most=True)
    bench.table.add("GET /api/v1/jobs, %d vs %d jobs" % (len(large_jobs), len(small_jobs)), "%.2f ms" % large,
                    "%.2f ms" % small, ratio, "<= %gx" % GOAL_JOB_LIST_RATIO, verdict)
    # The web page's first page of the job list with 10,000 jobs, as the server answers it (the browser's full load,
    # thumbnails included, is a figure of web-test's scripts/web/test_job_list.py).
    page = timed_gets(bench, RECORDS_LARGE, "/")[0]
    ratio, verdict = compare(page, GOAL_JOB_PAGE_MS, 1, at_most=True)
    bench.table.add("web page job list, %d jobs" % RECORDS_LARGE, "%.2f ms" % page, "-", ratio,
                    "<= %d ms" % GOAL_JOB_PAGE_MS, verdict)
    (bench.work / "records-0").mkdir()
    empty, full = (median_start_ms(bench, command(bench, count)) for count in (0, RECORDS_LARGE))
    ratio, verdict = compare(full, empty, GOAL_RECORDS_STARTUP_RATIO, at_most=True)
    bench.table.add("start, %d jobs on disk vs none" % RECORDS_LARGE, "%.1f ms" % full, "%.1f ms" % empty, ratio,
                    "<= %gx" % GOAL_RECORDS_STARTUP_RATIO, verdict)
    # Until the earlier jobs are taken over and listed. Reported, with no goal of its own (the goal is on the start
    # to the URI line above): reading 10,000 records costs what it costs beside an empty start of about 10 ms.
    empty, full = (median_start_ms(bench, command(bench, count), taken_over) for count in (0, RECORDS_LARGE))
    bench.table.add("jobs taken over, %d vs none" % RECORDS_LARGE, "%.2f ms" % full, "%.2f ms" % empty,
                    compare(full, empty, GOAL_RECORDS_STARTUP_RATIO, at_most=True)[0], "reported", "-")
