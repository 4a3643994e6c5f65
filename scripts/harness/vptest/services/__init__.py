"""The private services of the tests, started and stopped here for every caller: an avahi-daemon restricted to
loopback on a private D-Bus system bus (``avahi_daemon``) and a cupsd with its own configuration on a free loopback
port (``cupsd``). Nothing here touches the machine's own cupsd or advertises beyond loopback.

Standard library only: bash scripts run it under the system python3 (``python3 -m vptest.services``, see
``__main__`` and scripts/lib/services.sh), the suites import it (vptest.avahi, vptest.cups), and the Swift tests
run its command line. A daemon started here is detached from its starter: it runs in a session of its own, keeps
no descriptor of the starter's (a test reading a pipe to its end, or waiting for a socket's peer to close, would
otherwise wait for the daemon, which outlives it), writes to a log file in its folder, and lives on after the
starting process has exited. Its pid is kept in its folder, where stopping it finds it.

Settings (environment):
  VP_SERVICES_DIR   the folder in which each service's folder is made and left after it stops (default: the temp
                    folder, and a stopped service's folder is removed)
  VP_ARTIFACTS      when set, a service's logs are copied into VP_ARTIFACTS/services/ when it stops
"""
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time


class ServiceError(RuntimeError):
    """A service did not start, or a process of it did not end; the message says which and why."""


def log(message):
    """Prints a message on stderr, prefixed with ``services:``."""
    print("services: " + message, file=sys.stderr, flush=True)


def make_folder(prefix):
    """Makes a new folder for one service's configuration, state and logs, in VP_SERVICES_DIR or the temp folder.

    The folder, and VP_SERVICES_DIR, are opened to every local user (0755): cupsd runs filters and backends as
    user lp, which must walk into them, and the Avahi bus socket lives in its folder (see avahi_daemon.start).
    Nothing in them is secret."""
    root = os.environ.get("VP_SERVICES_DIR")
    if root:
        os.makedirs(root, exist_ok=True)
        os.chmod(root, 0o755)
    folder = pathlib.Path(tempfile.mkdtemp(prefix=prefix, dir=root or None))
    folder.chmod(0o755)
    return folder


def remove_folder(folder):
    """Removes a stopped service's folder, unless VP_SERVICES_DIR asks for the files to stay."""
    if not os.environ.get("VP_SERVICES_DIR"):
        shutil.rmtree(folder, ignore_errors=True)


def keep_logs(folder, subfolder=""):
    """Copies the files of ``folder`` into VP_ARTIFACTS/services/ (or its ``subfolder``), when VP_ARTIFACTS is
    set; sockets and subfolders are left out."""
    artifacts = os.environ.get("VP_ARTIFACTS")
    if not artifacts or not os.path.isdir(folder):
        return
    target = pathlib.Path(artifacts, "services", subfolder)
    target.mkdir(parents=True, exist_ok=True)
    for path in pathlib.Path(folder).iterdir():
        if path.is_file():
            try:
                shutil.copy(path, target / path.name)
            except OSError:
                pass


def spawn(command, log_path, environment=None, append=True, pass_fds=()):
    """Starts ``command`` detached (a session of its own, standard input from /dev/null, standard output and error
    to ``log_path``, no other descriptor than ``pass_fds``); its Popen. A daemon started so outlives its
    starter."""
    with open(log_path, "ab" if append else "wb") as output:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                close_fds=True, pass_fds=pass_fds, start_new_session=True, env=environment)


def take_pid(path):
    """The pid recorded in ``path``, which is removed; None when there is none."""
    try:
        text = pathlib.Path(path).read_text()
    except FileNotFoundError:
        return None
    os.unlink(path)
    return int(text.split()[0]) if text.split() else None


def alive(pid):
    """Whether process ``pid`` exists and has not exited (a zombie has exited: its parent just has not reaped it).
    Reads /proc, the same process-id namespace that kill uses; reaps the process when it is a child of this
    one."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
    try:
        stat = pathlib.Path("/proc/%d/stat" % pid).read_text()
    except OSError:
        return False
    return stat.rpartition(") ")[2].split()[:1] != ["Z"]


def _gone_within(pid, seconds):
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def end(pid, seconds):
    """Ends a process of ours: SIGTERM, then SIGKILL if it is still there after ``seconds`` (a process started with
    SIGTERM blocked, as some parents leave it, would otherwise never end). Bounded: a process that survives SIGKILL
    for ``seconds`` more (stuck in the kernel) is left, and ServiceError says so."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    if _gone_within(pid, seconds):
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    if not _gone_within(pid, seconds):
        raise ServiceError("process %d is still there %s s after SIGKILL" % (pid, seconds))


def tail(path, lines=20):
    """The last lines of a log file, for a message; empty when there is none."""
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
