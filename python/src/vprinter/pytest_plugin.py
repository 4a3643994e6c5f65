"""The pytest plugin (entry point ``pytest11``): a ``vprinter`` fixture that starts a printer for each test.

    def test_invoice(vprinter):
        vprinter.print_file("invoice.pdf", sides="two-sided-long-edge")
        [job] = vprinter.wait(1)
        assert "Total 99.00" in vprinter.text(job)

    @pytest.mark.vprinter("color-inkjet", scenario="out-of-paper", args=["--render-dpi", "72"])
    def test_out_of_paper(vprinter): ...

    @pytest.mark.parametrize("vprinter", ["duplex-laser", {"profile": "color-inkjet"}], indirect=True)
    def test_every_profile(vprinter): ...

The fixture's printer listens on a free port of loopback's interfaces (``--port 0``), writes into a folder of the
test's temporary directory (kept by pytest like tmp_path), and does not advertise over DNS-SD unless the marker
says ``dnssd=True``. It is ready (GET /readyz) when the test starts and is stopped when it ends; a printer that
exited by itself during the test fails it. A failing test's report carries the printer's log.

Options: ``--vprinter-bin PATH`` (else VPRINTER_BIN, else vprinter on PATH), ``--vprinter-update-goldens``
(``compare()`` makes the printed sides the new golden files), ``--vprinter-url URL`` (else VPRINTER_URL): use a
vprinter that is already running (a CI service container) instead of starting one. Then each test's jobs and faults
are reset before it starts, and a test whose marker names a profile, scenario or name gets a printer created for
it at runtime (POST /api/v1/printers), deleted after it. A printer reached from elsewhere than loopback (a
container) takes changes only with its API token: ``--vprinter-api-token TOKEN`` (else VPRINTER_API_TOKEN, the
variable that gives the printer its ``--api-token``).
"""
import os
import time
import uuid

import pytest

from . import server
from .client import Client

MARKER = "vprinter"
# What the marker and a fixture parameter may set (the arguments of vprinter.start).
OPTIONS = ("profile", "name", "dnssd", "scenario", "args", "env", "timeout")
# How much of a printer's log a failing test's report shows, in characters.
REPORT_LOG_TAIL = 6000


def pytest_addoption(parser):
    group = parser.getgroup("vprinter", "vprinter (virtual IPP printer) fixture")
    group.addoption("--vprinter-bin", default=None, metavar="PATH",
                    help="the vprinter binary (default: $VPRINTER_BIN, else vprinter on PATH)")
    group.addoption("--vprinter-update-goldens", action="store_true", default=False,
                    help="compare() replaces the golden files with the printed sides instead of failing")
    group.addoption("--vprinter-url", default=None, metavar="URL",
                    help="use the vprinter running at URL (http://HOST:PORT or its ipp:// URI) instead of starting "
                         "one per test (default: $VPRINTER_URL)")
    group.addoption("--vprinter-api-token", default=None, metavar="TOKEN",
                    help="the --api-token of the vprinter at --vprinter-url (default: $VPRINTER_API_TOKEN)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "vprinter(profile=None, name=None, dnssd=False, scenario=None, args=(), env=None, timeout=30): how the "
        "vprinter fixture starts its printer (the closest marker wins for each option)")


def fixture_options(request):
    """The start options of a test's printer: its markers (module, class, then function: the closest wins),
    then the fixture's parameter (a profile name, or a dict of options)."""
    options = {}
    for marker in reversed(list(request.node.iter_markers(MARKER))):
        if marker.args:
            options["profile"] = marker.args[0] if len(marker.args) == 1 else list(marker.args)
        options.update(marker.kwargs)
    parameter = getattr(request, "param", None)
    if isinstance(parameter, dict):
        options.update(parameter)
    elif parameter is not None:
        options["profile"] = parameter
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise pytest.UsageError("vprinter marker or parameter: unknown option %s (known: %s)" % (
            ", ".join(unknown), ", ".join(OPTIONS)))
    return options


@pytest.fixture
def vprinter_factory(request, tmp_path_factory):
    """Starts printers for one test: ``vprinter_factory(profile="color-inkjet", name="desk 2")`` returns a
    running PrinterProcess; every one is stopped when the test ends."""
    binary = request.config.getoption("vprinter_bin")
    update = request.config.getoption("vprinter_update_goldens")
    started = []
    request.node.__dict__.setdefault("_vprinter_processes", started)

    def factory(**options):
        work = tmp_path_factory.mktemp("vprinter")
        printer = server.start(binary=options.pop("binary", binary), work_dir=work, **options)
        printer.update_goldens = update
        started.append(printer)
        return printer

    yield factory
    problems = server.stop_all(started)
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


# Options that only a process started for the test can take (a running printer has its own).
PROCESS_OPTIONS = ("args", "env", "dnssd")


def running_printer(url, binary, api_token=None, timeout=server.START_TIMEOUT):
    """A Client of the vprinter at ``url`` once it is ready (GET /readyz), with the local binary for compare()
    when there is one."""
    try:
        binary = server.find_binary(binary)
    except server.StartError:
        binary = None
    client = Client(url, api_token=api_token, binary=binary)
    deadline = time.monotonic() + timeout
    answer = None
    while True:
        try:
            ready, answer = client.readyz()
            if ready:
                return client
        except OSError as error:
            answer = error
        if time.monotonic() >= deadline:
            raise server.StartError("the vprinter at %s was not ready within %s s: %s" % (url, timeout, answer))
        time.sleep(0.2)


@pytest.fixture
def vprinter(request, vprinter_factory):
    """A printer for this test (see the module's documentation): started for it, or, with --vprinter-url, the
    running one reset (or a runtime printer created on it). A Client of it: ``uri``, ``print_file()``,
    ``jobs()``, ``wait()``, ``text()``, ``compare()``, ``reset()``, ``fault()``."""
    options = fixture_options(request)
    url = request.config.getoption("vprinter_url") or os.environ.get("VPRINTER_URL")
    if not url:
        yield vprinter_factory(**options)
        return
    given = sorted(set(options) & set(PROCESS_OPTIONS))
    if given:
        raise pytest.UsageError("vprinter: %s cannot be given to the running printer at %s (--vprinter-url)" % (
            ", ".join(given), url))
    token = request.config.getoption("vprinter_api_token") or os.environ.get("VPRINTER_API_TOKEN")
    client = running_printer(url, request.config.getoption("vprinter_bin"), token,
                             options.get("timeout", server.START_TIMEOUT))
    client.update_goldens = request.config.getoption("vprinter_update_goldens")
    if not any(key in options for key in ("profile", "scenario", "name")):
        client.reset()
        client.clear_faults()
        yield client
        return
    profile = options.get("profile")
    if isinstance(profile, (list, tuple)):
        raise pytest.UsageError("vprinter: a runtime printer has one profile, not %r" % (profile,))
    name = options.get("name") or "pytest-%s" % uuid.uuid4().hex[:12]
    scenario = options.get("scenario")
    if isinstance(scenario, (list, tuple)):
        if len(scenario) > 1:
            raise pytest.UsageError("vprinter: a runtime printer has one scenario, not %r" % (scenario,))
        scenario = scenario[0] if scenario else None
    printer = client.add_printer(name, profile=profile, scenario=scenario)
    try:
        yield printer
    finally:
        printer.remove_printer()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    report.sections.extend(server.log_sections(item.__dict__.get("_vprinter_processes", []), REPORT_LOG_TAIL))
