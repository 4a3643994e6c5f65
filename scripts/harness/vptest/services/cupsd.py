"""The private cupsd of the tests: its own configuration, spool, cache, state and logs in a folder of its own, listening
on a free 127.0.0.1 port only. ``start()`` gives the variables its clients need:

  CUPS_SERVER    127.0.0.1:PORT, so that lpadmin, lp, lpstat and cancel talk to this cupsd and never to the machine's
  CUPS_STATEDIR  its state folder, where the clients find the local root certificate
  VP_CUPSD_DIR   the folder holding everything (logs in VP_CUPSD_DIR/log, the pid in VP_CUPSD_DIR/cupsd.pid)

``stop(folder, logs_as)`` stops it, keeping its logs in VP_ARTIFACTS/services/LOGS_AS. Adding a queue and waiting
for its PPD to load is vptest.cups.add_everywhere_queue.
"""
import os
import pathlib
import shutil
import socket
import subprocess

from . import ServiceError, end, keep_logs, log, make_folder, remove_folder, spawn, tail, take_pid
from ..waiting import wait_until

# Seconds to wait for cupsd to answer after it was started.
START_LIMIT = 20
# Seconds cupsd may take to exit after SIGTERM, and again after SIGKILL.
END_SECONDS = 5
# The longest one `lpstat -r` may take, in seconds.
QUESTION_LIMIT = 10

# Loopback only, no browsing or sharing, and no authentication for anything, since only processes on this machine
# can reach it and the tests run lpadmin without a password.
CUPSD_CONF = """\
LogLevel debug
MaxLogSize 0
ErrorPolicy abort-job
Listen 127.0.0.1:{port}
Listen {folder}/run/cups.sock
Browsing No
BrowseLocalProtocols none
DefaultShared No
DefaultAuthType None
WebInterface No
JobRetryInterval 1
PreserveJobHistory Yes
<Location />
  Order allow,deny
  Allow from 127.0.0.1
  Allow from @LOCAL
</Location>
<Policy default>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
"""

# Every folder cupsd writes to lives in its folder; filters and the driverless tools come from the installed CUPS.
CUPS_FILES_CONF = """\
ServerRoot {folder}/etc
RequestRoot {folder}/spool
CacheDir {folder}/cache
StateDir {folder}/run
TempDir {folder}/spool/tmp
AccessLog {folder}/log/access_log
ErrorLog {folder}/log/error_log
PageLog {folder}/log/page_log
FileDevice Yes
Sandboxing Relaxed
# Backends (user lp) resolve DNS-SD URIs through Avahi on the test's private D-Bus system bus, whose folder
# vptest.services.avahi_daemon opens to lp. CUPS 2.4 wants PassEnv here rather than in cupsd.conf.
PassEnv DBUS_SYSTEM_BUS_ADDRESS
"""


def free_loopback_port():
    """A TCP port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(server, prefix=()):
    """Whether the cupsd of ``server`` (HOST:PORT) answers (asked through ``prefix``, as ``start``). `lpstat -r`
    exits 0 whether or not it does ("scheduler is not running"), so its words are read."""
    try:
        said = subprocess.run([*prefix, "lpstat", "-r"], env=dict(os.environ, CUPS_SERVER=server, LC_ALL="C"),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=QUESTION_LIMIT)
    except subprocess.TimeoutExpired:
        return False
    return said.stdout.strip() == "scheduler is running"


def write_configs(folder, port):
    """Writes etc/cupsd.conf and etc/cups-files.conf of the cupsd of ``folder``, listening on ``port``."""
    (folder / "etc" / "cupsd.conf").write_text(CUPSD_CONF.format(port=port, folder=folder))
    (folder / "etc" / "cups-files.conf").write_text(CUPS_FILES_CONF.format(folder=folder))


def make_tree(folder):
    """Makes the folders cupsd uses under ``folder``, with the owners and modes CUPS wants: the spool is read by
    filters running as lp."""
    for sub in ("etc/ppd", "etc/ssl", "spool/tmp", "cache", "run", "log"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for sub in ("spool", "spool/tmp", "cache"):
        try:
            shutil.chown(folder / sub, group="lp")
        except (LookupError, OSError):
            pass
    for sub, mode in (("spool", 0o710), ("spool/tmp", 0o1770), ("cache", 0o770), (".", 0o755), ("run", 0o755),
                      ("etc", 0o755)):
        (folder / sub).chmod(mode)


def start(environment=None, logs_as="cupsd", prefix=()):
    """Starts a private cupsd and returns once it answers, or reuses the one a parent started (it exported
    CUPS_SERVER and VP_CUPSD_DIR) when that answers. Returns the variables to export and whether the cupsd was
    started here (only then is it the caller's to stop). Its environment is ``environment`` (default: this
    process's): it passes DBUS_SYSTEM_BUS_ADDRESS on to its backends. When it does not start, its logs are kept as
    ``stop`` keeps them. ``prefix``: a command that runs cupsd (and the question whether it answers) elsewhere,
    e.g. nsenter into a namespace of vptest.lan, whose loopback it then listens on; it must exec cupsd."""
    environment = os.environ if environment is None else environment
    server, folder = environment.get("CUPS_SERVER"), environment.get("VP_CUPSD_DIR")
    if server and folder and not prefix and answers(server):
        log("reusing the private cupsd on %s" % server)
        return {"CUPS_SERVER": server, "CUPS_STATEDIR": environment.get("CUPS_STATEDIR") or "%s/run" % folder,
                "VP_CUPSD_DIR": folder}, False
    folder = make_folder("vprinter-cupsd.")
    make_tree(folder)
    port = free_loopback_port()
    write_configs(folder, port)
    cupsd = spawn([*prefix, "cupsd", "-f", "-c", str(folder / "etc" / "cupsd.conf"), "-s",
                   str(folder / "etc" / "cups-files.conf")], folder / "log" / "cupsd.out", dict(environment),
                  append=False)
    (folder / "cupsd.pid").write_text("%d\n" % cupsd.pid)
    server = "127.0.0.1:%d" % port
    came = wait_until(lambda: cupsd.poll() is not None or answers(server, prefix), START_LIMIT)
    if not came or cupsd.poll() is not None:
        logs = "\n".join(tail(folder / "log" / name) for name in ("cupsd.out", "error_log"))
        stop(folder, logs_as)
        raise ServiceError("cupsd did not start on %s; its log:\n%s" % (server, logs))
    log("cupsd running on %s (pid %d, files in %s)" % (server, cupsd.pid, folder))
    return {"CUPS_SERVER": server, "CUPS_STATEDIR": str(folder / "run"), "VP_CUPSD_DIR": str(folder)}, True


def stop(folder, logs_as="cupsd"):
    """Stops the cupsd of ``folder`` that ``start`` started, keeps its logs in VP_ARTIFACTS/services/``logs_as``
    and removes the folder."""
    folder = pathlib.Path(folder)
    pid = take_pid(folder / "cupsd.pid")
    try:
        if pid is not None:
            end(pid, END_SECONDS)
    finally:
        keep_logs(folder / "log", logs_as)
        remove_folder(folder)
