"""The request journal's cost: Get-Printer-Attributes with the journal on (the default) against the same binary with
it off, and the printer's memory after 100,000 journaled requests with its file rotated."""
import json
import pathlib
import statistics
import time
import urllib.request

from . import processes
from .load import attributes_load
from .report import compare

# The journal may cost Get-Printer-Attributes at most a tenth of its rate.
GOAL_JOURNAL_RATIO = 0.9
# Rounds of on and off, alternating, so that the machine's drift touches both; the medians are compared.
JOURNAL_ROUNDS = 5
# Requests journaled for the memory figure, the file's rotation size then, and the goal for the printer's peak RSS.
JOURNAL_REQUESTS = 100_000
JOURNAL_ROTATION = "1M"
GOAL_JOURNAL_MEGABYTES = 100
# The longest the memory figure may take to reach JOURNAL_REQUESTS, in seconds.
JOURNAL_LOAD_LIMIT = 600


def journal(bench):
    rates = {"on": [], "off": []}
    for _ in range(JOURNAL_ROUNDS):
        for which, arguments in (("on", ()), ("off", ("--journal-size", "0"))):
            with bench.vprinter(bench.work / ("journal-" + which), *arguments) as printer:
                rates[which].append(attributes_load(bench, "journal-" + which, printer.uri).rate)
    on, off = statistics.median(rates["on"]), statistics.median(rates["off"])
    ratio, verdict = compare(on, off, GOAL_JOURNAL_RATIO)
    bench.table.add("GPA, journal on vs off", "%.1f/s" % on, "off %.1f/s" % off, ratio,
                    ">= %gx" % GOAL_JOURNAL_RATIO, verdict)
    output = bench.work / "journal-memory"
    with bench.vprinter(output, "--journal-file-size", JOURNAL_ROTATION) as printer:
        deadline, sent = time.monotonic() + JOURNAL_LOAD_LIMIT, 0
        while sent < JOURNAL_REQUESTS and time.monotonic() < deadline:
            sent += attributes_load(bench, "journal-memory", printer.uri).requests
        count = latest_entry(printer, int(sent))
        peak = processes.status_kilobytes(printer.process.pid, "VmHWM") / 1024
        files = sorted(pathlib.Path(output).glob("requests.jsonl*"))
        largest = max((path.stat().st_size for path in files), default=0) / (1 << 20)
    met = count >= JOURNAL_REQUESTS and peak < GOAL_JOURNAL_MEGABYTES and len(files) > 1
    bench.table.add("peak RSS, %d journaled requests" % count, "%.1f MB" % peak, "-", "-",
                    "< %d MB" % GOAL_JOURNAL_MEGABYTES,
                    "%s (%d files, largest %.1f MB)" % ("met" if met else "missed", len(files), largest))


def latest_entry(printer, sent):
    """The number of the journal's latest entry, looked for among the last few of ``sent`` requests."""
    since = max(0, sent - 1000)
    with urllib.request.urlopen(printer.base_url + "/api/v1/requests?since=%d" % since, timeout=60) as answer:
        return max((entry["id"] for entry in json.load(answer)), default=since)
