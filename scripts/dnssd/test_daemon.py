"""vprinter and the Avahi daemon coming and going: the stage's private daemon (VP_AVAHI_DIR) is stopped and started
again through vptest.avahi (vptest.services)."""
import time

from vptest import artifacts, avahi
from vptest.documents import SAMPLE_PDF

from commands import ipptool
from conftest import resolved, service_name

# The time the project aims at from the daemon's start to the printer browsable again, in milliseconds (reported).
RESTART_TARGET_MS = 5000
# What vprinter logs, once, when it finds no daemon.
NO_DAEMON_WARNING = "no Avahi daemon reachable"


def test_advertised_again_after_the_daemon_restarts(advertise):
    """The daemon is killed and started again, as a package upgrade or a crash would: the printer, still running,
    is browsable again; the time from the daemon's start is measured."""
    assert avahi.private_daemon(), "the daemon in use is not ours to restart (VP_AVAHI_DIR is empty)"
    name = service_name("restart")
    advertise(name)
    resolved(name, "before the restart")
    avahi.stop_daemon()
    started = time.monotonic()
    avahi.start_daemon()
    resolved(name, "after the restart")
    artifacts.record_figure("restart", ms=round((time.monotonic() - started) * 1000), target_ms=RESTART_TARGET_MS)


def test_without_a_daemon_printing_goes_on(advertise, tmp_path):
    """Started with no daemon, vprinter warns once and takes jobs (ipptool Print-Job); it is advertised once the
    daemon is back."""
    assert avahi.private_daemon(), "the daemon in use is not ours to stop (VP_AVAHI_DIR is empty)"
    name = service_name("alone")
    document = tmp_path / "letter.pdf"
    document.write_bytes(SAMPLE_PDF)
    avahi.stop_daemon()
    try:
        printer = advertise(name)
        printed = ipptool("-tf", str(document), printer.uri, "print-job.test")
    finally:
        avahi.start_daemon()
    assert printed.returncode == 0, "Print-Job without a daemon: %s" % printed.stdout[-500:]
    resolved(name, "once the daemon is back")
    warnings = printer.log.count(NO_DAEMON_WARNING)
    assert warnings == 1, "%d warnings %r, not one: %s" % (warnings, NO_DAEMON_WARNING, printer.log[-1000:])
