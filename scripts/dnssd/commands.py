"""The real clients' command lines as the DNS-SD tests run them: ippfind, ipptool and driverless, each bounded."""
import subprocess
import time

from vptest.waiting import WAIT_LIMIT

# The longest ippfind keeps looking before a check fails, in seconds (the self-certification allows 30).
BROWSE_LIMIT = 30
# ippfind's own time-out grows from 1 s to this many seconds between tries.
LONGEST_TRY = 5
# The longest one ipptool or driverless run may take, in seconds.
COMMAND_LIMIT = 60


def ippfind_until_found(*arguments, limit=BROWSE_LIMIT):
    """Runs ``ippfind ARGUMENTS -T N`` until it succeeds and prints something, for at most ``limit`` seconds;
    returns (its output, its errors), the output empty when it never did.

    With -T 1 ippfind returns as soon as it has found what there is (with -T 30 it would always wait 30 s). Each
    try that finds nothing waits one second longer, up to LONGEST_TRY: on a loaded machine, with many services on
    the shared loopback, a one-second browse can end before the daemon has answered."""
    deadline = time.monotonic() + limit
    wait = 1
    errors = ""
    while True:
        done = subprocess.run(["ippfind", *arguments, "-T", str(wait)], capture_output=True, text=True,
                              timeout=wait + COMMAND_LIMIT)
        errors += done.stderr
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout, errors
        if time.monotonic() >= deadline:
            return "", errors
        wait = min(wait + 1, LONGEST_TRY)
        time.sleep(0.2)


def ipptool(*arguments):
    """Runs ``ipptool ARGUMENTS``; its CompletedProcess (output as text)."""
    return subprocess.run(["ipptool", *arguments], capture_output=True, text=True, timeout=COMMAND_LIMIT)


def ipptool_attribute(uri, name):
    """The value ipptool shows for a printer attribute (``get-printer-attributes.test``, verbose), or None."""
    for line in ipptool("-tv", uri, "get-printer-attributes.test").stdout.splitlines():
        text = line.strip()
        if text.startswith(name + " (") and ") = " in text:
            return text.split(") = ", 1)[1]
    return None


def driverless_lists(uri, limit=WAIT_LIMIT):
    """Whether plain ``driverless`` lists ``uri`` within ``limit`` seconds, and what it listed last.

    driverless is built on ippfind, which gives up on the whole listing when any service vanishes between browse
    and resolve ("ippfind (PID n) stopped with status 2"); other tests' printers come and go on the same loopback
    mDNS, so it is asked again."""
    deadline = time.monotonic() + limit
    while True:
        listed = subprocess.run(["driverless"], capture_output=True, text=True, timeout=COMMAND_LIMIT).stdout
        if uri in listed.splitlines() or time.monotonic() >= deadline:
            return uri in listed.splitlines(), listed
