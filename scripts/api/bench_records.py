#!/usr/bin/env python3
"""Helpers of scripts/bench's `records` benchmark (job records at scale).

Usage: bench_records.py make OUTPUT COUNT         writes COUNT completed job records to OUTPUT/jobs/<id>/job.json,
                                                  in the format of docs/job-record.md (no printing needed)
       bench_records.py list-time BASE RUNS       times GET BASE/api/v1/jobs RUNS times; prints "median_ms count"
       bench_records.py page-time BASE RUNS       times GET BASE/ (the web page's job list, first page) RUNS times;
                                                  prints "median_ms"
       bench_records.py restore-time RUNS -- VPRINTER-COMMAND...
                                                  times a start until the earlier jobs are taken over (the first
                                                  answer of GET /api/v1/jobs?state=processing, which waits for
                                                  them); prints "median_ms"
"""
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid


def record(job_id):
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


def make(output, count):
    for job_id in range(1, count + 1):
        folder = os.path.join(output, "jobs", str(job_id))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "job.json"), "w") as file:
            json.dump(record(job_id), file, indent=2, sort_keys=True)


def list_time(base, runs):
    times, count = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/api/v1/jobs", timeout=300) as response:
            count = len(json.load(response))
        times.append((time.perf_counter() - started) * 1000)
    print("%.2f %d" % (statistics.median(times), count))


def page_time(base, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/", timeout=300) as response:
            response.read()
        times.append((time.perf_counter() - started) * 1000)
    print("%.2f" % statistics.median(times))


def restore_time(runs, command):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            uri = process.stdout.readline().strip()
            base = "http://" + uri[len("ipp://"):].split("/", 1)[0]
            with urllib.request.urlopen(base + "/api/v1/jobs?state=processing", timeout=300) as response:
                response.read()
            times.append((time.perf_counter() - started) * 1000)
        finally:
            process.terminate()
            process.wait(timeout=60)
    print("%.2f" % statistics.median(times))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "list-time":
        list_time(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "page-time":
        page_time(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) > 4 and sys.argv[1] == "restore-time" and sys.argv[3] == "--":
        restore_time(int(sys.argv[2]), sys.argv[4:])
    else:
        sys.exit(__doc__)
