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
  --selfcert            the PWG's IPP Everywhere self-certification alone (selfcert_runs; without it, the
                        self-certification runs beside CUPS's suites unless --suites, --ippsample, --tls or a
                        --reference option asks for another run)
  --selfcert-profiles NAME,...   profiles self-certified (default: --profiles, else every printing profile)
  --selfcert-documents NAME,...  profiles the document suite runs on (default: selfcert_runs.DOCUMENT_PROFILES;
                        "all": every self-certified profile)
  --selfcert-dir DIR    the PWG's test files (default: VP_SELFCERT_DIR, else vptest.selfcert.DEFAULT_TESTS)
  --selfcert-target URI|NAME     self-certify a printer of yours instead, from this host: its three suites, a
                        person answering I-20's prompts on this terminal and checking the hardcopy
"""
import os
import signal

import pytest

import conformance_runs
import selfcert_runs
from vptest import artifacts, printer, selfcert

CAMPAIGN = pytest.StashKey()
ROWS = pytest.StashKey()
SELFCERT = pytest.StashKey()
SELFCERT_PROFILES = pytest.StashKey()

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
    parser.addoption("--selfcert", action="store_true", help="the PWG's IPP Everywhere self-certification alone")
    parser.addoption("--selfcert-profiles", default="", help="comma-separated profiles self-certified")
    parser.addoption("--selfcert-documents", default=",".join(selfcert_runs.DOCUMENT_PROFILES),
                     help="comma-separated profiles the document suite runs on, or all")
    parser.addoption("--selfcert-dir", default=None, help="the folder of the PWG's self-certification tests")
    parser.addoption("--selfcert-target", default=None, help="a printer's URI or DNS-SD name to self-certify")


def pytest_configure(config):
    if config.getoption("--jobs") < 1:
        raise pytest.UsageError("--jobs: at least 1")
    # A stage's time limit ends it with SIGTERM: as an interruption, the session fixture still stops the printers
    # (they run in sessions of their own, which the signal to the process group does not reach).
    signal.signal(signal.SIGTERM, interrupted)


def interrupted(signum, frame):
    raise KeyboardInterrupt("SIGTERM")


def selfcert_wanted(config):
    """Whether this run self-certifies: asked for, or the default run of the stage."""
    other = (config.getoption("--suites") or config.getoption("--ippsample") or config.getoption("--tls") or
             config.getoption("--reference") or config.getoption("--reference-only"))
    return bool(config.getoption("--selfcert") or config.getoption("--selfcert-target") or not other)


def selfcert_profiles(config):
    """The self-certified profiles (or the target alone), and those the document suite runs on."""
    if SELFCERT_PROFILES not in config.stash:
        target = config.getoption("--selfcert-target")
        profiles = [target] if target else (split(config.getoption("--selfcert-profiles")) or
                                            split(config.getoption("--profiles")) or printer.profile_names())
        documents = split(config.getoption("--selfcert-documents"))
        config.stash[SELFCERT_PROFILES] = profiles, (profiles if documents == ["all"] else documents)
    return config.stash[SELFCERT_PROFILES]


def pytest_collection_modifyitems(config, items):
    """--selfcert (or --selfcert-target) runs the self-certification alone; another run's options leave it out."""
    only = config.getoption("--selfcert") or config.getoption("--selfcert-target")

    def kept(item):
        certifies = item.module.__name__ == "test_selfcert"
        return certifies if only else (not certifies or selfcert_wanted(config))

    keep = [item for item in items if kept(item)]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


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
    if {"selfcert_profile", "selfcert_suite"} <= set(metafunc.fixturenames):
        profiles, documents = selfcert_profiles(metafunc.config)
        cases = [(profile, suite) for profile in profiles for suite in selfcert_runs.SUITES]
        cases += [(profile, "document") for profile in profiles
                  if profile in documents or metafunc.config.getoption("--selfcert-target")]
        metafunc.parametrize(("selfcert_profile", "selfcert_suite"), cases, ids=["%s/%s" % case for case in cases])
    elif "selfcert_profile" in metafunc.fixturenames:
        profiles, documents = selfcert_profiles(metafunc.config)
        metafunc.parametrize("selfcert_profile", [profile for profile in profiles if profile in documents])
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


@pytest.fixture(scope="session")
def selfcert_campaign(request):
    """The self-certification Campaign (selfcert_runs), started on its LAN: a test waits for its profile with
    ``selfcert_campaign.result(profile, suite)``."""
    profiles, documents = selfcert_profiles(request.config)
    target = request.config.getoption("--selfcert-target")
    try:
        campaign = selfcert_runs.Campaign(profiles if not target else [target], documents,
                                          artifacts.folder() / "selfcert", tests=request.config.getoption(
                                              "--selfcert-dir"), target=target)
    except selfcert.SelfcertError as error:
        pytest.fail(str(error))
    request.config.stash[SELFCERT] = campaign
    try:
        campaign.start()
        yield campaign
    finally:
        campaign.stop()


def pytest_terminal_summary(terminalreporter, config):
    """The tables of counts (CUPS's suites, then the self-certification), then each failed test with its row and
    suite; results.tsv beside the logs."""
    selfcert_summary(terminalreporter, config)
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


def selfcert_summary(terminalreporter, config):
    campaign = config.stash.get(SELFCERT, None)
    if campaign is None:
        return
    campaign.write_results()
    terminalreporter.section("conformance: the PWG's IPP Everywhere self-certification, pass/fail/skip")
    terminalreporter.write_line("%-24s %-10s %5s %5s %9s %5s" % ("profile", "suite", "pass", "fail", "explained",
                                                                   "skip"))
    for profile, suite, result in campaign.results():
        terminalreporter.write_line("%-24s %-10s %5d %5d %9d %5d%s" % (
            profile, suite, result.count("PASS"), len(result.failures), len(result.explained), result.count("SKIP"),
            "" if result.problem is None else "  " + result.problem))
        for outcome in result.failures:
            terminalreporter.write_line("  FAIL %s %s: %s" % (profile, suite, outcome.name))
        for name, why in result.explained:
            terminalreporter.write_line("  explained %s %s: %s: %s" % (profile, suite, name, why))
