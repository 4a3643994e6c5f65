"""CUPS's ipptool as a client: one .test file run against a printer URI, and its report read back.

    report = ipptool.run(printer.uri, TESTS / "print-job.test", document="letter.pdf", log="01-print-job.log")
    assert report.passed, report.describe()
    job_id = int(report.first("job-id"))

ipptool runs in the test file's folder (its INCLUDE and FILE lines are relative to it) with ``-t`` (a report:
each test's name and ``[PASS]`` or ``[FAIL]``, a repeat of a REPEAT-NO-MATCH test as ``[0001]``..., then the
attributes it DISPLAYs, one ``name (type) = value`` line each). A run is bounded twice: ``-T`` for each answer,
and a limit for the whole run, after which ipptool is killed and the report says so.
"""
import os
import re
import shutil
import subprocess

# Seconds ipptool waits for one answer (-T).
REQUEST_LIMIT = 20
# The longest one run of a file may take, in seconds (a test that repeats waits up to REPEAT-LIMIT times).
RUN_LIMIT = 300
# A test's verdict at the end of its line, and an attribute a test DISPLAYs.
VERDICT = re.compile(r"^\s+(?P<name>\S.*?)\s+\[(?P<verdict>PASS|FAIL|SKIP)\]$")
DISPLAYED = re.compile(r"^\s+(?P<name>[a-z][a-z0-9-]*) \((?P<syntax>[^)]*)\) = (?P<value>.*)$")
# How much of the output a failure message quotes, in characters.
QUOTED = 3000


class Report:
    """What one ipptool run said: ``command``, ``returncode`` (None when it was killed at its limit),
    ``output`` (stdout and stderr), ``verdicts`` ((test name, PASS, FAIL or SKIP) in order; names as ipptool
    printed them, cut to its column)."""

    def __init__(self, command, returncode, output, limit):
        self.command = command
        self.returncode = returncode
        self.output = output
        self.limit = limit
        self.verdicts = [(match["name"], match["verdict"]) for match in map(VERDICT.match, output.splitlines())
                         if match]

    @property
    def timed_out(self):
        return self.returncode is None

    @property
    def failed(self):
        """The names of the tests that failed."""
        return [name for name, verdict in self.verdicts if verdict == "FAIL"]

    @property
    def passed(self):
        """Whether every test ran and passed: exit status 0, a PASS and no FAIL (ipptool exits 0 on some errors in
        the file itself, reading no test)."""
        return self.returncode == 0 and any(verdict == "PASS" for _, verdict in self.verdicts) and not self.failed

    def displayed(self, name):
        """The values of every line that shows attribute ``name``, in order, each a list (a 1setOf is split at
        its commas)."""
        return [match["value"].split(",") for match in map(DISPLAYED.match, self.output.splitlines())
                if match and match["name"] == name]

    def first(self, name):
        """The first value shown of attribute ``name``; fails naming the run when none was shown."""
        shown = self.displayed(name)
        assert shown, "ipptool showed no %s: %s" % (name, self.describe())
        return shown[0][0]

    def describe(self):
        """One paragraph for a failure message: the command, how it ended, the failed tests, the output's end."""
        ending = ("killed after %s s" % self.limit) if self.timed_out else "exit status %d" % self.returncode
        failed = "; failed: %s" % ", ".join(self.failed) if self.failed else ""
        return "%s (%s%s)\n%s" % (" ".join(self.command), ending, failed, self.output[-QUOTED:])


def run(uri, test_file, document=None, variables=None, request_limit=REQUEST_LIMIT, limit=RUN_LIMIT, log=None,
        options=()):
    """Runs ``ipptool -t -T REQUEST_LIMIT [-f DOCUMENT] [-d NAME=VALUE...] [OPTIONS] URI TEST_FILE`` in the test
    file's folder, at most ``limit`` seconds; returns its Report whatever the outcome. ``log``: a file that gets the
    command and the output."""
    assert shutil.which("ipptool"), "ipptool is missing (scripts/setup installs cups-ipp-utils)"
    command = ["ipptool", "-t", "-T", str(request_limit)]
    if document is not None:
        command += ["-f", os.fspath(document)]
    for name, value in (variables or {}).items():
        command += ["-d", "%s=%s" % (name, value)]
    command += [*options, uri, os.path.basename(os.fspath(test_file))]
    process = subprocess.Popen(command, cwd=os.path.dirname(os.path.abspath(test_file)), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    try:
        output, _ = process.communicate(timeout=limit)
        returncode = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        returncode = None
    report = Report(command, returncode, output, limit)
    if log is not None:
        with open(log, "w") as file:
            file.write("$ %s\n%s" % (" ".join(command), output))
    return report
