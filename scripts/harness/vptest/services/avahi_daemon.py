"""The Avahi daemon of the tests: a private D-Bus system bus and an avahi-daemon that only uses the loopback interface.

``start()`` reuses only a private daemon that a parent started (it exported VP_AVAHI_DIR and the bus in that
folder as DBUS_SYSTEM_BUS_ADDRESS), else starts a private bus and daemon in a folder of their own, whatever else
answers on the machine: a daemon the machine runs (a desktop's, on the system bus) is never used, restarted or
stopped by a test. It gives the variables that child processes, the suites and the Swift tests need to reach the
same daemon: DBUS_SYSTEM_BUS_ADDRESS and VP_AVAHI_DIR (the private folder). ``stop(folder)`` stops a private daemon and bus that ``start`` started.
``stop_daemon``, ``start_daemon`` and ``restart_daemon`` (the bus stays up), ``stop_bus`` and ``start_bus`` act on
the private daemon and bus of a folder, for the tests of a daemon that restarts, of no daemon and of no bus.

The daemon's configuration allows the loopback interface only and no wide-area DNS-SD, so nothing is advertised
beyond this machine. Starting a daemon needs root (avahi-daemon keeps its pid file in /run).
"""
import os
import pathlib
import shutil
import subprocess
import time

from . import ServiceError, end, keep_logs, log, make_folder, remove_folder, spawn, tail, take_pid

# The system bus that D-Bus clients use when DBUS_SYSTEM_BUS_ADDRESS is not set.
DEFAULT_BUS = "unix:path=/run/dbus/system_bus_socket"
# Seconds to wait for a daemon just started to answer on the bus.
ANSWER_LIMIT = 10
# Seconds a process we stop may take to exit after SIGTERM, and again after SIGKILL.
END_SECONDS = 3
# How long one question to the daemon may take, in milliseconds (dbus-send's --reply-timeout).
QUESTION_MS = 2000
# The longest dbus-daemon may take to fork into the background, in seconds.
BUS_START_LIMIT = 30
# Per-client and cache limits of the test daemon (Avahi's defaults: 1024 objects per client, 32 entries per entry
# group, 4096 cached records per interface); the environment variables change them (docs/dnssd.md "Many printers").
OBJECTS_PER_CLIENT = int(os.environ.get("VP_AVAHI_OBJECTS_PER_CLIENT") or 8192)
ENTRIES_PER_GROUP = int(os.environ.get("VP_AVAHI_ENTRIES_PER_GROUP") or 64)
CACHE_ENTRIES = int(os.environ.get("VP_AVAHI_CACHE_ENTRIES") or 65536)
# Where avahi-daemon keeps its pid file (and its socket), whatever its configuration says.
RUN_FOLDER = "/run/avahi-daemon"

BUS_CONF = """\
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

DAEMON_CONF = """\
[server]
allow-interfaces={interfaces}
{host_name}use-ipv4=yes
use-ipv6=yes
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
# Fleets (docs/dnssd.md "Many printers"): vprinter is one D-Bus client with one entry group per printer, and
# Avahi's defaults allow a client 1024 objects (entry groups, browsers, resolvers) and an entry group 32
# resource records. Raised so that a test fleet of thousands of printers is advertised whole.
objects-per-client-max={objects}
entries-per-entry-group-max={entries}
cache-entries-max={cache}

[wide-area]
enable-wide-area=no

[publish]
publish-workstation=no
publish-hinfo=no

[reflector]
enable-reflector=no
"""


def bus_of(folder):
    """The address of the private bus whose socket is in ``folder``."""
    return "unix:path=%s" % pathlib.Path(folder, "system_bus_socket")


def _ask(bus, prefix=()):
    """Asks the daemon on ``bus`` for its version (as ``prefix``, a command that runs the question as another
    user); whether it answered."""
    command = [*prefix, "env", "DBUS_SYSTEM_BUS_ADDRESS=" + bus, "dbus-send", "--system", "--print-reply",
               "--reply-timeout=%d" % QUESTION_MS, "--dest=org.freedesktop.Avahi", "/",
               "org.freedesktop.Avahi.Server.GetVersionString"]
    try:
        return subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=QUESTION_MS / 1000 + 10).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def reachable(bus=None):
    """Whether an avahi-daemon answers on ``bus`` (default: DBUS_SYSTEM_BUS_ADDRESS, else the system bus)."""
    return _ask(bus or os.environ.get("DBUS_SYSTEM_BUS_ADDRESS") or DEFAULT_BUS)


def reachable_as(user, bus=None):
    """Whether ``user`` (CUPS runs its backends as lp) reaches the daemon on the same bus as ``reachable``."""
    if not shutil.which("setpriv"):
        return False
    return _ask(bus or os.environ.get("DBUS_SYSTEM_BUS_ADDRESS") or DEFAULT_BUS,
                ["setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups"])


def prepare_loopback():
    """Lets avahi-daemon send and receive mDNS on lo: loopback has no MULTICAST flag by default, and IPv6 multicast
    needs a route on lo. Both changes are local to this machine."""
    if not shutil.which("ip"):
        return
    subprocess.run(["ip", "link", "set", "lo", "multicast", "on"], capture_output=True)
    routes = subprocess.run(["ip", "-6", "route", "show", "table", "local"], capture_output=True, text=True).stdout
    if not any(line.startswith("multicast ff00::/8 dev lo") for line in routes.splitlines()):
        subprocess.run(["ip", "-6", "route", "add", "multicast", "ff00::/8", "dev", "lo", "table", "local"],
                       capture_output=True)


def write_configs(folder, interfaces=("lo",), host_name=None):
    """Writes the bus's configuration (bus.conf: a system bus on a socket in ``folder`` that every local user may
    use) and the daemon's (avahi-daemon.conf: the ``interfaces`` only, loopback by default; ``host_name``, when
    given, the daemon's host name instead of the machine's, as vptest.lan gives each of its hosts)."""
    folder = pathlib.Path(folder)
    (folder / "bus.conf").write_text(BUS_CONF.format(socket=folder / "system_bus_socket"))
    (folder / "avahi-daemon.conf").write_text(
        DAEMON_CONF.format(objects=OBJECTS_PER_CLIENT, entries=ENTRIES_PER_GROUP, cache=CACHE_ENTRIES,
                           interfaces=",".join(interfaces),
                           host_name="host-name=%s\n" % host_name if host_name else ""))


def start_bus(folder):
    """Starts the private D-Bus system bus (again) on its socket in ``folder``."""
    folder = pathlib.Path(folder)
    # dbus-daemon forks into the background and closes none of the descriptors it got: it gets only its log and the
    # pid file it writes its pid to.
    with open(folder / "dbus.pid", "w") as pid_file, open(folder / "dbus.log", "ab") as output:
        started = subprocess.run(
            ["dbus-daemon", "--config-file=%s" % (folder / "bus.conf"), "--fork", "--nopidfile",
             "--print-pid=%d" % pid_file.fileno()], stdin=subprocess.DEVNULL, stdout=output,
            stderr=subprocess.STDOUT, pass_fds=(pid_file.fileno(),), start_new_session=True,
            timeout=BUS_START_LIMIT)
    if started.returncode != 0:
        raise ServiceError("dbus-daemon did not start; its log:\n" + tail(folder / "dbus.log"))


def stop_bus(folder):
    """Stops the private D-Bus system bus (and so the daemon loses it too), to test "no bus at all"."""
    folder = pathlib.Path(folder)
    pid = take_pid(folder / "dbus.pid")
    if pid is None:
        return
    end(pid, END_SECONDS)
    (folder / "system_bus_socket").unlink(missing_ok=True)


def start_daemon(folder, prefix=()):
    """Starts the private avahi-daemon on the private bus of ``folder`` and returns once it answers. ``prefix``: a
    command that runs it elsewhere, e.g. nsenter into a network and mount namespace of vptest.lan (it must exec the
    daemon, so that the pid kept is the daemon's)."""
    folder = pathlib.Path(folder)
    prefix = list(prefix)
    command = [*prefix, "avahi-daemon", "--file=%s" % (folder / "avahi-daemon.conf"), "--no-chroot", "--no-drop-root",
               "--no-rlimits", "--no-proc-title"]
    # avahi-daemon keeps its pid file in /run/avahi-daemon whatever its configuration says, so a daemon already
    # running for another bus would make ours refuse to start: ours then gets its own /run/avahi-daemon in a
    # private mount namespace.
    os.makedirs(RUN_FOLDER, exist_ok=True)
    if subprocess.run([*prefix, "avahi-daemon", "--check"], capture_output=True).returncode == 0:
        command = [*prefix, "unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount -t tmpfs -o mode=0755 tmpfs %s && exec "$0" "$@"' % RUN_FOLDER, *command[len(prefix):]]
    bus = bus_of(folder)
    daemon = spawn(command, folder / "avahi-daemon.log", dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=bus))
    (folder / "avahi-daemon.pid").write_text("%d\n" % daemon.pid)
    deadline = time.monotonic() + ANSWER_LIMIT
    while not reachable(bus):
        if daemon.poll() is not None or time.monotonic() >= deadline:
            raise ServiceError("avahi-daemon did not come up; its log:\n" + tail(folder / "avahi-daemon.log"))
        time.sleep(0.1)


def stop_daemon(folder):
    """Stops the private avahi-daemon of ``folder`` (SIGTERM) and returns once it has exited; the bus stays up."""
    pid = take_pid(pathlib.Path(folder, "avahi-daemon.pid"))
    if pid is not None:
        end(pid, END_SECONDS)


def restart_daemon(folder):
    """Stops and starts the private avahi-daemon again, as a package upgrade or a crash would."""
    stop_daemon(folder)
    start_daemon(folder)


def start(environment=None):
    """Makes a private avahi-daemon reachable: reuses the one a parent started (``environment``, default this
    process's, exports VP_AVAHI_DIR and DBUS_SYSTEM_BUS_ADDRESS is the bus in that folder) while it answers, else
    starts a private bus and daemon. A daemon that answers on any other bus, the system's included, is not the
    tests' own and is left alone (a desktop's daemon would advertise the test printers beyond loopback, and a test
    that restarts its daemon would restart it). Returns the variables to export (DBUS_SYSTEM_BUS_ADDRESS,
    VP_AVAHI_DIR) and whether the daemon was started here (only then is it the caller's to stop)."""
    environment = os.environ if environment is None else environment
    bus = environment.get("DBUS_SYSTEM_BUS_ADDRESS") or DEFAULT_BUS
    folder = environment.get("VP_AVAHI_DIR") or ""
    if folder and bus == bus_of(folder) and reachable(bus):
        # A parent's folder made before the folder was opened to lp (see below) is opened here.
        try:
            os.chmod(folder, 0o755)
        except OSError:
            pass
        log("avahi-daemon answers on %s (private, a parent's, files in %s)" % (bus, folder))
        return {"DBUS_SYSTEM_BUS_ADDRESS": bus, "VP_AVAHI_DIR": folder}, False
    if reachable(bus):
        log("an avahi-daemon that is not the tests' own answers on %s: left alone, a private one starts" % bus)
    # The bus socket lives in this folder, and CUPS runs its backends as user lp: they resolve a printer's DNS-SD URI
    # through this bus, so lp must be able to walk into the folder (mkdtemp makes it 0700, and then
    # avahi_client_new fails with "Access denied" and the ipp backend with "Unable to locate printer"). Nothing in
    # it is secret; the bus policy lets any local user talk to the daemon. make_folder opens it.
    folder = make_folder("vprinter-avahi.")
    write_configs(folder)
    prepare_loopback()
    try:
        start_bus(folder)
        start_daemon(folder)
    except (ServiceError, OSError, subprocess.SubprocessError):
        stop(folder)
        raise
    log("avahi-daemon answers on %s (private, files in %s)" % (bus_of(folder), folder))
    return {"DBUS_SYSTEM_BUS_ADDRESS": bus_of(folder), "VP_AVAHI_DIR": str(folder)}, True


def stop(folder):
    """Stops the private daemon and bus of ``folder`` that ``start`` started, keeps their logs (VP_ARTIFACTS) and
    removes the folder. Only the starter calls it: a reused daemon is left to the one that started it."""
    problems = []
    for step in (stop_daemon, stop_bus):
        try:
            step(folder)
        except ServiceError as problem:
            problems.append(str(problem))
    keep_logs(folder)
    remove_folder(folder)
    if problems:
        raise ServiceError("; ".join(problems))
