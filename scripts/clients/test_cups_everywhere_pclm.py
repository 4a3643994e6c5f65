"""CUPS itself as the driverless client of the PCLm profile: `lpadmin -m everywhere` builds the queue from the
printer's attributes, and CUPS turns a PDF into a format the printer lists (PCLm or PWG raster; this printer takes no
PDF) itself. The queue lives in the test's private cupsd (CUPS_SERVER).
"""
import os

import pytest
from vptest import cups, waiting

from conftest import PROFILES, WAIT_LIMIT, record

CLIENT = "CUPS everywhere"
PCLM_PROFILES = [profile for profile in PROFILES if profile == "mopria-pclm"]


@pytest.mark.skipif(not os.environ.get("CUPS_SERVER"), reason="needs the private cupsd (scripts/client-test)")
@pytest.mark.parametrize("profile", PCLM_PROFILES)
def test_lpadmin_everywhere_prints_to_the_pclm_profile(profile, fleet, documents):
    printer = fleet[profile]
    queue = f"vp_everywhere_{os.getpid()}"
    cups.add_everywhere_queue(queue, printer.uri, WAIT_LIMIT)
    try:
        title = f"everywhere pclm {os.getpid()}"
        cups.lp(queue, documents.get("pdf"), title, timeout=WAIT_LIMIT)

        def ended():
            return [job for job in printer.jobs() if job.get("job-name") == title
                    and job["job-state"] in ("completed", "aborted", "canceled")]

        jobs = waiting.wait_until(ended, 2 * WAIT_LIMIT, interval=0.5)
        assert jobs, "no job from CUPS ended: " + cups.queue_jobs(queue)
        job = jobs[0]
        assert job["job-state"] == "completed", f"{job['job-state']}: {job.get('job-state-message')}"
        detected = job["documents"][0]["document-format-detected"]
        assert detected in ("application/PCLm", "image/pwg-raster"), f"CUPS sent {detected}"
        assert job["impressions"], "no rendered side"
        record(CLIENT, profile, f"lpadmin -m everywhere; CUPS sent {detected}, rendered")
    finally:
        cups.remove_queue(queue, timeout=WAIT_LIMIT)
