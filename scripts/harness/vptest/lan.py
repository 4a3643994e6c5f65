"""A LAN of the test's own: two hosts, "printer" and "phone", each a network and mount namespace of its own, joined
by a veth pair with private addresses (10.231.41.1/24 and 10.231.41.2/24). Nothing is attached to the machine's
own interfaces, so no packet leaves the machine.

Why: vprinter builds every URI it gives from the HTTP Host the client sent, and CUPS's libcups sends
``Host: localhost`` on every loopback connection whatever the URI said (cups/http.c, httpSetField/http_send:
"localhost" for a loopback address), so on ``lo`` nobody sees what a phone on the LAN sees. Here the phone reaches
the printer over the veth by its ``.local`` name, as a phone on Wi-Fi does.

Each host has its own private D-Bus system bus (a socket in its folder: a path socket, reachable from any network
namespace) and its own avahi-daemon (vptest.services.avahi_daemon, run inside the host's namespaces) restricted to
that host's veth end (and lo), with a host name of its own (vp-printer, vp-phone) and no wide-area DNS-SD. Each
mount namespace has its own /run/avahi-daemon, where that host's daemon keeps its socket, so nss-mdns (``.local``
names in getaddrinfo, /etc/nsswitch.conf) asks that host's daemon.

``with lan.network() as net:`` gives a ``Lan`` with ``printer`` and ``phone`` (``Host``: ``run(argv)``,
``popen(argv)``, ``command(argv)``, ``environment()``, ``address``, ``host_name``, ``fqdn``) and
``start_vprinter(...)``. Needs root; when the namespaces cannot be made, ``LanError`` says why (the tests fail).
"""
import contextlib
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time

from .services import ServiceError, avahi_daemon, cupsd, end, keep_logs, make_folder, remove_folder, tail
from .waiting import wait_until

SUBNET = "10.231.41"
PREFIX_LENGTH = 24
# Seconds a command run on a host may take unless told.
COMMAND_LIMIT = 60
# Seconds vprinter may take to write its ready file and answer /readyz.
START_LIMIT = 30


class LanError(RuntimeError):
    """The test network could not be made; the message says which step failed."""


def _checked(argv, what):
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=COMMAND_LIMIT)
    if done.returncode != 0:
        raise LanError("%s: %s exited %d: %s" % (what, " ".join(argv), done.returncode,
                                                   (done.stderr or done.stdout).strip()))
    return done.stdout


class Host:
    """One host of the LAN: a process holding a new network and mount namespace (sleep, its pid ``pid``), the veth
    end ``interface`` with ``address``, and its bus and avahi-daemon in ``folder``."""

    def __init__(self, role, address, interface):
        self.role, self.address, self.interface = role, address, interface
        self.host_name = "vp-" + role
        self.fqdn = self.host_name + ".local"
        self.folder = None
        self.holder = None
        self.cupsd_folder = None

    @property
    def pid(self):
        return self.holder.pid

    def make_namespaces(self):
        os.makedirs(avahi_daemon.RUN_FOLDER, exist_ok=True)
        # unshare execs sh, which execs sleep: the holder's pid is the namespaces'. The private tmpfs on
        # /run/avahi-daemon is this host's (its daemon's pid file and the socket nss-mdns asks).
        script = ('mount -t tmpfs -o mode=0755 tmpfs %s && ip link set lo up && ip link set lo multicast on && '
                  'echo ready && exec sleep infinity' % avahi_daemon.RUN_FOLDER)
        try:
            self.holder = subprocess.Popen(["unshare", "--net", "--mount", "--propagation", "private", "sh", "-c",
                                            script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, start_new_session=True)
        except OSError as problem:
            raise LanError("cannot run unshare: %s" % problem)
        line = self.holder.stdout.readline()
        if line.strip() != b"ready":
            self.holder.wait(timeout=5)
            raise LanError("the %s host's namespaces could not be made (unshare --net --mount needs root): %s"
                           % (self.role, self.holder.stderr.read().decode(errors="replace").strip()))
        self.holder.stdout.close()

    def command(self, argv):
        """``argv`` run inside this host's network and mount namespaces. Entering a mount namespace moves a process
        to that namespace's root (setns(2)), outside a chroot the tests run in (scripts/fresh-machine-test):
        ``--root`` keeps the holder's root, the chroot's, where this host's files are."""
        return ["nsenter", "--target", str(self.pid), "--net", "--mount", "--root", "--", *argv]

    def environment(self, extra=None):
        """This process's environment for a command on this host: its own D-Bus system bus, no CUPS_SERVER of the
        machine's test cupsd (the host's own cupsd's when it runs)."""
        environment = {key: value for key, value in os.environ.items()
                       if key not in ("CUPS_SERVER", "CUPS_STATEDIR", "VP_CUPSD_DIR", "VP_AVAHI_DIR")}
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = avahi_daemon.bus_of(self.folder)
        # nsenter --mount leaves the command in the namespace's root folder: relative PYTHONPATH entries (the stage
        # scripts' scripts/harness:python/src) are made absolute.
        if environment.get("PYTHONPATH"):
            environment["PYTHONPATH"] = os.pathsep.join(os.path.abspath(entry) for entry in
                                                        environment["PYTHONPATH"].split(os.pathsep) if entry)
        environment.update(self.cups_environment)
        environment.update(extra or {})
        return environment

    cups_environment = {}

    def run(self, argv, timeout=COMMAND_LIMIT, env=None, check=False, **options):
        """Runs ``argv`` on this host (text output captured unless told); a CompletedProcess."""
        options.setdefault("capture_output", True)
        options.setdefault("text", True)
        return subprocess.run(self.command(argv), env=self.environment(env), timeout=timeout, check=check,
                              stdin=options.pop("stdin", subprocess.DEVNULL), **options)

    def popen(self, argv, env=None, **options):
        """Starts ``argv`` on this host; its Popen."""
        return subprocess.Popen(self.command(argv), env=self.environment(env), **options)

    def start_avahi(self, interfaces):
        self.folder = make_folder("vprinter-lan-%s." % self.role)
        avahi_daemon.write_configs(self.folder, interfaces=interfaces, host_name=self.host_name)
        avahi_daemon.start_bus(self.folder)
        avahi_daemon.start_daemon(self.folder, prefix=self.command([]))

    def start_cupsd(self):
        """A private cupsd on this host's loopback (vptest.services.cupsd), its backends on this host's bus;
        lpadmin, lp and lpstat run on this host then use it."""
        variables, _ = cupsd.start(self.environment(), logs_as="lan-%s-cupsd" % self.role, prefix=self.command([]))
        self.cupsd_folder = variables["VP_CUPSD_DIR"]
        self.cups_environment = variables
        return variables

    def stop(self):
        problems = []
        if self.cupsd_folder:
            try:
                cupsd.stop(self.cupsd_folder, "lan-%s-cupsd" % self.role)
            except ServiceError as problem:
                problems.append(str(problem))
        if self.folder:
            try:
                avahi_daemon.stop_daemon(self.folder)
                avahi_daemon.stop_bus(self.folder)
            except ServiceError as problem:
                problems.append(str(problem))
            keep_logs(self.folder, "lan-" + self.role)
            remove_folder(self.folder)
        if self.holder and self.holder.poll() is None:
            try:
                end(self.holder.pid, 3)
            except ServiceError as problem:
                problems.append(str(problem))
            self.holder.wait(timeout=5)
        return problems


class Vprinter:
    """vprinter running on the printer host: ``port``, ``uris`` (its ready file), ``output_dir``, ``log_path``,
    ``name`` (its DNS-SD service name), ``api(path)`` (GET on its own loopback, from the printer host)."""

    def __init__(self, host, process, work_dir, name, port, uris):
        self.host, self.process, self.work_dir, self.name, self.port, self.uris = (host, process, work_dir, name,
                                                                                   port, uris)
        self.output_dir = pathlib.Path(work_dir, "output")
        self.log_path = pathlib.Path(work_dir, "vprinter.log")

    def api(self, path, body=None):
        """(status, body) of GET ``path`` on the printer's loopback, asked on the printer host; a POST of the JSON
        text ``body`` when given."""
        posted = ["--json", body] if body is not None else []
        done = self.host.run(["curl", "-sS", "-o", "-", "-w", "\n%{http_code}", *posted,
                              "http://127.0.0.1:%d%s" % (self.port, path)], timeout=30)
        body, _, status = done.stdout.rpartition("\n")
        return int(status or 0), body

    def log(self):
        return tail(self.log_path, 60)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


class Lan:
    def __init__(self):
        self.printer = Host("printer", "%s.1" % SUBNET, "vplan%dp" % (os.getpid() % 100000))
        self.phone = Host("phone", "%s.2" % SUBNET, "vplan%dq" % (os.getpid() % 100000))
        self.printers = []

    def run_on_printer(self, argv, **options):
        return self.printer.run(argv, **options)

    def run_on_phone(self, argv, **options):
        return self.phone.run(argv, **options)

    def make(self):
        for host in (self.printer, self.phone):
            host.make_namespaces()
        # Each end of the pair is made right in its host's namespace: neither is ever attached to a real
        # interface or seen in this namespace.
        _checked(["ip", "link", "add", self.printer.interface, "netns", str(self.printer.pid), "type", "veth",
                  "peer", "name", self.phone.interface, "netns", str(self.phone.pid)], "the veth pair")
        for host in (self.printer, self.phone):
            _checked(host.command(["ip", "addr", "add", "%s/%d" % (host.address, PREFIX_LENGTH), "dev",
                                   host.interface]), "the %s address" % host.role)
            _checked(host.command(["ip", "link", "set", host.interface, "multicast", "on", "up"]),
                     "the %s link" % host.role)
        # The phone's daemon uses its veth end only, as a phone's Wi-Fi; the printer's answers on lo too, for
        # the printer host's own tools.
        self.printer.start_avahi([self.printer.interface, "lo"])
        self.phone.start_avahi([self.phone.interface])

    def start_vprinter(self, *arguments, name, profile=None, binary=None, port=0, env=None):
        """Starts vprinter on the printer host, listening on its veth address and its loopback, advertised over
        DNS-SD as ``name`` through the printer host's daemon; returns once it answers /readyz there."""
        binary = binary or os.environ.get("VPRINTER") or shutil.which("vprinter")
        if not binary:
            raise LanError("no vprinter binary (VPRINTER)")
        work_dir = tempfile.mkdtemp(prefix="vptest-lan-")
        os.chmod(work_dir, 0o755)
        ready = pathlib.Path(work_dir, "ready.txt")
        command = [binary, "--port", str(port), "--listen", self.printer.address, "--listen", "127.0.0.1",
                   "--name", name, "--ready-file", str(ready), "--output-dir", str(pathlib.Path(work_dir, "output")),
                   *(["--profile", profile] if profile else []), *arguments]
        with open(pathlib.Path(work_dir, "vprinter.log"), "wb") as log:
            process = self.printer.popen(command, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_LIMIT
        while not (ready.exists() and ready.read_text().strip()):
            if process.poll() is not None or time.monotonic() > deadline:
                text = tail(pathlib.Path(work_dir, "vprinter.log"), 40)
                if process.poll() is None:
                    process.kill()
                raise LanError("vprinter did not start on the printer host: %s" % text)
            time.sleep(0.05)
        uris = ready.read_text().split()
        port = int(uris[0].split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        printer = Vprinter(self.printer, process, work_dir, name, port, uris)
        self.printers.append(printer)
        if not wait_until(lambda: printer.api("/readyz")[0] == 200, START_LIMIT, interval=0.1):
            raise LanError("vprinter on the printer host never answered /readyz: %s" % printer.log())
        return printer

    def close(self):
        problems = []
        for printer in self.printers:
            printer.stop()
            keep_logs(printer.work_dir, "lan-vprinter-%s" % printer.name)
            shutil.rmtree(printer.work_dir, ignore_errors=True)
        for host in (self.phone, self.printer):
            problems += host.stop()
        # Ending the holders ends the namespaces, and with them the veth pair.
        if problems:
            raise ServiceError("; ".join(problems))


@contextlib.contextmanager
def network():
    """The two-host LAN, torn down on exit, even when the body or the making fails. Raises LanError when it
    cannot be made (not root, no unshare, no veth)."""
    if os.geteuid() != 0:
        raise LanError("the test LAN needs root (network namespaces and a veth pair); run as root, as CI does")
    for tool in ("unshare", "nsenter", "ip", "avahi-daemon", "dbus-daemon"):
        if not shutil.which(tool):
            raise LanError("the test LAN needs %s" % tool)
    lan = Lan()
    try:
        lan.make()
        yield lan
    finally:
        lan.close()
