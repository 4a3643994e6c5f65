"""CUPS as the tests use it: driverless queues made as a user makes them (``lpadmin -m everywhere``), printing
with ``lp`` and reading the queue with ``lpstat``, all in the test's private cupsd (CUPS_SERVER, VP_CUPSD_DIR from
vptest.services.cupsd). Standard library only.
"""
import os
import pathlib
import re
import subprocess
import time

# Seconds to wait, after `lpadmin -m everywhere`, for cupsd to load the new queue's PPD. CUPS 2.4.2 loads it once
# more from its main loop shortly after the queue is added (it then writes CACHEDIR/QUEUE.data); a job created
# before that load is aborted with "Unable to convert file 0 to printable format", because the reload replaces the
# queue's MIME types under the job. Measured here: 4 jobs of 105 sent at once after lpadmin were aborted so, none of
# 60 sent after the cache file appeared (it appears within 50-100 ms).
QUEUE_LOAD_LIMIT = 10
# The longest one CUPS command may take, in seconds.
COMMAND_LIMIT = 60


def _run(argv, host, **options):
    """Runs a CUPS command here, or on ``host`` (a vptest.lan.Host, whose own cupsd it then talks to)."""
    if host is not None:
        return host.run(argv, **options)
    return subprocess.run(argv, **options)


def add_everywhere_queue(queue, uri, timeout=COMMAND_LIMIT, host=None):
    """Adds QUEUE for URI with `lpadmin -m everywhere` (at most TIMEOUT seconds) and waits until cupsd has loaded
    the queue's PPD (its cache file in the private cupsd's CacheDir), at most QUEUE_LOAD_LIMIT seconds; a PPD still
    not loaded by then is left to the job, which may still print. Raises AssertionError with lpadmin's own message
    when lpadmin fails. ``host``: a vptest.lan.Host whose cupsd gets the queue (lpadmin runs there)."""
    result = _run(["lpadmin", "-p", queue, "-E", "-v", uri, "-m", "everywhere"], host, capture_output=True,
                  text=True, timeout=timeout)
    assert result.returncode == 0, f"lpadmin -m everywhere -v {uri}: {result.stderr.strip()}"
    cupsd_dir = host.cupsd_folder if host is not None else os.environ.get("VP_CUPSD_DIR")
    if not cupsd_dir:
        return
    cache = pathlib.Path(cupsd_dir, "cache", f"{queue}.data")
    deadline = time.monotonic() + QUEUE_LOAD_LIMIT
    while not cache.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def remove_queue(queue, timeout=COMMAND_LIMIT, host=None):
    """Deletes a queue (``lpadmin -x``); quietly, as a clean-up. ``host``: as add_everywhere_queue."""
    _run(["lpadmin", "-x", queue], host, capture_output=True, timeout=timeout)


def lp(queue, path, title, *options, timeout=COMMAND_LIMIT, host=None):
    """Prints a file with ``lp -d QUEUE -t TITLE [options]``; returns lp's output. Raises CalledProcessError.
    ``host``: as add_everywhere_queue."""
    return _run(["lp", "-d", queue, "-t", title, *options, os.fspath(path)], host, check=True,
                capture_output=True, text=True, timeout=timeout).stdout


def queue_jobs(queue, timeout=COMMAND_LIMIT, host=None):
    """What ``lpstat -l -o QUEUE`` says of the queue's jobs (their states and CUPS's messages). ``host``: as
    add_everywhere_queue."""
    return _run(["lpstat", "-l", "-o", queue], host, capture_output=True, text=True, timeout=timeout).stdout


def private_server():
    """The private cupsd of this run (CUPS_SERVER); fails when there is none, so that a test never adds queues to
    the machine's own cupsd."""
    server = os.environ.get("CUPS_SERVER")
    assert server and os.environ.get("VP_CUPSD_DIR"), (
        "no private cupsd (CUPS_SERVER, VP_CUPSD_DIR): run the suite through its stage script, which starts one "
        "with vptest.services")
    return server


def request_id(lp_output):
    """The job lp made, from its answer ``request id is QUEUE-N (1 file(s))``; None when it named none."""
    match = re.search(r"^request id is (\S+) ", lp_output, re.MULTILINE)
    return match[1] if match else None


def lpstat(*arguments, timeout=COMMAND_LIMIT):
    """What ``lpstat ARGUMENTS`` prints (stdout and stderr), whatever its exit status."""
    result = subprocess.run(["lpstat", *arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=timeout)
    return result.stdout


def job_listed(queue, job, which="not-completed"):
    """Whether ``lpstat -W WHICH -o QUEUE`` (not-completed, completed or all) lists the job (``QUEUE-N``)."""
    return any(line.split()[:1] == [job] for line in lpstat("-W", which, "-o", queue).splitlines())


def alerts(queue):
    """The printer's reasons CUPS shows for the queue (the ``Alerts:`` line of ``lpstat -l -p QUEUE``), a set."""
    match = re.search(r"^\s*Alerts:(.*)$", lpstat("-l", "-p", queue), re.MULTILINE)
    return set(match[1].split()) if match else set()
