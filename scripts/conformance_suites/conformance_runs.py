"""The runs of the conformance suite: each row (a profile, or CUPS's ippeveprinter as a reference) runs its ipptool
suites one after the other, each against a fresh printer, in a copy of the suites of its own; rows run in parallel,
``jobs`` at once. A run's result is what the suite's table shows: the tests that passed, failed and were skipped.

    campaign = Campaign(rows, artifacts.folder(), jobs=2, tls=None)
    campaign.prepare()                        # documents and the PWG raster corpus, made once for every row
    campaign.start()                          # every row in a thread pool
    result = campaign.result("duplex-laser", "ipp-2.0")     # waits for that row
"""
import concurrent.futures
import os
import shutil
import sys
import threading
import traceback

from vprinter import server

from vptest import documents, ipptool, printer, pwg_corpus, reference
from vptest.paths import REPO

# The resolution the printers render at. The suites check the printer's IPP, not its pixels (the render tests do):
# every job still goes the whole way to PNG and record, at the lowest resolution a printer renders at, where at the
# default 150 dpi and the 300 and 600 dpi of the PWG raster corpus the printers would render about 2.4 gigapixels.
RENDER_DPI = 72
# CUPS's ipptool suites (NAME.test), and the seconds ipptool waits for one answer (-T).
SUITES_DIR = os.environ.get("IPPTOOL_TEST_DIR") or "/usr/share/cups/ipptool"
REQUEST_LIMIT = int(os.environ.get("IPPTOOL_TIMEOUT") or 30)
# The longest one suite may run, in seconds, before ipptool is killed: ipp-everywhere, the longest (it prints the
# PWG raster corpus), takes up to about a minute on two loaded cores.
RUN_LIMIT = 900
# The row of CUPS's ippeveprinter.
REFERENCE_ROW = "ippeveprinter"
# How much of ipptool's error line the result column quotes, in characters.
QUOTED_ERROR = 80
# A row's suites: the core ones on every profile, the extended ones (operations rather than capabilities) on
# EXTENDED_PROFILES and the reference.
CORE_SUITES = ("ipp-1.1", "ipp-2.0", "ipp-everywhere")
EXTENDED_SUITES = ("ipp-2.1", "ipp-2.2")
# ipp-2.1 and ipp-2.2 test job and printer operations (hold, release, set-attributes, subscriptions), which every
# profile shares; they run where a profile changes what those operations meet: a plain duplex laser, the profile
# with PWG 5100.11 job features (held password jobs, stored jobs) and the one with a finisher.
EXTENDED_PROFILES = ("duplex-laser", "enterprise-laser", "office-mfp")
# ipptool's options for each --tls mode: TLS from the first byte (ipps://), or HTTP Upgrade on the ipp:// URI.
ENCRYPTION = {"ipps": "-S", "upgrade": "-E"}


class Row:
    """A line of the table: ``profile`` (a name or file; None for the reference), ``base`` (the profile's name, or
    REFERENCE_ROW), ``name`` (``base``, with +MODE under --tls), ``suites``."""

    def __init__(self, profile, suites, tls=None):
        self.profile = profile
        self.base = REFERENCE_ROW if profile is None else os.path.basename(profile).removesuffix(".json")
        self.name = self.base + ("+" + tls if tls else "")
        self.suites = list(suites)


def plan(profiles, suites=None, reference=None, tls=None):
    """The rows of a run: one per profile (names or files), then the reference row when ``reference`` is "also",
    or only it when "only". Each runs ``suites`` when given, else CORE_SUITES plus, on EXTENDED_PROFILES and the
    reference, EXTENDED_SUITES."""
    rows = [] if reference == "only" else [Row(profile, suites or CORE_SUITES, tls) for profile in profiles]
    if reference:
        rows.append(Row(None, suites or CORE_SUITES, tls))
    if not suites:
        for row in rows:
            if row.base in EXTENDED_PROFILES + (REFERENCE_ROW,):
                row.suites += EXTENDED_SUITES
    return rows


class Result:
    """One suite on one row: the counts of ipptool's verdicts, ``status`` ("ok", "FAIL" or "FAIL (why)"), the
    names of the tests that failed, ``log`` (ipptool's output) and ``detail`` (what a failure message quotes)."""

    def __init__(self, row, suite, passed, failed, skipped, status, log=None, failures=(), detail=""):
        self.row, self.suite = row, suite
        self.passed, self.failed, self.skipped = passed, failed, skipped
        self.status = status
        self.log = log
        self.failures = list(failures)
        self.detail = detail
        # The journal entries of ipptool's IPP requests to vprinter, and those with an error-level finding among them
        # (docs/api.md "Findings"): None for the reference row, or when the printer could not be asked.
        self.all_requests = None
        self.client_errors = None

    def describe_client_errors(self):
        """One line per error-level finding: the request's number and operation, the rule, its message."""
        return "\n".join("request %s %s: %s (%s): %s" % (entry["id"], entry.get("ipp", {}).get("operation", "?"),
                                                        finding["rule"], finding["reference"], finding["message"])
                         for entry in self.client_errors or () for finding in entry.get("findings", ())
                         if finding["severity"] == "error")

    def fields(self):
        return [self.row, self.suite, self.passed, self.failed, self.skipped, self.status]

    def describe(self):
        """A failure message: the status, counts, failed tests and log on its first line (the test's name gives
        row and suite), then the detail."""
        failed = ": %s" % ", ".join(self.failures) if self.failures else ""
        log = "; log %s" % shown_path(self.log) if self.log else ""
        return "%s (pass %d, fail %d, skip %d)%s%s\n%s" % (
            self.status, self.passed, self.failed, self.skipped, failed, log, self.detail)


def shown_path(path):
    """A path as a message shows it: relative to the checkout when inside it."""
    path = os.path.abspath(path)
    return os.path.relpath(path, REPO) if path.startswith(os.fspath(REPO) + os.sep) else path


def judge(row, suite, report, alive, log):
    """The Result of one ipptool run. A failed test fails the suite; so does a run with no result, one ipptool
    ended with an error status or was killed, an "ipptool: " error line (ipptool stops a suite at a file it cannot
    read and still exits 0), and a printer that died during the run."""
    counts = {verdict: 0 for verdict in ("PASS", "FAIL", "SKIP")}
    for _, verdict in report.verdicts:
        counts[verdict] += 1
    passed, failed, skipped = counts["PASS"], counts["FAIL"], counts["SKIP"]
    errors = [line for line in report.output.splitlines() if line.startswith("ipptool: ")]
    status = "ok"
    if failed > 0:
        status = "FAIL"
    elif report.timed_out:
        status, failed = "FAIL (ipptool killed after %d s)" % report.limit, 1
    elif passed + skipped == 0:
        status, failed = "FAIL (no results, ipptool exit %d)" % report.returncode, 1
    elif report.returncode != 0:
        status, failed = "FAIL (ipptool exit %d)" % report.returncode, 1
    elif errors:
        status, failed = "FAIL (%s)" % errors[0][:QUOTED_ERROR], failed + 1
    if not alive:
        status, failed = "FAIL (printer died)", failed + 1
    return Result(row, suite, passed, failed, skipped, status, log, report.failed,
                  explained(report) if status != "ok" else "")


def explained(report):
    """What a failure message quotes of a run: the command and how it ended, then each failed test's lines (what
    it expected and got; ipptool.QUOTED characters at most), or the output's end when no test failed."""
    blocks, block = [], None
    for line in report.output.splitlines():
        match = ipptool.VERDICT.match(line)
        if match:
            block = [line] if match["verdict"] == "FAIL" else None
            if block:
                blocks.append(block)
        elif block is not None and line.startswith(" " * 8):
            block.append(line)
        else:
            block = None
    described = report.describe()
    if not blocks:
        return described
    quoted = "\n".join(line for block in blocks for line in block)[:ipptool.QUOTED]
    return "%s\n%s" % (described.splitlines()[0], quoted)


class Campaign:
    """Every row's suites against fresh printers; results under ``folder`` (artifacts/conformance):
    ``documents/``, ``<row>/suites/`` (the row's copy of the suites), ``<row>/<suite>/`` (``<suite>.log``, the
    printer's log and output folder), ``results.tsv``."""

    def __init__(self, rows, folder, jobs, tls=None):
        self.rows = rows
        self.folder = os.fspath(folder)
        self.jobs = jobs
        self.tls = tls
        self.documents = os.path.join(self.folder, "documents")
        # The PWG raster corpus the rows' suites print, and the one this run made (a pwg_corpus.Corpus), if it did.
        self.corpus_folder = None
        self.corpus = None
        self.pool = None
        self.futures = {}
        self.running = set()
        self.lock = threading.Lock()
        self.stopping = False

    def prepare(self):
        """Makes the documents the suites print, and the PWG raster corpus for what the rows' profiles list (cached
        in the artifacts' pwg-corpus/), unless VP_PWG_CORPUS names one."""
        for stale in ("suites", "documents"):
            shutil.rmtree(os.path.join(self.folder, stale), ignore_errors=True)
        documents.ipptool_documents(self.documents)
        given = os.environ.get("VP_PWG_CORPUS")
        if given:
            self.corpus_folder = given if os.path.isdir(given) else None
            return
        resolutions, types = pwg_corpus.needs(printer.profile_attributes(row.profile) for row in self.rows
                                              if row.profile is not None)
        if resolutions and types:
            cache = os.path.join(os.path.dirname(self.folder), "pwg-corpus")
            self.corpus = pwg_corpus.make(cache, os.path.join(SUITES_DIR, "ipp-everywhere.test"), resolutions, types)
            self.corpus_folder = self.corpus.folder
            progress(self.corpus.report)

    def start(self):
        """Starts every row in a pool of ``jobs`` threads."""
        self.pool = concurrent.futures.ThreadPoolExecutor(self.jobs, thread_name_prefix="conformance")
        for row in self.rows:
            self.futures[row.name] = self.pool.submit(self.run_row, row)

    def result(self, row, suite):
        """The Result of ``suite`` on ``row`` (a row name), once the row has run."""
        results = self.futures[row].result()
        if suite not in results:
            raise LookupError("%s %s did not run: the run was stopped" % (row, suite))
        return results[suite]

    def results(self):
        """The Results of the rows that ended, in the table's order."""
        done = [future.result() for future in self.futures.values() if future.done() and not future.cancelled()]
        return [result for results in done for result in results.values()]

    def stop(self):
        """Stops the printers still running and the rows not started; waits for the pool."""
        self.stopping = True
        with self.lock:
            running = list(self.running)
        for process in running:
            process.terminate()
        if self.pool:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def run_row(self, row):
        """Runs the row's suites, one after the other, in its own copy of the suites; {suite: Result}. An error
        is the failed Result of its suite, and the others still run."""
        work = os.path.join(self.folder, row.name, "suites")
        shutil.rmtree(work, ignore_errors=True)
        results = {}
        for suite in row.suites:
            if self.stopping:
                break
            try:
                if not os.path.isdir(work):
                    self.prepare_work_folder(work)
                results[suite] = self.run_suite(row, suite, work)
            except Exception as error:
                results[suite] = Result(row.name, suite, 0, 1, 0, "FAIL (%s)" % type(error).__name__,
                                        detail=traceback.format_exc())
        return results

    def prepare_work_folder(self, work):
        """Copies of the suites (they INCLUDE each other and open documents relative to their own folder), links to
        the documents, and to the PWG raster corpus when there is one."""
        os.makedirs(work)
        for name in sorted(os.listdir(SUITES_DIR)):
            if name.endswith(".test"):
                shutil.copy(os.path.join(SUITES_DIR, name), work)
        for name in sorted(os.listdir(self.documents)):
            os.symlink(os.path.join(self.documents, name), os.path.join(work, name))
        if self.corpus_folder:
            pwg_corpus.link(self.corpus_folder, work)

    def run_suite(self, row, suite, work):
        """Runs one suite against a fresh printer of the row in ``<row>/<suite>/``; its Result."""
        folder = os.path.join(self.folder, row.name, suite)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        try:
            running = self.start_printer(row, folder)
        except (AssertionError, OSError, server.StartError) as error:
            return Result(row.name, suite, 0, 1, 0, "FAIL (did not start)", detail=str(error))
        progress("conformance: %s %s against %s" % (row.profile or REFERENCE_ROW, suite, running.uri))
        log = os.path.join(folder, suite + ".log")
        try:
            uri, options = self.encrypted(running.uri)
            report = ipptool.run(uri, os.path.join(work, suite + ".test"), document=suite_document(running.uri, work),
                                 request_limit=REQUEST_LIMIT, limit=RUN_LIMIT, log=log, options=["-I", *options])
            alive = running.process.poll() is None
            journal = journal_of(running) if alive and row.profile is not None else None
        finally:
            unclean = self.stop_printer(running)
        result = judge(row.name, suite, report, alive, log)
        if journal is not None:
            result.all_requests, result.client_errors = journal
        if unclean and alive:
            result.status, result.failed = "FAIL (printer did not stop cleanly)", result.failed + 1
        result.detail += unclean
        return result

    def start_printer(self, row, folder):
        """A fresh vprinter of the row's profile (with --tls under a TLS mode) on a free port without DNS-SD, or
        the reference printer; its log and output in ``folder``."""
        if row.profile is None:
            running = reference.start(os.path.join(folder, "spool"), os.path.join(folder, "ippeveprinter.log"))
        else:
            running = printer.start("--render-dpi", str(RENDER_DPI), *(["--tls"] if self.tls else []),
                                    profile=row.profile, work_dir=folder)
        with self.lock:
            self.running.add(running.process)
        return running

    def stop_printer(self, running):
        """Stops a printer; returns why it did not stop cleanly, or ""."""
        with self.lock:
            self.running.discard(running.process)
        try:
            running.stop()
        except server.VPrinterError as error:
            return "\n%s" % error
        return ""

    def encrypted(self, uri):
        """The URI ipptool is given and its TLS options: ipps:// with -S, the ipp:// URI with -E (HTTP Upgrade)."""
        if self.tls == "upgrade" and uri.startswith("ipps://"):
            uri = "ipp://" + uri[len("ipps://"):]
        return uri, [ENCRYPTION[self.tls]] if self.tls else []

    def write_results(self, results):
        """results.tsv: row, suite, pass, fail, skip, result; one line a Result."""
        with open(os.path.join(self.folder, "results.tsv"), "w") as file:
            for result in results:
                file.write("\t".join(map(str, result.fields())) + "\n")


def journal_of(running):
    """The journal entries of the IPP requests the printer received, and those with an error-level finding (None
    when the journal cannot be read)."""
    try:
        requests = running.requests(kind="ipp")
    except (OSError, server.VPrinterError):
        return None
    return requests, [entry for entry in requests
                      if any(finding["severity"] == "error" for finding in entry.get("findings", ()))]


def suite_document(uri, work):
    """The document the suites print ($filename): the letter PDF, or for a printer that takes no PDF (a Mopria
    PCLm or AirPrint raster printer) the color JPEG, which every IPP Everywhere printer takes."""
    report = ipptool.run(uri, os.path.join(work, "get-printer-attributes.test"), options=["-v"])
    formats = [line for line in report.output.splitlines() if line.lstrip().startswith("document-format-supported ")]
    return os.path.join(work, "document-letter.pdf" if any("application/pdf" in line for line in formats)
                        else "color.jpg")


def progress(line):
    """A line on stderr as the runs go (the stage runs pytest with -s, so that it reaches the log at once); one
    write, so that the lines of rows running at once do not mix."""
    if line:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
