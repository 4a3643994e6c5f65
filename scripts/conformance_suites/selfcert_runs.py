"""The PWG's IPP Everywhere self-certification (vptest.selfcert) in the conformance stage: every printing profile on
a LAN of the test's own (vptest.lan), as a phone on Wi-Fi sees it. Each profile gets a fresh vprinter on the LAN's
printer host, with TLS (so that the DNS-SD suite's B-5 tests run) and tracked consumables (so that I-20 can empty
its trays), advertised under a DNS-SD name of its own; the PWG's scripts run on the phone host and find it by that
name. The DNS-SD and IPP suites run on every profile, the document suite on DOCUMENT_PROFILES (it renders at the
profile's highest resolution: minutes a profile), its jobs then checked from the renders
(vptest.selfcert_renders). ``--selfcert-target`` runs the three suites against a printer of the user's instead,
from this host, with a person answering I-20 and checking the hardcopy.

Results under ``folder`` (artifacts/conformance/selfcert): ``<profile>/<suite>/`` (the PWG's files linked, the
rewritten .test file, ``run.log``, the plist), ``<profile>/vprinter.log``, ``<profile>/output/`` (the printer's
output folder, where the document suite ran: its prints), ``rasters/`` (the GENERATE-FILE rasters, made once),
``results.tsv``.
"""
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import urllib.parse

from vptest import ipptool, lan, printer, selfcert, selfcert_renders
from conformance_runs import RENDER_DPI, progress

# What every self-certified vprinter runs with: TLS on its port beside plain IPP (B-5, ipps:// and HTTP Upgrade),
# and trays whose paper runs out (I-20's media-needed).
PRINTER_OPTIONS = ("--tls", "--consumables", "tracked")
# The suites of every profile, in the PWG's order.
SUITES = ("dnssd", "ipp")
# The profiles the document suite runs on in the test command: color-inkjet lists every raster type the PWG's suite
# prints that any profile lists (black_1, sgray_8, srgb_8; none lists cmyk_8), A4 and Letter, PDF, JPEG and
# two-sided, so every document test runs on it (docs/conformance.md).
DOCUMENT_PROFILES = ("color-inkjet",)
# Profiles run at once: a profile's suites mostly wait on mDNS and on the printer (the DNS-SD suite's ippfind
# timeouts), so more run than there are cores.
JOBS = 6
# A level or capacity the printer does not know (docs/api.md, trays).
UNKNOWN_LEVEL = -2
# The source that is no tray: the printer's choice among them (media-source auto).
AUTO_SOURCE = "auto"
# The level a tray is filled to when it was empty before I-20, without a capacity to fill it to.
FILLED_LEVEL = 100
# Runs of the DNS-SD suite at most, while every failure is a missed discovery (found_on_second_look). CUPS 2.4's
# ippfind, with the one-second default timeout most of the PWG's calls use, stops at its first look when no
# service has been reported yet (tools/ippfind.c main loop: "processed == cupsArrayCount(services) &&
# bonjour_timeout <= 1.0", true for zero services; libcups 3's ippfind asks for "processed > 0"), so a test fails
# when the client's Avahi daemon answers later than that look: about one run in ten here, under load.
DNSSD_RUNS = 3
# ippfind --ls's line for a printer that answered Get-Printer-Attributes (CUPS 2.4 ippfind.c list_service).
LISTED = re.compile(r"^ipps?://\S+ (idle|processing|stopped) (accepting-jobs|not-accepting-jobs) \S+$")
# The file of ipptool's that asks every printer attribute (CUPS's get-printer-attributes.test).
ATTRIBUTES_TEST = "/usr/share/cups/ipptool/get-printer-attributes.test"


class Trays:
    """I-20's operator at a vprinter: ``empty()`` sets each tray's (or roll's) level to 0 through the front panel
    API (docs/api.md), ``fill()`` puts back the levels it had (its capacity, or FILLED_LEVEL, where the level was
    not known)."""

    def __init__(self, vprinter):
        self.vprinter = vprinter
        self.emptied = []

    def path(self):
        status, body = self.vprinter.api("/api/v1/printers")
        assert status == 200, "GET /api/v1/printers answered %d: %s" % (status, body)
        summary = json.loads(body)[0]
        return "/api/v1/printers/%s/trays" % urllib.parse.quote(summary["printer-name"]), summary.get("trays", [])

    def set_level(self, path, tray, level):
        status, body = self.vprinter.api(path, json.dumps({"source": tray, "level": level}))
        assert status == 200, "POST %s {source: %s, level: %d} answered %d: %s" % (path, tray, level, status, body)

    def empty(self):
        path, trays = self.path()
        self.emptied = [(tray["name"], tray["level"], tray.get("capacity", UNKNOWN_LEVEL)) for tray in trays
                        if tray["name"] != AUTO_SOURCE]
        assert self.emptied, "the printer has no tray whose paper can run out: %s" % trays
        for name, _, _ in self.emptied:
            self.set_level(path, name, 0)

    def fill(self):
        path, _ = self.path()
        for name, level, capacity in self.emptied:
            self.set_level(path, name, level if level >= 0 else (capacity if capacity > 0 else FILLED_LEVEL))


class Operator:
    """I-20's operator at a real printer: a person, asked on this terminal."""

    def empty(self):
        if not sys.stdin.isatty():
            # Nobody to ask: the suite goes on, and I-20 fails once its 24 looks for media-needed are done.
            progress("selfcert: I-20 asks a person to take the paper out, and no terminal is there to ask (run "
                     "scripts/conformance --selfcert-target ... -- -s on one): I-20 will fail")
            return
        input("selfcert: take the paper out of the printer, then press Enter ")

    def fill(self):
        print("selfcert: put the paper back", file=sys.stderr)


def target_attributes(uri):
    """The attributes of a printer at ``uri`` as {name: value text}, as `vprinter profiles --show` gives a
    profile's (what GENERATE-FILE is made for)."""
    report = ipptool.run(uri, ATTRIBUTES_TEST, options=["-v"])
    assert report.passed, "Get-Printer-Attributes of %s failed: %s" % (uri, report.describe())
    return {match["name"]: match["value"] for match in map(ipptool.DISPLAYED.match, report.output.splitlines())
            if match}


class Campaign:
    """The self-certification of ``profiles`` (and the document suite on ``documents``), ``jobs`` at once, on a
    LAN made at ``start``; or of ``target`` (a printer's URI or DNS-SD name) from this host."""

    def __init__(self, profiles, documents, folder, jobs=JOBS, tests=None, target=None):
        self.profiles, self.documents, self.jobs, self.target = list(profiles), set(documents), jobs, target
        self.folder = pathlib.Path(folder)
        self.tests = selfcert.tests_folder(tests)
        self.rasters = selfcert.Rasters(self.folder / "rasters")
        self.network = None
        self.lan = None
        self.pool = None
        self.futures = {}

    def suites_of(self, profile):
        return (*SUITES, "document") if self.target or profile in self.documents else SUITES

    def start(self):
        for profile in self.profiles:
            shutil.rmtree(self.folder / profile, ignore_errors=True)
        if self.target is None:
            self.network = lan.network()
            self.lan = self.network.__enter__()
        self.pool = concurrent.futures.ThreadPoolExecutor(self.jobs, thread_name_prefix="selfcert")
        # The document runs are the longest: they start first.
        for profile in sorted(self.profiles, key=lambda name: name not in self.documents):
            self.futures[profile] = self.pool.submit(self.run_target if self.target else self.run_profile, profile)

    def result(self, profile, suite):
        """The selfcert.Result of ``suite`` on ``profile`` (``renders`` for the document checks: a list of
        problems), once the profile has run."""
        results = self.futures[profile].result()
        if suite not in results:
            raise LookupError("%s %s did not run: %s" % (profile, suite, results.get("problem", "stopped")))
        return results[suite]

    def results(self):
        """(profile, suite, Result) of the profiles that ended."""
        rows = []
        for profile, future in self.futures.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                rows += [(profile, suite, result) for suite, result in future.result().items()
                         if isinstance(result, selfcert.Result)]
        return rows

    def stop(self):
        """Stops the profiles not started and the printers still running (their suites then end at once, as when
        the stage's time limit ends it), waits for the pool, and takes the LAN down."""
        if self.pool:
            if self.lan and not all(future.done() for future in self.futures.values()):
                self.pool.shutdown(wait=False, cancel_futures=True)
                for running in list(self.lan.printers):
                    running.stop()
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.network:
            network, self.network = self.network, None
            network.__exit__(None, None, None)

    def run_profile(self, profile):
        """A fresh vprinter of ``profile`` on the LAN's printer host and the suites from the phone; {suite:
        Result, "renders": problems}."""
        name = "vprinter selfcert %s" % profile
        attributes = printer.profile_attributes(profile)
        results = {}
        # The DNS-SD and IPP suites check IPP, not pixels: their printers render at CUPS's suites' RENDER_DPI; the
        # document suite's render as shipped, rasters at their own resolution.
        quick = () if "document" in self.suites_of(profile) else ("--render-dpi", str(RENDER_DPI))
        vprinter = self.lan.start_vprinter(*PRINTER_OPTIONS, *quick, name=name, profile=profile)
        try:
            client = selfcert.Client(self.lan.phone.command([]), self.lan.phone.environment())
            for suite in self.suites_of(profile):
                results[suite] = self.run_suite(suite, profile, client, name, attributes, Trays(vprinter))
            if "document" in results:
                results["renders"] = selfcert_renders.problems(vprinter.output_dir, attributes)
        finally:
            vprinter.stop()
            shutil.copyfile(vprinter.log_path, self.folder / profile / "vprinter.log")
            if "document" in results:
                # The prints, for a person to look at as the PWG asks (its TLS key left behind).
                shutil.copytree(vprinter.output_dir, self.folder / profile / "output",
                                ignore=shutil.ignore_patterns("tls"), dirs_exist_ok=True)
        return results

    def run_target(self, target):
        """The suites against a printer of the user's, from this host: the PWG's scripts find it by its DNS-SD
        name (given, or the printer-dns-sd-name of the URI given)."""
        attributes = target_attributes(target) if "://" in target else {}
        name = attributes.get("printer-dns-sd-name", target)
        if not attributes:
            found = ipptool_uri(name)
            attributes = target_attributes(found)
        results = {}
        for suite in self.suites_of(target):
            results[suite] = self.run_suite(suite, target, selfcert.Client(), name, attributes, Operator())
        return results

    def run_suite(self, suite, row, client, name, attributes, trays):
        """One suite on ``client`` for the printer named ``name``, in ``row``'s folder; a suite that cannot be
        prepared or whose operator's step fails is a Result with that problem, and the next suite still runs."""
        try:
            prepared = selfcert.Suite.prepare(suite, self.tests, self.folder / safe(row) / suite, attributes,
                                              self.rasters)
            result = prepared.run(client, name, trays=trays, attributes=attributes)
            missed, passed_before = [], {}
            for attempt in range(1, DNSSD_RUNS):
                if suite != "dnssd" or not result.failures or not all(map(found_on_second_look, result.failures)):
                    break
                # Each failed test's own second look (the script runs ippfind again to list what is wrong) found
                # the printer and nothing wrong: a discovery CUPS 2.4's ippfind gave up on (DNSSD_RUNS). Again,
                # the earlier run kept as run-N.log.
                missed += [outcome.name for outcome in result.failures]
                passed_before.update((outcome.name, attempt) for outcome in result.outcomes
                                     if outcome.verdict == "PASS")
                os.replace(prepared.folder / "run.log", prepared.folder / ("run-%d.log" % attempt))
                result = prepared.run(client, name, trays=trays, attributes=attributes)
                result.retried = missed
            # A test the last run failed only by such a missed discovery, which an earlier run passed: under load
            # each run misses one test or another (about one look in ten here), so each test counts by its runs.
            result.explain_earlier_passes(passed_before, found_on_second_look)
        except (AssertionError, selfcert.SelfcertError, OSError) as error:
            result = selfcert.Result(suite, [], None, "", problem="%s: %s" % (type(error).__name__, error))
        progress("selfcert %s %s" % (row, result.describe()))
        return result

    def write_results(self):
        """results.tsv: profile, suite, pass, fail, explained, skip; one line a suite."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "results.tsv", "w") as file:
            for profile, suite, result in self.results():
                file.write("%s\t%s\t%d\t%d\t%d\t%d\n" % (profile, suite, result.count("PASS"), len(result.failures),
                                                         len(result.explained), result.count("SKIP")))


def found_on_second_look(outcome):
    """Whether a failed DNS-SD test's own second look found nothing wrong: dnssd-tests.sh's _failN pass (B-2, B-4,
    B-5.3, B-5.5) lists no missing or bad key, and its B-3 and B-5.4 list the printer answering (ippfind --ls:
    ``URI STATE accepting-jobs|not-accepting-jobs REASONS``)."""
    return all(LISTED.match(error) for error in outcome.errors)


def ipptool_uri(name):
    """The URI ippfind resolves DNS-SD instance ``name`` to."""
    done = subprocess.run(["ippfind", "--literal-name", name, "-T", "10", "--print"], capture_output=True,
                          text=True, timeout=60)
    uris = done.stdout.split()
    assert uris, "ippfind found no printer named %r (exit status %d)" % (name, done.returncode)
    return uris[0]


def safe(text):
    return "".join(character if character.isalnum() or character in "-." else "_" for character in text)

