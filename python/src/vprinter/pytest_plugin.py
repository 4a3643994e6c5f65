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
(``compare()`` makes the printed sides the new golden files).
"""
import pytest

from . import server
from .client import VPrinterError

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
    problems = []
    for printer in reversed(started):
        try:
            printer.stop()
        except VPrinterError as error:
            problems.append(str(error))
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest.fixture
def vprinter(request, vprinter_factory):
    """A printer started for this test (see the module's documentation); a PrinterProcess, which is a Client of
    it: ``uri``, ``print_file()``, ``jobs()``, ``wait()``, ``text()``, ``compare()``, ``reset()``,
    ``fault()``."""
    return vprinter_factory(**fixture_options(request))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for printer in item.__dict__.get("_vprinter_processes", []):
        try:
            log = printer.log[-REPORT_LOG_TAIL:]
        except (OSError, ValueError):
            continue
        report.sections.append(("vprinter %s (output %s)" % (printer.uri, printer.output_dir), log))
