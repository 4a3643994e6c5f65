"""The conformance suite (scripts/conformance): CUPS's ipptool suites against every shipped profile, one test per
profile and suite. The runs happen in a session fixture that starts every row (profile) in a thread pool, ``--jobs``
at once; each test waits for its row and asserts on its suite's result. The table of pass/fail/skip counts per
profile and suite ends the report, and goes to $VP_ARTIFACTS/conformance/results.tsv.

Options (scripts/conformance passes its own on):
  --suites NAME,...     suites (NAME.test in ipptool's folder) run on every profile (default: ipp-1.1, ipp-2.0,
                        ipp-everywhere on every profile, plus ipp-2.1, ipp-2.2 on the extended profiles)
  --profiles NAME,...   profile names or files (default: every shipped profile, `vprinter profiles`)
  --jobs N              rows run at once (default: twice the number of cores)
  --reference           also run the suites against CUPS's ippeveprinter (it needs an Avahi daemon)
  --reference-only      run them against ippeveprinter only
  --tls ipps|upgrade    vprinter with --tls, ipptool with -S (ipps://) or -E (HTTP Upgrade on ipp://)
  --ippsample           ippsample's suites (conformance_runs.IPPSAMPLE_SUITES) instead, on the extended profiles
                        unless --profiles names others; the failures conformance_runs.EXPLAINED lists do not fail
"""
import os
import signal

import pytest

import conformance_runs
from vptest import artifacts, printer

CAMPAIGN = pytest.StashKey()
ROWS = pytest.StashKey()

# Rows run at once for each core: a suite spends most of its time waiting for the printer to take, process and
# report a job, so two rows a core keep the cores busy (on two cores, 4 rows took 135 s of wall time, 2 rows 215 s).
ROWS_PER_CORE = 2


def pytest_addoption(parser):
    parser.addoption("--suites", default="", help="comma-separated suite names run on every profile")
    parser.addoption("--profiles", default="", help="comma-separated profile names or files (default: every one)")
    parser.addoption("--jobs", type=int, default=ROWS_PER_CORE * len(os.sched_getaffinity(0)),
                     help="rows run at once")
    parser.addoption("--reference", action="store_true", help="also run the suites against CUPS's ippeveprinter")
    parser.addoption("--reference-only", action="store_true", help="run the suites against ippeveprinter only")
    parser.addoption("--ippsample", action="store_true",
                     help="run ippsample's suites (on the extended profiles unless --profiles names others)")
    parser.addoption("--tls", choices=sorted(conformance_runs.ENCRYPTION), help="run vprinter with --tls and "
                     "ipptool over TLS: ipps (-S) or upgrade (-E, HTTP Upgrade)")


def pytest_configure(config):
    if config.getoption("--jobs") < 1:
        raise pytest.UsageError("--jobs: at least 1")
    # A stage's time limit ends it with SIGTERM: as an interruption, the session fixture still stops the printers
    # (they run in sessions of their own, which the signal to the process group does not reach).
    signal.signal(signal.SIGTERM, interrupted)


def interrupted(signum, frame):
    raise KeyboardInterrupt("SIGTERM")


def rows(config):
    """The run's rows (conformance_runs.Row), from the options; made once."""
    if ROWS not in config.stash:
        reference = "only" if config.getoption("--reference-only") else (
            "also" if config.getoption("--reference") else None)
        profiles = split(config.getoption("--profiles"))
        ippsample = config.getoption("--ippsample")
        if ippsample and not os.path.isdir(conformance_runs.IPPSAMPLE_DIR):
            raise pytest.UsageError("--ippsample: no suites at %s (scripts/setup unpacks them)" %
                                    conformance_runs.IPPSAMPLE_DIR)
        if not profiles and reference != "only":
            profiles = list(conformance_runs.EXTENDED_PROFILES) if ippsample else printer.profile_names()
        config.stash[ROWS] = conformance_runs.plan(profiles, split(config.getoption("--suites")), reference,
                                                   config.getoption("--tls"), ippsample)
    return config.stash[ROWS]


def split(text):
    return [item for item in text.split(",") if item]


def pytest_generate_tests(metafunc):
    """One test per row and suite, named ROW/SUITE."""
    if {"row", "suite"} <= set(metafunc.fixturenames):
        cases = [(row.name, suite) for row in rows(metafunc.config) for suite in row.suites]
        if not cases:
            raise pytest.UsageError("no profiles to run the suites on")
        metafunc.parametrize(("row", "suite"), cases, ids=["%s/%s" % case for case in cases])


@pytest.fixture(scope="session")
def conformance(request):
    """The Campaign of the rows and suites this session selected, started: a test waits for its row with
    ``conformance.result(row, suite)``."""
    wanted = {}
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "row" in params:
            wanted.setdefault(params["row"], []).append(params["suite"])
    selected = []
    for row in rows(request.config):
        if row.name in wanted:
            row.suites = [suite for suite in row.suites if suite in wanted[row.name]]
            selected.append(row)
    campaign = conformance_runs.Campaign(selected, artifacts.folder(), request.config.getoption("--jobs"),
                                         request.config.getoption("--tls"))
    request.config.stash[CAMPAIGN] = campaign
    try:
        campaign.prepare()
        campaign.start()
        yield campaign
    finally:
        campaign.stop()


def pytest_terminal_summary(terminalreporter, config):
    """The table of counts, then each failed test with its row and suite; results.tsv beside the logs."""
    campaign = config.stash.get(CAMPAIGN, None)
    if campaign is None:
        return
    results = campaign.results()
    if campaign.corpus is not None and not campaign.corpus.complete:
        results.insert(0, conformance_runs.Result("pwg-corpus", "pwg-corpus", 0, 1, 0, "FAIL (not made, see above)"))
    campaign.write_results(results)
    terminalreporter.section("conformance: ipptool suites, pass/fail/skip per profile and suite")
    terminalreporter.write_line("%-24s %-16s %5s %5s %5s  %s" % ("profile", "suite", "pass", "fail", "skip", "result"))
    for result in results:
        terminalreporter.write_line("%-24s %-16s %5d %5d %5d  %s" % tuple(result.fields()))
    for result in results:
        for name in result.failures:
            terminalreporter.write_line("  FAIL %s %s: %s" % (result.row, result.suite, name))
    for result in results:
        for name, why in result.explained:
            terminalreporter.write_line("  explained %s %s: %s: %s" % (result.row, result.suite, name, why))
