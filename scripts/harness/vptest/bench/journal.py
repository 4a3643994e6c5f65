"""The request journal's cost: Get-Printer-Attributes with the journal on (the default) against the same binary with
it off, and (with --baseline) against another build's with its journal on, in the same rounds, the printer's memory after 100,000 journaled requests with its file rotated, and its memory, listing and
verify after requests of a megabyte of attributes, or of 100,000 values, each (the journal's byte bound)."""
import http.client
import json
import pathlib
import statistics
import struct
import time
import urllib.parse
import urllib.request

from vprinter import ipp

from . import processes
from .load import attributes_load
from .report import compare

# The journal may cost Get-Printer-Attributes at most a tenth of its rate.
GOAL_JOURNAL_RATIO = 0.9
# With --baseline, this build's rate with the journal on against the baseline build's, in the same rounds: not slower
# (the medians of two runs of one build differ by a few percent: 0.95 is "not slower" within that).
GOAL_BASELINE_RATIO = 0.95
# Rounds of on and off, alternating, so that the machine's drift touches both; the medians are compared.
JOURNAL_ROUNDS = 5
# Requests journaled for the memory figure, the file's rotation size then, and the goal for the printer's peak RSS.
JOURNAL_REQUESTS = 100_000
JOURNAL_ROTATION = "1M"
GOAL_JOURNAL_MEGABYTES = 100
# The longest the memory figure may take to reach JOURNAL_REQUESTS, in seconds.
JOURNAL_LOAD_LIMIT = 600
# The journal's default byte bound (Journal.defaultByteLimit), in MB, and how far above it the printer's peak RSS
# may go after the bulky loads below; the longest GET /api/v1/requests and a verify over them may take, in seconds.
JOURNAL_BYTE_BOUND_MB = 64
GOAL_BOUND_MARGIN_MB = 100
GOAL_ANSWER_SECONDS = 1.0
# The bulky loads: (what each request holds, how many are sent, its extra operation attributes, encoded). Each
# request also names its serial number, so that no two are the same request (the journal would share one copy).
OCTETS_VALUE = b"A" * 1000
BULKY_LOADS = (
    ("1 MiB of attributes", 10_000,
     ipp.attribute("x-bulk", [ipp.Value(ipp.OCTET_STRING, OCTETS_VALUE)] * 1040)),
    ("100,000 values", 2_000,
     ipp.attribute("x-many", list(range(99_990)))),
)
# The longest one bulky load may take, in seconds.
BULKY_LOAD_LIMIT = 900


def journal(bench):
    rates = {"on": [], "off": [], "baseline": []}
    kinds = [("on", (), None), ("off", ("--journal-size", "0"), None)]
    if bench.baseline:
        kinds.append(("baseline", (), bench.baseline))
    for _ in range(JOURNAL_ROUNDS):
        for which, arguments, binary in kinds:
            with bench.vprinter(bench.work / ("journal-" + which), *arguments, binary=binary) as printer:
                rates[which].append(attributes_load(bench, "journal-" + which, printer.uri).rate)
    on, off = statistics.median(rates["on"]), statistics.median(rates["off"])
    ratio, verdict = compare(on, off, GOAL_JOURNAL_RATIO)
    bench.table.add("GPA, journal on vs off", "%.1f/s" % on, "off %.1f/s" % off, ratio,
                    ">= %gx" % GOAL_JOURNAL_RATIO, verdict)
    if bench.baseline:
        before = statistics.median(rates["baseline"])
        ratio, verdict = compare(on, before, GOAL_BASELINE_RATIO)
        bench.table.add("GPA, journal on vs baseline build's", "%.1f/s" % on, "baseline %.1f/s" % before, ratio,
                        ">= %gx" % GOAL_BASELINE_RATIO, verdict)
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
    for label, count, extra in BULKY_LOADS:
        bulky(bench, label, count, extra)


def bulky(bench, label, count, extra):
    """``count`` Get-Printer-Attributes of ``extra`` attributes each, over one keep-alive connection, to a printer
    journaling in memory only (--journal-file-size 0: the figure is the memory's, not the disk's); then its peak
    RSS against the byte bound, and the time of GET /api/v1/requests (its first page) and of a verify over all."""
    slug = "journal-" + label.split()[0].replace(",", "")
    with bench.vprinter(bench.work / slug, "--journal-file-size", "0") as printer:
        parts = urllib.parse.urlsplit(printer.uri)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        deadline, sent = time.monotonic() + BULKY_LOAD_LIMIT, 0
        while sent < count and time.monotonic() < deadline:
            serial = struct.pack(">BH", ipp.INTEGER, 8) + b"x-serial" + struct.pack(">Hi", 4, sent)
            body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, printer.uri, extra + serial, request_id=sent + 1)
            connection.request("POST", parts.path, body, {"Content-Type": "application/ipp"})
            answer = connection.getresponse()
            answer.read()
            sent += answer.status == 200
        connection.close()
        peak = processes.status_kilobytes(printer.process.pid, "VmHWM") / 1024
        started = time.monotonic()
        with urllib.request.urlopen(printer.base_url + "/api/v1/requests", timeout=60) as answer:
            listed = len(json.load(answer))
        listing = time.monotonic() - started
        verification = json.dumps({"request": {"operation": "Get-Printer-Attributes", "attributes": [
            {"name": "x-serial", "equals": str(count - 1)}]}, "count": 1}).encode()
        started = time.monotonic()
        request = urllib.request.Request(printer.base_url + "/api/v1/requests/verify", verification,
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            passed = json.load(answer).get("pass")
        verifying = time.monotonic() - started
    goal = JOURNAL_BYTE_BOUND_MB + GOAL_BOUND_MARGIN_MB
    met = sent == count and peak < goal
    bench.table.add("peak RSS, %d journaled requests of %s" % (sent, label), "%.1f MB" % peak, "-", "-",
                    "< %d MB" % goal, "met" if met else "missed")
    fast = listing < GOAL_ANSWER_SECONDS and verifying < GOAL_ANSWER_SECONDS and passed
    bench.table.add("GET /api/v1/requests (%d listed), verify, after them" % listed,
                    "%.2f s, %.2f s" % (listing, verifying), "-", "-", "< %g s each" % GOAL_ANSWER_SECONDS,
                    ("met" if fast else "missed") + ("" if passed else " (the verify failed)"))


def latest_entry(printer, sent):
    """The number of the journal's latest entry, looked for among the last few of ``sent`` requests."""
    since = max(0, sent - 1000)
    with urllib.request.urlopen(printer.base_url + "/api/v1/requests?since=%d" % since, timeout=60) as answer:
        return max((entry["id"] for entry in json.load(answer)), default=since)
