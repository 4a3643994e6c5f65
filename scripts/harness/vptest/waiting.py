"""Waiting for something to become true, bounded."""
import time

# The longest a test waits for anything by default, in seconds.
WAIT_LIMIT = 30
# How often a condition is asked again, in seconds.
INTERVAL = 0.05


def wait_until(predicate, limit=WAIT_LIMIT, interval=INTERVAL, ignore=()):
    """Calls ``predicate`` until it returns something true and returns that; after ``limit`` seconds returns its
    last (false) answer. Exceptions of the types in ``ignore`` count as a false answer."""
    deadline = time.monotonic() + limit
    while True:
        try:
            value = predicate()
        except ignore:
            value = None
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def wait_for(predicate, what, limit=WAIT_LIMIT, interval=INTERVAL, ignore=()):
    """Like wait_until, but fails with AssertionError naming ``what`` when the limit passes."""
    value = wait_until(predicate, limit, interval, ignore)
    if not value:
        raise AssertionError("timed out after %s s waiting for %s" % (limit, what))
    return value
