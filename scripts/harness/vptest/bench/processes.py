"""Processes as scripts/bench measures them: a command started until it is ready and timed, run to its end and
timed, or run with its output kept in the artifacts; and what /proc says of a process's memory and CPU time."""
import collections
import os
import resource
import socket
import subprocess
import threading
import time

# Seconds a started command gets to be ready before it is killed (a fleet gets more), and to exit after SIGTERM.
START_LIMIT = 30
STOP_LIMIT = 10


def timed_start(command, ready, limit=START_LIMIT):
    """Starts ``command`` (its standard output piped) and calls ``ready(process)``, which returns once the process is
    ready and what it measured then; returns (milliseconds from the start until then, what ``ready`` returned). The
    process is killed after ``limit`` seconds, so that a wait for it ends, and stopped (SIGTERM) once measured."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    watchdog = threading.Timer(limit, process.kill)
    watchdog.start()
    try:
        figures = ready(process)
        return (time.monotonic() - started) * 1000, figures
    finally:
        watchdog.cancel()
        process.terminate()
        try:
            process.wait(STOP_LIMIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


def first_uri(process):
    """Ready: the process printed an ipp:// or ipps:// line; the http:// address of that printer's server."""
    for line in process.stdout:
        if line.startswith((b"ipp://", b"ipps://")):
            return "http://" + line.decode().split("//", 1)[1].split("/", 1)[0]
    raise RuntimeError("%s printed no URI" % process.args[0])


def first_connection(port):
    """Ready: 127.0.0.1:``port`` accepts a connection (a function of the process, for timed_start)."""
    def ready(process):
        while process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
                return None
            except OSError:
                time.sleep(0.001)
        raise RuntimeError("%s exited before it accepted a connection" % process.args[0])
    return ready


Timing = collections.namedtuple("Timing", "seconds cpu_seconds")


def timed_command(command):
    """Runs ``command`` to its end (it must succeed); a Timing: its wall time and its CPU time (user and system, its
    children's included) in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Timing(seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def logged(path, command, env=None):
    """Runs ``command`` with its output, and its errors, in the file ``path`` (whatever its exit status); that
    output."""
    with open(path, "w") as file:
        subprocess.run(command, stdout=file, stderr=subprocess.STDOUT, env=env)
    with open(path) as file:
        return file.read()


def status_kilobytes(pid, field):
    """A field of /proc/PID/status in kB (VmRSS now, VmHWM the peak), 0 when the process is gone."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid):
    """The process ids of a process's children, whichever of its threads started them (proc(5): each task lists
    its own; the render workers are started by the printer's scheduler threads, not its main thread)."""
    found = []
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return found
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as file:
                found += [int(child) for child in file.read().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return found


def tree_cpu_seconds(pid):
    """The CPU time of a process, of the children it waited for and of those running now (the render workers a
    printer keeps between jobs): a sum that only grows, so that the difference of two readings is what the tree
    spent between them."""
    total = cpu_seconds(pid)
    for child in children(pid):
        try:
            total += cpu_seconds(child)
        except OSError:  # ended between the two reads: its time is in the parent's waited-for fields, or soon is
            pass
    return total


def cpu_seconds(pid, waited_for=True):
    """User and system time of a process (proc(5) stat fields 14 and 15), and of the children it waited for (16 and
    17) unless ``waited_for`` is false."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15 if waited_for else 13]) / os.sysconf("SC_CLK_TCK")
