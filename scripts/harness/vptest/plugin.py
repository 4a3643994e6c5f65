"""The harness as a pytest plugin (``-p vptest.plugin``): the fixtures that start vprinter and watch Avahi, the
printers' logs in a failing test's report, each failing test's cause in $VP_ARTIFACTS/<suite>/failures.txt, and
the number of job records checked against docs/job-record.schema.json in the summary."""
import os

import pytest
from vprinter import server
# The printers' logs in a failing test's report: the vprinter package's own hook, which reads the processes a test
# started from its item (``_vprinter_processes``, filled by start_printer).
from vprinter.pytest_plugin import pytest_runtest_makereport  # noqa: F401

from . import artifacts, avahi, records
from .printer import start


@pytest.fixture
def start_printer(request):
    """Starts printers for one test: ``start_printer(*arguments, **options)`` as vptest.printer.start does.

    When the test ends every printer it started (restarts included) is stopped, a printer that exited by itself
    or not cleanly fails the test, the job records in their output folders are checked against
    docs/job-record.schema.json, and the work folders the fixture made are removed.
    """
    yield from _printers(request.node.__dict__.setdefault("_vprinter_processes", []))


@pytest.fixture(scope="session")
def start_session_printer():
    """start_printer for printers that the tests of a whole session share (one printer per profile that every
    test talks to): stopped, checked and removed the same way, when the session ends."""
    yield from _printers([])


def _printers(started):
    """Yields a starter that adds the printers it starts to ``started``; then stops them, checks their job
    records, removes the work folders it made, and fails when a printer had exited by itself."""

    def starter(*arguments, **options):
        return start(*arguments, started=started, **options)

    yield starter
    problems = server.stop_all(started)
    try:
        for output_dir in dict.fromkeys(printer.output_dir for printer in started):
            records.check_folder(output_dir)
    finally:
        for printer in started:
            if printer.temporary_work_dir:
                printer.remove_files()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest.fixture
def printer(start_printer):
    """A printer with the defaults (one duplex-laser, no DNS-SD) for this test."""
    return start_printer()


@pytest.fixture
def avahi_browser():
    """An avahi.Browser of ``_ipp._tcp`` on the test's Avahi daemon (DBUS_SYSTEM_BUS_ADDRESS, from
    scripts/lib/services.sh), stopped after the test; the test is skipped when no such daemon answers."""
    if not os.environ.get("DBUS_SYSTEM_BUS_ADDRESS") or not avahi.reachable():
        pytest.skip("no Avahi daemon answers on the test bus (the stage starts one on loopback)")
    browser = avahi.Browser()
    yield browser
    browser.stop()


def pytest_runtest_logreport(report):
    """Each failing test's one-line cause, in failures.txt (the stage prints the first)."""
    if report.failed and os.environ.get("VP_SUITE"):
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message.strip().splitlines()[0] if crash and crash.message.strip() else str(report.longrepr)
        artifacts.record_failure(report.nodeid.split("::")[-1], report.when, message)


def pytest_collectreport(report):
    """A test file that cannot be collected, in failures.txt like a failing test."""
    if report.failed and os.environ.get("VP_SUITE"):
        artifacts.record_failure(report.nodeid, "collect", str(report.longrepr).strip().splitlines()[-1])


def pytest_terminal_summary(terminalreporter):
    if records.CHECKED:
        terminalreporter.write_line("vptest: %d job records checked against docs/job-record.schema.json"
                                    % len(records.CHECKED))
