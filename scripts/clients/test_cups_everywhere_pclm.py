"""CUPS itself as the driverless client of the PCLm profile: `lpadmin -m everywhere` builds the queue from the
printer's attributes, and CUPS turns a PDF into a format the printer lists (PCLm or PWG raster; this printer takes no
PDF) itself. The queue lives in the test's private cupsd (CUPS_SERVER).
"""
import os
import pathlib
import subprocess
import sys
import time

import pytest

from conftest import PROFILES, WAIT_LIMIT, record

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from cups_queue import add_everywhere_queue  # noqa: E402

CLIENT = "CUPS everywhere"
PCLM_PROFILES = [profile for profile in PROFILES if profile == "mopria-pclm"]


@pytest.mark.skipif(not os.environ.get("CUPS_SERVER"), reason="needs the private cupsd (scripts/client-test)")
@pytest.mark.parametrize("profile", PCLM_PROFILES)
def test_lpadmin_everywhere_prints_to_the_pclm_profile(profile, fleet, documents):
    printer = fleet[profile]
    queue = f"vp_everywhere_{os.getpid()}"
    add_everywhere_queue(queue, printer.uri, WAIT_LIMIT)
    try:
        title = f"everywhere pclm {os.getpid()}"
        subprocess.run(["lp", "-d", queue, "-t", title, documents.get("pdf")], check=True, capture_output=True,
                       timeout=WAIT_LIMIT)
        deadline = time.monotonic() + 2 * WAIT_LIMIT
        while True:
            jobs = [job for job in printer.api("/api/v1/jobs") if job.get("job-name") == title
                    and job["job-state"] in ("completed", "aborted", "canceled")]
            if jobs:
                break
            assert time.monotonic() < deadline, "no job from CUPS ended: " + subprocess.run(
                ["lpstat", "-l", "-o", queue], capture_output=True, text=True).stdout
            time.sleep(0.5)
        job = jobs[0]
        assert job["job-state"] == "completed", f"{job['job-state']}: {job.get('job-state-message')}"
        detected = job["documents"][0]["document-format-detected"]
        assert detected in ("application/PCLm", "image/pwg-raster"), f"CUPS sent {detected}"
        assert job["impressions"], "no rendered side"
        record(CLIENT, profile, f"lpadmin -m everywhere; CUPS sent {detected}, rendered")
    finally:
        subprocess.run(["lpadmin", "-x", queue], capture_output=True, timeout=WAIT_LIMIT)
