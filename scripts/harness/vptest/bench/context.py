"""What every benchmark of scripts/bench is given: the command line's settings, the work and log folders, the table,
and the printers it measures: vprinter, and CUPS's ippeveprinter with the Avahi daemon it needs."""
import os

from vprinter import server

from .. import reference, scriptlib
from . import processes
from .report import Table

# Makes an Avahi daemon reachable (scripts/lib/avahi.sh reuses one on the bus, else starts a private one on
# loopback) and prints what a child process needs to reach it, and whether it was started here.
AVAHI_START = 'vp_avahi_start >&2 && printf "%s\\n" "$DBUS_SYSTEM_BUS_ADDRESS" "$VP_AVAHI_DIR" "${VP_AVAHI_OWNED:-}"'
AVAHI_STOP = "VP_AVAHI_OWNED=1 && vp_avahi_stop"


class Bench:
    """The settings (``binary``, ``baseline``, ``profile``, ``duration`` of a wrk load in seconds, ``runs`` of a
    start-up), ``work`` (a temporary folder), ``logs`` (ARTIFACTS/bench: wrk outputs, the printers' logs) and the
    ``table``."""

    def __init__(self, binary, baseline, profile, duration, runs, work, logs):
        self.binary, self.baseline, self.profile, self.duration, self.runs = binary, baseline, profile, duration, runs
        self.work, self.logs, self.table, self.avahi_started = work, logs, Table(), None

    def vprinter(self, output, *arguments, binary=None, config=None):
        """This build's vprinter (or ``binary``) with --profile (or the printers of ``config``), on a free port
        without DNS-SD, recording in ``output``, its log in ``logs``/vprinter.log; returned once GET /readyz answers
        200, a context manager that stops it (vprinter.server.PrinterProcess)."""
        return server.start(profile=None if config else self.profile, output_dir=output, binary=binary or self.binary,
                            args=(("--config", config) if config else ()) + arguments, work_dir=self.logs,
                            timeout=processes.START_LIMIT)

    def vprinter_command(self, output, config=None):
        """The command line of vprinter with --profile (or the printers of ``config``) on a free port without
        DNS-SD, recording in ``output``."""
        printers = ("--config", str(config)) if config else ("--profile", self.profile)
        return [self.binary, *printers, "--port", "0", "--no-dnssd", "--output-dir", str(output)]

    def ippeveprinter(self, tls=False):
        """CUPS's ippeveprinter on a free port without DNS-SD, with its own self-signed certificate with ``tls``
        (-K); a context manager that stops it (vptest.reference.Reference)."""
        self.start_avahi()
        name, log = ("ippeveprinter-tls", "ippeveprinter-tls") if tls else ("ippeveprinter-reference", "ippeveprinter")
        return reference.start(self.work / name / "spool", self.logs / (log + ".log"), name=name,
                               keys_dir=self.work / name / "keys" if tls else None)

    def start_avahi(self):
        """ippeveprinter does not start without an Avahi daemon, even when told not to advertise: makes one
        reachable for this process and its children, once."""
        if self.avahi_started is None:
            done = scriptlib.call("avahi.sh", "eval", AVAHI_START)
            if done.returncode != 0:
                raise RuntimeError("no Avahi daemon for ippeveprinter: " + done.stderr.strip())
            bus, folder, owned = done.stdout.split("\n")[:3]
            os.environ.update(DBUS_SYSTEM_BUS_ADDRESS=bus, VP_AVAHI_DIR=folder)
            self.avahi_started = bool(owned)

    def close(self):
        """Stops the Avahi daemon if start_avahi started it."""
        if self.avahi_started:
            scriptlib.call("avahi.sh", "eval", AVAHI_STOP)
            self.avahi_started = False
