"""Driverless CUPS queues for the pytest suites, made as a user makes them (`lpadmin -m everywhere`), in the test's
private cupsd (CUPS_SERVER, VP_CUPSD_DIR from scripts/lib/cupsd.sh).

CUPS 2.4.2 loads a new queue's PPD once more from its main loop shortly after lpadmin returns; a job created before
that load is aborted ("Unable to convert file 0 to printable format"). add_everywhere_queue returns after the load,
as services_cups_add_everywhere does for the bash stages (scripts/lib/cupsd.sh, CUPS_QUEUE_LOAD_LIMIT).
"""
import os
import pathlib
import subprocess
import time

# Seconds to wait for cupsd to load the queue's PPD after lpadmin (scripts/lib/cupsd.sh: CUPS_QUEUE_LOAD_LIMIT).
QUEUE_LOAD_LIMIT = 10


def add_everywhere_queue(queue, uri, timeout):
    """Adds QUEUE for URI with `lpadmin -m everywhere` (at most TIMEOUT seconds) and waits for its PPD to load.
    Raises AssertionError with lpadmin's own message when lpadmin fails."""
    result = subprocess.run(["lpadmin", "-p", queue, "-E", "-v", uri, "-m", "everywhere"], capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, f"lpadmin -m everywhere -v {uri}: {result.stderr.strip()}"
    cupsd_dir = os.environ.get("VP_CUPSD_DIR")
    if not cupsd_dir:
        return
    cache = pathlib.Path(cupsd_dir, "cache", f"{queue}.data")
    deadline = time.monotonic() + QUEUE_LOAD_LIMIT
    while not cache.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
