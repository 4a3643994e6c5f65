"""The runs of the conformance suite: each row (a profile, or CUPS's ippeveprinter as a reference) runs its ipptool
suites one after the other, each against a fresh printer, in a copy of the suites of its own; rows run in parallel,
``jobs`` at once. A run's result is what the suite's table shows: the tests that passed, failed and were skipped.

    campaign = Campaign(rows, artifacts.folder(), jobs=2, tls=None)
    campaign.prepare()                        # documents and the PWG raster corpus, made once for every row
    campaign.start()                          # every row in a thread pool
    result = campaign.result("duplex-laser", "ipp-2.0")     # waits for that row
"""
import concurrent.futures
import functools
import http.server
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
# ippsample's ipptool suites (Debian's ippsample-data, unpacked by scripts/setup into .cache/ippsample-data, or
# IPPSAMPLE_TEST_DIR): the IPP extensions a profile may claim, run with --ippsample on EXTENDED_PROFILES.
IPPSAMPLE_DIR = os.environ.get("IPPSAMPLE_TEST_DIR") or os.fspath(
    REPO / ".cache" / "ippsample-data" / "usr" / "share" / "cups" / "ipptool")
IPPSAMPLE_SUITES = ("pwg5100.5", "pwg5100.6", "pwg5100.7", "pwg5100.9", "pwg5100.11", "rfc3995-3996", "rfc3998")
# The tests of ippsample's suites that fail on vprinter, each with why (docs/conformance.md): "suite defect" where
# the test asks what its specification forbids or what no conforming printer gives, "ipptool" where CUPS 2.4's
# ipptool cannot check what the test says, "gap" where vprinter lacks what the test checks (issue 23 tracks them).
# A failed test listed here does not fail its suite; one not listed does. Names as ipptool prints them (cut at 68
# characters).
EXPLAINED = {
    ("rfc3995-3996", "Get-Notifications conformance check (including event wait mode)"):
        "suite defect: wants notify-get-interval with successful-ok-events-complete, which RFC 3996 section 5.2 "
        "leaves out (no event will follow)",
    ("rfc3998", "Get-Printer-Attributes Operation to check paused value of printer-st"):
        "suite defect: wants printer-state-reasons to hold both paused and moving-to-paused, which RFC 8011 "
        "section 5.4.12 makes exclusive ('paused' replaces 'moving-to-paused')",
    ("rfc3998", "Get-Job-Attributes Until Job Complete"):
        "suite defect: waits for a job to complete on a printer the suite left paused (its Resume-Printer is "
        "skipped unless OPTIONAL_RESUME_PRINTER is defined)",
    ("rfc3998", "RFC 3998 section 4.1: Reprocess-Job Operation"):
        "suite defect: reprocesses the job the paused printer never printed; RFC 3998 section 4.1 allows it for "
        "ended jobs only",
    ("rfc3998", "Get-Job-Attributes -Check if job is suspended"):
        "suite defect: follows from the job above, still pending on the paused printer",
    ("pwg5100.6", "Get job info with get-job-attributes"):
        "ipptool: IN-GROUP on a member path (overrides/pages) never matches in CUPS 2.4's ipptool, whose member "
        "attributes carry no group; the overrides are returned (checked without IN-GROUP)",
    ("pwg5100.5", "testing document-attributes in send-uri operation"):
        "suite defect: Send-URI to a job whose Send-Document said last-document true, which RFC 8011 section 4.3.1 "
        "refuses (client-error-not-possible); the suite notes the same ('Multiple document jobs are not supported')",
    ("pwg5100.7", "Print-job operation to pass the media-"):
        "suite defect: sends media-col members with values the profile does not list (margins of 0 on printers "
        "without borderless, media-size 0x0, media-source-feed-*) and wants successful-ok, where RFC 8011 "
        "section 4.1.7 has the printer say which it ignored",
    ("pwg5100.7", "Test media"):
        "suite defect: follows from the Print-Job above (the ignored media-col is not the job's)",
    ("pwg5100.7", "Print using print-content-optimize (photo)"):
        "suite defect: wants job-mandatory-attributes, a client's operation attribute, among printer attributes "
        "in a Print-Job response",
    ("pwg5100.7", "Print using print-content-optimize (text)"):
        "suite defect: prints testfile.txt as text/plain whatever document-format-supported lists (no profile "
        "takes text/plain: client-error-document-format-not-supported)",
    ("pwg5100.7", "Get job attributes"):
        "suite defect: follows from the text/plain Print-Job above, which made no job (the test reads the job "
        "before it; the same name checks the photo and graphics jobs, which pass)",
    ("pwg5100.11", "print-job with proof-print"):
        "suite defect: proof-print media 'letterhead' is not among the profile's media-supported, so it is "
        "reported as ignored (RFC 8011 section 4.1.7)",
    ("pwg5100.6", "Checking media-col override."):
        "suite defect: the override's media-col media-type 'letterhead' is no PWG 5101.1 keyword (that is "
        "'stationery-letterhead') and not among media-type-supported, so it is reported as ignored (RFC 8011 "
        "section 4.1.7)",
    ("pwg5100.11", "Get-Job-Attributes Until Job Complete"):
        "suite defect: follows from the proof-print above (the ignored member is not the job's)",
}
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


# The ippsample suites a profile runs only when it claims their extension: PWG 5100.11 (enterprise job ticket)
# where it lists proof-print-supported and job-storage-supported, PWG 5100.5 (the document object, whose suite
# wants Print-URI and Send-URI too) where it fetches documents (reference-uri-schemes-supported); every other one
# on every profile (each takes page overrides, the job extensions, alerts, subscriptions and the RFC 3998
# administration operations).
CLAIMED_BY = {"pwg5100.11": ("proof-print-supported", "job-storage-supported"),
              "pwg5100.5": ("reference-uri-schemes-supported",)}


def claimed_suites(profile):
    """The IPPSAMPLE_SUITES whose extension ``profile`` (a name or file) claims (CLAIMED_BY), its attributes read
    once."""
    listed = printer.profile_attributes(profile)
    return [suite for suite in IPPSAMPLE_SUITES if all(name in listed for name in CLAIMED_BY.get(suite, ()))]


def plan(profiles, suites=None, reference=None, tls=None, ippsample=False):
    """The rows of a run: one per profile (names or files), then the reference row when ``reference`` is "also",
    or only it when "only". Each runs ``suites`` when given, else IPPSAMPLE_SUITES with ``ippsample``, else
    CORE_SUITES plus, on EXTENDED_PROFILES and the reference, EXTENDED_SUITES."""
    if ippsample and not suites:
        rows = [Row(profile, claimed_suites(profile), tls) for profile in profiles]
        return rows + ([Row(None, IPPSAMPLE_SUITES, tls)] if reference else [])
    rows = [] if reference == "only" else [Row(profile, suites or CORE_SUITES, tls) for profile in profiles]
    if reference:
        rows.append(Row(None, suites or CORE_SUITES, tls))
    if not suites:
        for row in rows:
            if row.base in EXTENDED_PROFILES + (REFERENCE_ROW,):
                row.suites += EXTENDED_SUITES
    return rows


class Result:
    """One suite on one row: the counts of ipptool's verdicts (``failed`` without the ``explained`` ones),
    ``status`` ("ok", "ok (N explained)", "FAIL" or "FAIL (why)"), the names of the tests that failed unexplained,
    ``log`` (ipptool's output) and ``detail`` (what a failure message quotes)."""

    def __init__(self, row, suite, passed, failed, skipped, status, log=None, failures=(), detail="", explained=()):
        self.row, self.suite = row, suite
        self.passed, self.failed, self.skipped = passed, failed, skipped
        self.status = status
        self.log = log
        self.failures = list(failures)
        # The failed tests EXPLAINED lists: (name, why).
        self.explained = list(explained)
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
    explained = [(name, explanation(suite, name)) for name in report.failed if explanation(suite, name)]
    unexplained = [name for name in report.failed if not explanation(suite, name)]
    passed, failed, skipped = counts["PASS"], counts["FAIL"] - len(explained), counts["SKIP"]
    errors = [line for line in report.output.splitlines() if line.startswith("ipptool: ")]
    status = "ok"
    if failed > 0:
        status = "FAIL"
    elif report.timed_out:
        status, failed = "FAIL (ipptool killed after %d s)" % report.limit, 1
    elif passed + skipped == 0:
        status, failed = "FAIL (no results, ipptool exit %d)" % report.returncode, 1
    elif report.returncode != 0 and not (report.returncode == 1 and explained):
        # ipptool exits 1 when a test failed: an explained failure does that too.
        status, failed = "FAIL (ipptool exit %d)" % report.returncode, 1
    elif errors:
        status, failed = "FAIL (%s)" % errors[0][:QUOTED_ERROR], failed + 1
    if not alive:
        status, failed = "FAIL (printer died)", failed + 1
    if status == "ok" and explained:
        status = "ok (%d explained)" % len(explained)
    return Result(row, suite, passed, failed, skipped, status, log, unexplained,
                  explained_output(report) if not status.startswith("ok") else "", explained)


def explanation(suite, name):
    """Why EXPLAINED lets test ``name`` of ``suite`` fail, or None: an entry's name is the test's, or its start."""
    for (listed_suite, listed), why in EXPLAINED.items():
        if listed_suite == suite and name.startswith(listed):
            return why
    return None


def explained_output(report):
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
        # The web server the suites' $document-uri names (Print-URI, Send-URI), on loopback, serving the documents.
        self.web = None

    def prepare(self):
        """Makes the documents the suites print, and the PWG raster corpus for what the rows' profiles list (cached
        in the artifacts' pwg-corpus/), unless VP_PWG_CORPUS names one."""
        for stale in ("suites", "documents"):
            shutil.rmtree(os.path.join(self.folder, stale), ignore_errors=True)
        documents.ipptool_documents(self.documents)
        self.serve_documents()
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

    def serve_documents(self):
        """Serves the documents folder over http on loopback, for the suites' Print-URI and Send-URI."""

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *arguments):
                pass

        self.web = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=self.documents))
        threading.Thread(target=self.web.serve_forever, name="conformance-web", daemon=True).start()

    def document_uri(self, document):
        """The http URI of a document of the documents folder."""
        return "http://127.0.0.1:%d/%s" % (self.web.server_address[1], os.path.basename(document))

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
        if self.web:
            self.web.shutdown()
            self.web.server_close()

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
        for folder in (SUITES_DIR, IPPSAMPLE_DIR):
            if not os.path.isdir(folder):
                continue
            for name in sorted(os.listdir(folder)):
                if name.endswith(".test") and not os.path.exists(os.path.join(work, name)):
                    shutil.copy(os.path.join(folder, name), work)
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
            running = self.start_printer(row, folder, suite)
        except (AssertionError, OSError, server.StartError) as error:
            return Result(row.name, suite, 0, 1, 0, "FAIL (did not start)", detail=str(error))
        progress("conformance: %s %s against %s" % (row.profile or REFERENCE_ROW, suite, running.uri))
        log = os.path.join(folder, suite + ".log")
        try:
            uri, options = self.encrypted(running.uri)
            document = suite_document(running.uri, work)
            report = ipptool.run(uri, os.path.join(work, suite + ".test"), document=document,
                                 variables={"document-uri": self.document_uri(document)},
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

    def start_printer(self, row, folder, suite=None):
        """A fresh vprinter of the row's profile (with --tls under a TLS mode) on a free port without DNS-SD, or
        the reference printer; its log and output in ``folder``. For ippsample's suites it prints at the
        profile's pages per minute (--speed realistic): their tests act on a job they just sent (subscribe to it,
        cancel its document) as on a real printer, where it is still printing."""
        if row.profile is None:
            running = reference.start(os.path.join(folder, "spool"), os.path.join(folder, "ippeveprinter.log"))
        else:
            speed = ["--speed", "realistic"] if suite in IPPSAMPLE_SUITES else []
            # The printer listens on every address, so it fetches from loopback only where it is allowed to
            # (docs/security.md, "What the printer fetches"): the suites' document server.
            fetch = ["--fetch-allow", "127.0.0.1:%d" % self.web.server_address[1]]
            running = printer.start("--render-dpi", str(RENDER_DPI), *(["--tls"] if self.tls else []), *speed,
                                    *fetch, profile=row.profile, work_dir=folder)
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
