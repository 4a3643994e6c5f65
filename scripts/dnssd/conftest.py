"""Fixtures of the DNS-SD tests (docs/dnssd.md): vprinters advertised through the Avahi daemon on loopback
(scripts/lib/services.sh, DBUS_SYSTEM_BUS_ADDRESS), found and used by the real clients (avahi-browse, ippfind,
ipptool, driverless, lpadmin and lp with the private cupsd of CUPS_SERVER).

Options:
  --dnssd-profiles A,B   the profiles the self-certification checks (test_self_certification.py) run on;
                         default: every shipped profile (``vprinter profiles``)
  --dnssd-service NAME   run those checks on a printer already advertised as NAME instead

Every printer gets a name with spaces, this process's id and a random part: avahi-browse escapes the spaces, CUPS's
URIs carry them as %20, and other runs on this machine advertise on the same loopback.
"""
import os

import pytest

from vptest import artifacts, avahi, names
from vptest.printer import profile_names, run_vprinter, start
from vptest.waiting import WAIT_LIMIT

# The profile of the printers of the tests that are not about profiles.
DEFAULT_PROFILE = "duplex-laser"


def pytest_addoption(parser):
    group = parser.getgroup("dnssd")
    group.addoption("--dnssd-profiles", default="", help="profiles of the self-certification checks, comma-separated "
                    "(default: every shipped profile)")
    group.addoption("--dnssd-service", default="", help="run the self-certification checks on the printer "
                    "already advertised under this name")


def shipped_profiles():
    """The printing profiles ``vprinter profiles`` lists (a scanner alone is no IPP printer to certify)."""
    status, _, errors = run_vprinter("profiles")
    assert status == 0, "vprinter profiles: " + errors
    return profile_names()


def pytest_generate_tests(metafunc):
    """The self-certification checks run once per profile (or on the one named service); their printer is
    started once per profile (module scope) and checked by the four tests in turn."""
    if "profile" in metafunc.fixturenames:
        metafunc.parametrize("profile", checked_profiles(metafunc.config), indirect=True, scope="module")


def checked_profiles(config):
    """The profiles of this run, worked out once: pytest 7 keeps a module-scoped fixture for the next test only
    when its parameter is the same object, not an equal one."""
    if not hasattr(config, "dnssd_profiles"):
        options = config.option
        if options.dnssd_service:
            config.dnssd_profiles = ["service"]
        elif options.dnssd_profiles:
            config.dnssd_profiles = [profile for profile in options.dnssd_profiles.split(",") if profile]
        else:
            config.dnssd_profiles = shipped_profiles()
    return config.dnssd_profiles


@pytest.fixture(scope="module")
def profile(request):
    """The profile of the self-certification checks (one of pytest_generate_tests's); one fixture for every test
    function, so that the tests of one profile share its printer."""
    return request.param


def service_name(what):
    """A DNS-SD instance name no other run uses: ``vprinter dnssd WHAT-PID-RANDOM``."""
    return names.unique("vprinter dnssd " + what)


def label(profile):
    """A profile's name, also for one given as a file (``my-printer.json``): for artifacts and service names."""
    return os.path.basename(profile).removesuffix(".json")


def resolved(name, what, service_type="_ipp._tcp"):
    """avahi-browse's resolved entry (vptest.avahi.parse_line) of the instance ``name``, waited for at most
    WAIT_LIMIT seconds; fails the test saying ``what`` was awaited."""
    entry = avahi.wait_resolved(name, service_type, limit=WAIT_LIMIT)
    assert entry, "%s: avahi-browse did not resolve %r under %s within %d s" % (what, name, service_type, WAIT_LIMIT)
    return entry


@pytest.fixture(scope="session", autouse=True)
def avahi_daemon():
    """Every test needs the daemon: without one each would fail on its own, less clearly."""
    assert avahi.reachable(), ("no Avahi daemon answers on DBUS_SYSTEM_BUS_ADDRESS: run the stage script "
                               "(scripts/dnssd-test), which starts one on loopback")


@pytest.fixture
def advertise(request, start_printer):
    """Starts a vprinter advertised over DNS-SD: ``advertise(name, *arguments, render=False, **options)`` (the
    options of vptest.printer.start; ``--no-render`` unless ``render``). Each printer's log is kept in the
    artifacts as TEST-N.log when the test ends."""
    started = []

    def starter(name, *arguments, render=False, dnssd=True, profile=DEFAULT_PROFILE, **options):
        printer = start_printer(*([] if render else ["--no-render"]), *arguments, name=name, dnssd=dnssd,
                                profile=profile, **options)
        started.append(printer)
        return printer

    yield starter
    for number, printer in enumerate(started, 1):
        artifacts.keep(printer.log_path, "%s-%d.log" % (request.node.name, number))


class Advertised:
    """The printer the self-certification checks look at: its DNS-SD ``name``, ``profile``, and the ``printer``
    (None for --dnssd-service); ``folder`` keeps what the checks saw."""

    def __init__(self, name, profile, printer):
        self.name, self.profile, self.printer = name, profile, printer
        self.folder = artifacts.folder() / label(profile)
        self.folder.mkdir(parents=True, exist_ok=True)


@pytest.fixture(scope="module")
def advertised(request, profile):
    """The printer of ``profile``, advertised under a name of its own, for the module's tests of that profile
    (or the --dnssd-service printer). Its log is kept as PROFILE/vprinter.log."""
    service = request.config.option.dnssd_service
    if service:
        yield Advertised(service, profile, None)
        return
    name = service_name(label(profile))
    printer = start("--no-render", name=name, profile=profile, dnssd=True)
    try:
        yield Advertised(name, profile, printer)
    finally:
        try:
            printer.stop()
        finally:
            artifacts.keep(printer.log_path, "%s/vprinter.log" % label(profile))
            printer.remove_files()


@pytest.fixture
def service(request, advertised):
    """advertised, with its printer's log in the report of a test that fails (vprinter's pytest plugin reads the
    processes of a test from its item)."""
    if advertised.printer is not None:
        request.node.__dict__.setdefault("_vprinter_processes", []).append(advertised.printer)
    return advertised
