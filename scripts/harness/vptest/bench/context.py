"""What every benchmark of scripts/bench is given: the command line's settings, the work and log folders, the table,
and the printers it measures: vprinter, and CUPS's ippeveprinter with the Avahi daemon it needs."""
import os

from vprinter import server

from .. import reference
from ..services import ServiceError, avahi_daemon
from . import processes
from .report import Table


class Bench:
    """The settings (``binary``, ``baseline``, ``profile``, ``duration`` of a wrk load in seconds, ``runs`` of a
    start-up), ``work`` (a temporary folder), ``logs`` (ARTIFACTS/bench: wrk outputs, the printers' logs) and the
    ``table``."""

    def __init__(self, binary, baseline, profile, duration, runs, work, logs):
        self.binary, self.baseline, self.profile, self.duration, self.runs = binary, baseline, profile, duration, runs
        self.work, self.logs, self.table = work, logs, Table()
        # The private Avahi daemon's folder when start_avahi started one; "" when it reused one; None before.
        self.avahi_folder = None

    def vprinter(self, output, *arguments, binary=None, config=None):
        """This build's vprinter (or ``binary``) with --profile (or the printers of ``config``), on a free port
        without DNS-SD, recording in ``output``, its log in ``logs``/vprinter.log; returned once GET /readyz answers
        200, a context manager that stops it (vprinter.server.PrinterProcess)."""
        return server.start(profile=None if config else self.profile, output_dir=output, binary=binary or self.binary,
                            args=(("--config", config) if config else ()) + arguments, work_dir=self.logs,
                            timeout=processes.START_LIMIT)

    def vprinter_command(self, output, *arguments, config=None):
        """The command line of vprinter with --profile (or the printers of ``config``) on a free port without
        DNS-SD, recording in ``output``, with ``arguments`` after it."""
        printers = ("--config", str(config)) if config else ("--profile", self.profile)
        return [self.binary, *printers, "--port", "0", "--no-dnssd", "--output-dir", str(output), *arguments]

    def ippeveprinter(self, tls=False):
        """CUPS's ippeveprinter on a free port without DNS-SD, with its own self-signed certificate with ``tls``
        (-K); a context manager that stops it (vptest.reference.Reference)."""
        self.start_avahi()
        name, log = ("ippeveprinter-tls", "ippeveprinter-tls") if tls else ("ippeveprinter-reference", "ippeveprinter")
        return reference.start(self.work / name / "spool", self.logs / (log + ".log"), name=name,
                               keys_dir=self.work / name / "keys" if tls else None)

    def start_avahi(self):
        """ippeveprinter does not start without an Avahi daemon, even when told not to advertise: makes one
        reachable for this process and its children, once (vptest.services: one on the bus is reused, else a
        private one on loopback is started)."""
        if self.avahi_folder is None:
            try:
                variables, started = avahi_daemon.start()
            except (ServiceError, OSError) as problem:
                raise RuntimeError("no Avahi daemon for ippeveprinter: %s" % problem) from None
            os.environ.update(variables)
            self.avahi_folder = variables["VP_AVAHI_DIR"] if started else ""

    def close(self):
        """Stops the Avahi daemon if start_avahi started it."""
        if self.avahi_folder:
            avahi_daemon.stop(self.avahi_folder)
        self.avahi_folder = ""
