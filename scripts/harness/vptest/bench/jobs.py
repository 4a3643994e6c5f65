"""Jobs under load: 3-page PDF jobs at 150 dpi sent by 8 clients at once, each with Print-Job and as fast as it is
answered, rendered in full (PNG, facts, text): the printed pages per second once every job completed, none lost,
and the resident memory of the printer and its render workers sampled along the way (flat: the last sample within
GOAL_LOAD_MEMORY_GROWTH of the one after the warm-up). Print-Job is answered once the document is stored, well
before it is printed: when the printer holds as many unended jobs as it keeps (server-error-too-many-jobs) or says
it is busy, a client waits RETRY_DELAY and sends the job again, as a print client does."""
import re
import sys
import threading
import time
import urllib.request

from vprinter import ipp

from . import processes
from .render import make_pdf

LOAD_CLIENTS = 8
LOAD_JOBS = 5000
LOAD_PAGES = 3
LOAD_DPI = 150
GOAL_LOAD_PAGES_PER_SECOND = 40
# The memory after this share of the jobs is the base the last sample is held to.
LOAD_WARMUP_SHARE = 0.2
GOAL_LOAD_MEMORY_GROWTH = 1.10
LOAD_SAMPLES = 10
# Seconds the whole run may take (5,000 jobs at 40 pages/s take about 6 minutes).
LOAD_LIMIT = 3600
# IPP statuses a client answers by sending the job again later, and how much later (seconds).
RETRY_STATUSES = (ipp.SERVER_ERROR_BUSY, ipp.SERVER_ERROR_TOO_MANY_JOBS)
RETRY_DELAY = 0.2
IMPRESSIONS = re.compile(r'^vprinter_impressions_total\{[^}]*\} (\d+)$', re.M)


def impressions(printer):
    """The impressions of completed jobs, from GET /metrics."""
    with urllib.request.urlopen(printer.base_url + "/metrics", timeout=30) as answer:
        return sum(int(count) for count in IMPRESSIONS.findall(answer.read().decode()))


def rss_megabytes(pid):
    """The resident memory of a process and its children (the render workers), in MB."""
    return sum(processes.status_kilobytes(p, "VmRSS") for p in [pid, *processes.children(pid)]) / 1024


def jobs(bench, total=LOAD_JOBS):
    document = make_pdf(bench.work, "load-%d" % LOAD_PAGES, LOAD_PAGES).read_bytes()
    with bench.vprinter(bench.work / "load-output", "--render-dpi", str(LOAD_DPI)) as printer:
        pid = printer.process.pid
        sent, failures, lock = [0], [], threading.Lock()

        def client():
            while True:
                with lock:
                    if sent[0] >= total or failures:
                        return
                    sent[0] += 1
                while True:
                    try:
                        printer.print_file(document, "application/pdf", job_name="load", user="bench", timeout=120)
                        break
                    except ipp.IPPError as error:
                        if error.status not in RETRY_STATUSES:
                            with lock:
                                failures.append(str(error))
                            return
                        time.sleep(RETRY_DELAY)
                    except OSError as error:  # a broken connection: a job lost
                        with lock:
                            failures.append(str(error))
                        return

        started = time.monotonic()
        clients = [threading.Thread(target=client, daemon=True) for _ in range(LOAD_CLIENTS)]
        for thread in clients:
            thread.start()
        expected, samples, done = total * LOAD_PAGES, [], 0
        next_sample = total * LOAD_WARMUP_SHARE
        while time.monotonic() - started < LOAD_LIMIT and not failures:
            done = impressions(printer)
            if done >= next_sample * LOAD_PAGES or done >= expected:
                samples.append((done // LOAD_PAGES, rss_megabytes(pid)))
                next_sample += total * (1 - LOAD_WARMUP_SHARE) / LOAD_SAMPLES
            if done >= expected:
                break
            time.sleep(0.5)
        seconds = time.monotonic() - started
        for thread in clients:
            thread.join(timeout=5)
    rate = done / seconds
    print("load: %d of %d pages in %.1f s (%.1f pages/s), %d failed requests%s; memory (jobs, MB): %s"
          % (done, expected, seconds, rate, len(failures), " (first: %s)" % failures[0] if failures else "",
             ", ".join("%d %.1f" % sample for sample in samples)), file=sys.stderr)
    lost = expected - done
    verdict = "met" if rate >= GOAL_LOAD_PAGES_PER_SECOND and not lost else "missed"
    bench.table.add("%d-page jobs, %d clients, %d jobs" % (LOAD_PAGES, LOAD_CLIENTS, total), "%.1f pages/s" % rate,
                    "-", "-", ">= %d pages/s" % GOAL_LOAD_PAGES_PER_SECOND,
                    verdict if not lost else "missed (%d pages lost)" % lost)
    if len(samples) >= 2:
        growth = samples[-1][1] / samples[0][1]
        bench.table.add("  memory, jobs %d to %d" % (samples[0][0], samples[-1][0]),
                        "%.1f MB" % samples[-1][1], "%.1f MB" % samples[0][1], "%.2fx" % growth,
                        "<= %.2fx" % GOAL_LOAD_MEMORY_GROWTH, "met" if growth <= GOAL_LOAD_MEMORY_GROWTH else "missed")
