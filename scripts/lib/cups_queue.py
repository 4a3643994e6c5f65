"""Driverless CUPS queues for the pytest suites: now in the harness (scripts/harness/vptest/cups.py); this name stays
for the suites that import it from scripts/lib until they load the harness."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "harness"))
from vptest.cups import QUEUE_LOAD_LIMIT, add_everywhere_queue  # noqa: E402,F401
