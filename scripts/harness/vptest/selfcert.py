"""The PWG's IPP Everywhere Printer Self-Certification 1.1 (istopwg/ippeveselfcert) against a printer, as the PWG
runs it: its own scripts (dnssd-tests.sh, ipp-tests.sh, document-tests.sh), each given the printer's DNS-SD instance
name, finding it with ``ippfind --literal-name`` and running CUPS's ipptool on the URI found; the verdicts are read
from the plists the scripts write.

    tests = selfcert.tests_folder()                       # the PWG's files, read where they are, never copied
    suite = selfcert.Suite.prepare("ipp", tests, work, attributes, rasters)
    result = suite.run(client, "vprinter duplex-laser", trays=printer_trays)

The PWG's files are not part of this project: they are read from the folder ``VP_SELFCERT_DIR`` names, else from
``../shared/reference/ippeveselfcert-1.1/tests`` beside the checkout (its SOURCE.md says where they come from). A
suite runs in a work folder of links to those files, except its .test file, which is written there with each
``GENERATE-FILE { ... }`` block (libcups 3's ipptool; CUPS 2.4's has none) replaced by a ``FILE`` line naming a PWG
raster made with Ghostscript for what the block asks (COLORSPACE, RESOLUTION, NUM-PAGES) from the printer's own
pwg-raster-document-type-supported, pwg-raster-document-resolution-supported and media-default, as libcups 3 makes
it.

The IPP suite's I-20 (media-needed) PAUSEs for an operator to take the paper out, and says "OK to insert media" when
the printer reports media-needed. ipptool pauses only on a terminal (it reads the key from /dev/tty), so the suite
runs on a pseudo-terminal; at the pause ``trays.empty()`` is called and a key sent, at "OK to insert media"
``trays.fill()``. Nothing is skipped with IPP_EVERYWHERE_SERVER.
"""
import collections
import os
import pathlib
import plistlib
import pty
import re
import select
import signal
import subprocess
import threading
import time

from . import documents, pwg_corpus

# Where the PWG's test files are read from, when VP_SELFCERT_DIR does not say: beside the checkout.
DEFAULT_TESTS = pathlib.Path(__file__).resolve().parents[3].parent / "shared/reference/ippeveselfcert-1.1/tests"
# The suites, by the name this runner gives them: the PWG's script and test file, and the plist name's suffix the
# script writes ("NAME IPP Results.plist").
SCRIPTS = {
    "dnssd": ("dnssd-tests.sh", "dnssd-value-tests.test", "DNS-SD Results.plist"),
    "ipp": ("ipp-tests.sh", "ipp-tests.test", "IPP Results.plist"),
    "document": ("document-tests.sh", "document-tests.test", "Document Results.plist"),
}
# The longest a suite may run, in seconds: the PWG's scripts give ipptool -T 120 (IPP) and -T 300 (documents) for one
# answer; a whole suite here takes under a minute (DNS-SD, IPP) or about six (documents at the highest resolution).
RUN_LIMITS = {"dnssd": 240, "ipp": 600, "document": 1500}
# Times ippfind is asked for one second to resolve the printer's _ipp._tcp service before a suite (``resolve``),
# and its _ipps._tcp one (which a printer without TLS has not).
RESOLVE_ATTEMPTS = 10
RESOLVE_ATTEMPTS_TLS = 3
# The operator's prompts of the IPP suite (ipp-tests.test I-20 and I-20.1), as ipptool shows them.
REMOVE_MEDIA = b"Remove media from printer until instructed"
INSERT_MEDIA = b"OK to insert media"
# A GENERATE-FILE block and its keys.
GENERATE_FILE = re.compile(r"^([ \t]*)GENERATE-FILE[ \t]*\{(.*?)\}", re.S | re.M)
GENERATE_KEY = re.compile(r"^\s*([A-Z-]+)\s+(\S+)\s*$", re.M)
# The media a test asks for, by name.
TEST_MEDIA = re.compile(r"^\s*ATTR\s+keyword\s+media\s+\"?([a-z0-9_.-]+)\"?\s*$", re.M)
# The sides a test asks for.
TEST_SIDES = re.compile(r"^\s*ATTR\s+keyword\s+sides\s+\"?([a-z-]+)\"?\s*$", re.M)
# A resolution as `vprinter profiles --show` writes it (300dpi, 600x1200dpi).
RESOLUTION = re.compile(r"^\s*(\d+)(?:x(\d+))?dpi\s*$")
# A PWG 5101.1 self-describing media name's size: ..._WIDTHxHEIGHTmm or in.
MEDIA_SIZE = re.compile(r"_(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|in)$")
# A verdict line of dnssd-tests.sh ("B-1. IPP Browse test: PASS"), for when its plist cannot be read.
SCRIPT_VERDICT = re.compile(r"^(B-[0-9.]+[^:]*): (PASS|FAIL|SKIP)\b", re.M)
# The tests of the PWG's suites that a conforming printer fails, and when: D-2.4, D-2.5, D-3.5 and D-3.6 print on
# Letter or A4 with ipp-attribute-fidelity=true whether or not the printer lists that size, and one that does not
# (a 4x6 photo printer) must refuse them with client-error-attributes-or-values-not-supported (RFC 8011 section
# 5.1.8); istopwg/ippeveselfcert#99, "Document Tests D-2.4 / D-2.5 / D-3.5 / D-3.6 fail if printer doesn't
# support US Letter or A4", open, labelled bug. By the test's number: the media it prints on.
MEDIA_DEFECT = {"D-2.4": "na_letter_8.5x11in", "D-2.5": "iso_a4_210x297mm", "D-3.5": "iso_a4_210x297mm",
                "D-3.6": "na_letter_8.5x11in"}
REFUSED_MEDIA = "client-error-attributes-or-values-not-supported"
# Points in an inch and a millimetre.
POINTS = {"in": 72.0, "mm": 72.0 / 25.4}

# One test's verdict: its name, PASS, FAIL or SKIP, and the errors the plist lists for it.
Outcome = collections.namedtuple("Outcome", "name verdict errors")


class SelfcertError(RuntimeError):
    """A suite that could not be prepared or run (no PWG files, a raster Ghostscript could not make)."""


def tests_folder(given=None):
    """The folder of the PWG's test files: ``given``, else VP_SELFCERT_DIR, else DEFAULT_TESTS; raises
    SelfcertError naming where it looked when the folder lacks them."""
    folder = pathlib.Path(given or os.environ.get("VP_SELFCERT_DIR") or DEFAULT_TESTS)
    missing = [name for script, test, _ in SCRIPTS.values() for name in (script, test)
               if not (folder / name).is_file()]
    if missing:
        raise SelfcertError("the PWG's self-certification tests are not in %s (missing %s): give their folder with "
                            "VP_SELFCERT_DIR or --selfcert-dir" % (folder, ", ".join(missing)))
    return folder


def _resolutions(attributes):
    found = []
    for value in attributes.get("pwg-raster-document-resolution-supported", "").split(","):
        match = RESOLUTION.match(value)
        if match:
            found.append((int(match[1]), int(match[2] or match[1])))
    return sorted(found, key=lambda resolution: resolution[0] * resolution[1])


def _types(attributes):
    return [value.strip() for value in attributes.get("pwg-raster-document-type-supported", "").split(",")
            if value.strip()]


def media_points(name):
    """(width, height) in points of a self-describing media name (iso_a4_210x297mm), or None."""
    match = MEDIA_SIZE.search(name or "")
    if not match:
        return None
    unit = POINTS[match[3]]
    return round(float(match[1]) * unit), round(float(match[2]) * unit)


class Rasters:
    """The PWG rasters GENERATE-FILE blocks stand for, made with Ghostscript into ``folder`` once each (a file per
    type, resolution, pages and size; written beside its name and renamed, so a run cut short leaves none half
    made)."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.lock = threading.Lock()

    def raster(self, kind, resolution, pages, size, sides="one-sided"):
        """The path of a ``pages``-page raster of ``kind`` (black_1, sgray_8, srgb_8, cmyk_8...) at ``resolution``
        ((x, y) dpi) on sheets of ``size`` ((width, height) points), its pages' headers made for ``sides`` (Duplex
        and Tumble, PWG 5102.4 section 4.3.1.15 and 4.3.1.34). Raises SelfcertError."""
        spelling = kind.replace("_", "-")
        if spelling not in pwg_corpus.TYPES:
            raise SelfcertError("GENERATE-FILE: no Ghostscript recipe for COLORSPACE %s" % kind)
        name = "%s-%dx%ddpi-%dx%dpt-%dp-%s.pwg" % (spelling, resolution[0], resolution[1], size[0], size[1], pages,
                                                   sides)
        duplex = ("-dDuplex=true", "-dTumble=%s" % ("true" if sides.endswith("short-edge") else "false")) if (
            sides.startswith("two-sided")) else ()
        path = self.folder / name
        with self.lock:
            if path.is_file() and path.stat().st_size:
                return path
            self.folder.mkdir(parents=True, exist_ok=True)
            program = "".join(documents.PAGE_PROGRAM % ("self-cert page %d of %d" % (page, pages))
                              for page in range(1, pages + 1))
            partial = path.with_suffix(".partial")
            try:
                documents.ghostscript("pwgraster", partial, *pwg_corpus.TYPES[spelling], *duplex,
                                      "-dDEVICEWIDTHPOINTS=%d" % size[0], "-dDEVICEHEIGHTPOINTS=%d" % size[1],
                                      "-dFIXEDMEDIA", "-r%dx%d" % resolution, program=program)
                os.replace(partial, path)
            except (subprocess.SubprocessError, OSError) as error:
                partial.unlink(missing_ok=True)
                raise SelfcertError("GENERATE-FILE: Ghostscript could not make %s: %s" % (name, error)) from error
        return path


def generated_file(block, attributes, rasters, media=None, sides=None):
    """The raster a GENERATE-FILE block's keys ask of a printer with ``attributes``, as libcups 3's ipptool chooses:
    COLORSPACE auto is the printer's best of srgb_8, sgray_8, black_1 (gray first when it prints monochrome by
    default), RESOLUTION min or max its lowest or highest raster resolution, NUM-PAGES 1 unless told, the sheet the
    test's ``media`` (its ``ATTR keyword media`` when a size name) or else the printer's media-default, the pages
    made for the test's ``sides`` or else the printer's sides-default. A COLORSPACE the printer does not list gives an empty file: the test that names it is skipped by
    its SKIP-IF-NOT-DEFINED (CUPS 2.4's ipptool stops the whole suite at a FILE it cannot open)."""
    keys = {match[1]: match[2] for match in GENERATE_KEY.finditer(block)}
    types, resolutions = _types(attributes), _resolutions(attributes)
    kind = keys.get("COLORSPACE", "auto")
    if kind == "auto":
        order = ("srgb_8", "sgray_8", "black_1")
        if attributes.get("print-color-mode-default", "") == "monochrome":
            order = ("sgray_8", "black_1", "srgb_8")
        kind = next((candidate for candidate in order if candidate in types), types[0] if types else "")
    size = media_points(media) or media_points(attributes.get("media-default", ""))
    if kind not in types or not resolutions or size is None:
        placeholder = rasters.folder / "not-listed.pwg"
        rasters.folder.mkdir(parents=True, exist_ok=True)
        placeholder.touch()
        return placeholder
    wanted = keys.get("RESOLUTION", "max")
    resolution = resolutions[0] if wanted == "min" else resolutions[-1]
    if RESOLUTION.match(wanted):
        match = RESOLUTION.match(wanted)
        resolution = (int(match[1]), int(match[2] or match[1]))
    return rasters.raster(kind, resolution, int(keys.get("NUM-PAGES", "1")), size,
                          sides or attributes.get("sides-default") or "one-sided")


def rewritten(text, attributes, rasters):
    """The test file's text with every GENERATE-FILE block made a FILE line."""

    def replaced(match):
        # The media the test asks for, in its block: from its opening brace (a line of its own) to here.
        test = text[max(0, text.rfind("\n{", 0, match.start())):match.start()]
        media, sides = TEST_MEDIA.findall(test), TEST_SIDES.findall(test)
        path = generated_file(match[2], attributes, rasters, media[-1] if media else None,
                              sides[-1] if sides else None)
        return "%sFILE %s" % (match[1], path)

    return GENERATE_FILE.sub(replaced, text)


class Client:
    """Where the suites run: ``prefix`` goes before each command (nsenter into the phone's namespaces; empty on this
    host), ``environment`` is its environment."""

    def __init__(self, prefix=(), environment=None):
        self.prefix = list(prefix)
        self.environment = dict(environment if environment is not None else os.environ)

    def command(self, argv, folder):
        # nsenter leaves a command in the namespace's root folder: the shell moves into the work folder first.
        return [*self.prefix, "sh", "-c", 'cd "$0" && exec "$@"', os.fspath(folder), *argv]


def explanation(outcome, attributes):
    """Why a failed test is the suite's defect on a printer with ``attributes`` (MEDIA_DEFECT), or None."""
    media = MEDIA_DEFECT.get(outcome.name.split(" ", 1)[0])
    listed = [value.strip() for value in attributes.get("media-supported", "").split(",")]
    if media and media not in listed and any(REFUSED_MEDIA in error for error in outcome.errors):
        return ("istopwg/ippeveselfcert#99: the printer lists no %s and refuses it with ipp-attribute-fidelity, "
                "as RFC 8011 section 5.1.8 asks" % media)
    return None


class Result:
    """What one suite said of one printer: ``outcomes`` (Outcome, in order), how ipptool or the script ended
    (``returncode``, None when it was stopped at its limit), ``log`` (the run's terminal output), ``problem`` (why
    it could not be read, or None), ``explained`` ((test name, why) of the failures that are the suite's defect,
    ``explanation``)."""

    def __init__(self, suite, outcomes, returncode, log, problem=None, attributes=None):
        self.suite, self.outcomes, self.returncode, self.log, self.problem = (suite, outcomes, returncode, log,
                                                                             problem)
        self.explained = [(outcome.name, why) for outcome in outcomes if outcome.verdict == "FAIL"
                          for why in [explanation(outcome, attributes or {})] if why]
        # The tests an earlier run of the same suite failed, when this is a second run.
        self.retried = []

    def explain_earlier_passes(self, passed_before, missed):
        """Explains each failure for which ``missed(outcome)`` says the printer was only missed (a discovery the
        client gave up on) and which an earlier run of the same suite passed: ``passed_before`` maps test names to
        the run (1, 2, ...) that passed them."""
        explained = {name for name, _ in self.explained}
        for outcome in self.failures:
            if outcome.name in passed_before and outcome.name not in explained and missed(outcome):
                self.explained.append((outcome.name, "passed in run %d; missed the printer in the last run"
                                       % passed_before[outcome.name]))

    def count(self, verdict):
        return sum(1 for outcome in self.outcomes if outcome.verdict == verdict)

    @property
    def failures(self):
        """The failed tests, but for those ``explained``."""
        explained = {name for name, _ in self.explained}
        return [outcome for outcome in self.outcomes if outcome.verdict == "FAIL" and outcome.name not in explained]

    @property
    def passed(self):
        return self.problem is None and not self.failures and self.count("PASS") > 0

    def describe(self):
        # The first line names the failed tests and the first one's first error: a stage's summary shows one line.
        failed = "; ".join(outcome.name + (": " + outcome.errors[0] if outcome.errors else "")
                           for outcome in self.failures[:1]) + ("; ..." if len(self.failures) > 1 else "")
        lines = ["%s: %d passed, %d failed%s, %d explained, %d skipped%s" % (
            self.suite, self.count("PASS"), len(self.failures), " (%s)" % failed if failed else "",
            len(self.explained), self.count("SKIP"), "" if self.problem is None else " (%s)" % self.problem)]
        lines += ["  explained %s: %s" % explained for explained in self.explained]
        if self.retried:
            lines.append("  run again: the earlier runs missed the printer in %s (nothing wrong on a second look)"
                         % ", ".join(self.retried))
        for outcome in self.failures:
            lines.append("  FAIL %s%s" % (outcome.name, "".join("\n    " + error for error in outcome.errors[:6])))
        return "\n".join(lines)


def read_plist(path):
    """The Outcomes of a plist ipptool or dnssd-tests.sh wrote; raises SelfcertError when it is missing or torn."""
    try:
        with open(path, "rb") as file:
            tests = plistlib.load(file).get("Tests", [])
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        raise SelfcertError("no readable plist %s: %s" % (path, error)) from error
    outcomes = []
    for test in tests:
        verdict = "SKIP" if test.get("Skipped") else ("PASS" if test.get("Successful") else "FAIL")
        errors = [str(error) for error in test.get("Errors", [])]
        outcomes.append(Outcome(str(test.get("Name", "?")), verdict, errors))
    return outcomes


class Suite:
    """One suite prepared in a work folder: ``name`` (dnssd, ipp, document), ``folder``."""

    def __init__(self, name, folder):
        self.name, self.folder = name, pathlib.Path(folder)

    @classmethod
    def prepare(cls, name, tests, folder, attributes, rasters):
        """Links the PWG's files into ``folder`` and writes the suite's .test file there with its GENERATE-FILE
        blocks made FILE lines for a printer with ``attributes`` (`vprinter profiles --show`'s)."""
        folder = pathlib.Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        _, test_file, _ = SCRIPTS[name]
        for source in pathlib.Path(tests).iterdir():
            target = folder / source.name
            if source.name == test_file or target.exists() or not source.is_file():
                continue
            target.symlink_to(source.resolve())
        text = (pathlib.Path(tests) / test_file).read_text()
        (folder / test_file).write_text(rewritten(text, attributes, rasters))
        # dnssd-tests.sh runs the value tests itself; the other suites' scripts are linked as they are.
        return cls(name, folder)

    def run(self, client, target, trays=None, limit=None, attributes=None):
        """Runs the PWG's script for printer ``target`` (its DNS-SD instance name) on ``client``, on a
        pseudo-terminal; ``trays`` (empty(), fill()) answers I-20's prompts; ``attributes`` (the printer's) tell
        the suite's defects (``explanation``). Returns the Result."""
        script, _, suffix = SCRIPTS[self.name]
        plist = self.folder / ("%s %s" % (target, suffix))
        plist.unlink(missing_ok=True)
        limit = limit or RUN_LIMITS[self.name]
        resolved = resolve(client, target)
        returncode, log = _on_terminal(client.command(["sh", script, target], self.folder), client.environment,
                                       limit, trays)
        (self.folder / "run.log").write_bytes(log)
        text = log.decode(errors="replace")
        try:
            outcomes = read_plist(plist)
            problem = None
        except SelfcertError as error:
            # dnssd-tests.sh's plist is torn when a _failN pass appends to it: its lines still say every verdict.
            outcomes = [Outcome(name.strip(), verdict, []) for name, verdict in SCRIPT_VERDICT.findall(text)]
            problem = None if outcomes and self.name == "dnssd" else str(error)
        if not resolved:
            problem = "ippfind did not resolve %r in %d tries before the suite" % (target, RESOLVE_ATTEMPTS)
        if returncode is None:
            problem = "stopped after %d s" % limit
        elif not outcomes and problem is None:
            problem = "no test ran (exit status %d)" % returncode
        return Result(self.name, outcomes, returncode, text, problem, attributes)


def resolve(client, target):
    """Resolves the printer's services (SRV, TXT, address) on ``client`` before a suite, as a phone has them when
    a person opens the print dialog: the PWG's scripts give most of their ippfind calls ippfind's default of one
    second, which a resolver on a loaded machine can miss; asked again here until it answers, the records are then
    in the client's Avahi cache. True when _ipp._tcp (or _ipps._tcp, for a printer of TLS only) resolved."""
    found = {}
    for service, attempts in (("_ipp._tcp", RESOLVE_ATTEMPTS), ("_ipps._tcp", RESOLVE_ATTEMPTS_TLS)):
        for _ in range(attempts):
            # ippfind waits for its whole timeout (-T) even once it found the printer: one second at a time.
            done = subprocess.run(client.command(["ippfind", service, "--literal-name", target, "-T", "1",
                                                  "--txt", "adminurl", "--quiet"], "/"),
                                  env=client.environment, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
            if done.returncode == 0:
                found[service] = True
                break
    return bool(found)


def _on_terminal(argv, environment, limit, trays):
    """Runs ``argv`` with a pseudo-terminal as its controlling terminal and standard streams; answers the operator's
    prompts; returns (exit status or None when stopped at ``limit``, everything it wrote)."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(argv, env=environment, stdin=follower, stdout=follower, stderr=follower,
                                   start_new_session=True, preexec_fn=_take_terminal)
    finally:
        os.close(follower)
    output, answered, deadline = bytearray(), set(), time.monotonic() + limit
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                output += chunk
                if trays is not None and REMOVE_MEDIA in output and REMOVE_MEDIA not in answered:
                    answered.add(REMOVE_MEDIA)
                    trays.empty()
                    os.write(leader, b"\r")
                if trays is not None and INSERT_MEDIA in output and INSERT_MEDIA not in answered:
                    answered.add(INSERT_MEDIA)
                    trays.fill()
            elif process.poll() is not None:
                break
            if time.monotonic() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                return None, bytes(output)
        return process.wait(timeout=30), bytes(output)
    finally:
        os.close(leader)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if trays is not None and REMOVE_MEDIA in answered and INSERT_MEDIA not in answered:
            trays.fill()


def _take_terminal():
    # The child leads a new session (start_new_session); its standard input, the follower, becomes its controlling
    # terminal, where ipptool's PAUSE reads the key.
    import fcntl
    import termios
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
