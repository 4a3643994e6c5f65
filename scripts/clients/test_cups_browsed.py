"""The real cups-browsed (Debian 12's, cups-filters 1.28.17) makes a CUPS queue for vprinter by itself from DNS-SD,
and a job printed through that queue is recorded and rendered.

cups-browsed runs with its own configuration and cache folder, talks only to the test's private cupsd
(CUPS_SERVER) and browses only through the test's Avahi daemon, which sees the loopback interface alone; its
BrowseFilter admits only the one printer this test names, so printers of other tests on loopback get no queue.
How it decides (OpenPrinting/cups-filters utils/cups-browsed.c): resolve_callback takes the TXT rp and adminurl,
create_remote_printer_entry asks the printer for all,media-col-database (cupsfilters/ipp.c), generates a driverless
PPD from the answer and makes a queue on cups-browsed's implicitclass backend, which sends the job on to the printer
it discovered.
"""
import os
import re
import signal
import subprocess

import pytest
from vptest import artifacts, cups, waiting

from conftest import CUPS_BROWSED_PROFILE, WAIT_LIMIT, record

CLIENT = "cups-browsed"


def queue_for(service):
    """The CUPS queue cups-browsed made for `service`, or None: with LocalQueueNamingIPPPrinter DNS-SD it is the
    service name with every character but letters and digits made `_`; its device URI is the DNS-SD URI or
    cups-browsed's implicitclass:// backend for that queue."""
    wanted = re.sub(r"[^A-Za-z0-9]", "_", service)
    result = subprocess.run(["lpstat", "-v"], capture_output=True, text=True, timeout=WAIT_LIMIT)
    for line in result.stdout.splitlines():
        # "device for QUEUE: URI"
        if line.startswith("device for "):
            queue, _, uri = line[len("device for "):].partition(": ")
            if queue == wanted or service in uri:
                return queue
    return None


@pytest.mark.skipif(not os.environ.get("CUPS_SERVER"), reason="needs the private cupsd (scripts/client-test)")
@pytest.mark.parametrize("profile", [CUPS_BROWSED_PROFILE])
def test_cups_browsed_creates_a_queue_and_prints_through_it(profile, fleet, documents, tmp_path):
    printer = fleet[profile]
    config = tmp_path / "cups-browsed.conf"
    config.write_text(f"""BrowseRemoteProtocols dnssd
BrowseLocalProtocols none
CreateIPPPrinterQueues All
CreateRemoteCUPSPrinterQueues No
LocalQueueNamingIPPPrinter DNS-SD
KeepGeneratedQueuesOnShutdown No
CacheDir {tmp_path}
BrowseFilter ServiceName ^{printer.service}$
""")
    log_path = artifacts.folder() / "cups-browsed.log"
    log = open(log_path, "wb")
    daemon = subprocess.Popen(["cups-browsed", "-c", str(config), "--debug"], stdout=log, stderr=subprocess.STDOUT,
                              env=dict(os.environ))
    queue = None
    try:
        def made():
            assert daemon.poll() is None, f"cups-browsed exited with {daemon.returncode} (see cups-browsed.log)"
            return queue_for(printer.service)

        # cups-browsed resolves every printer on the link before its BrowseFilter drops the others (other tests may
        # advertise hundreds on loopback), so its queue may take a while.
        queue = waiting.wait_for(made, "cups-browsed to make a queue for the printer", 2 * WAIT_LIMIT, interval=0.5)
        accepting = subprocess.run(["lpstat", "-a", queue], capture_output=True, text=True, timeout=WAIT_LIMIT)
        assert "accepting" in accepting.stdout, accepting.stdout + accepting.stderr
        before = {job["job-id"] for job in printer.jobs()}
        title = f"cups-browsed test {os.getpid()}"
        cups.lp(queue, documents.get("pdf"), title, timeout=WAIT_LIMIT)

        def ended():
            return [job for job in printer.jobs() if job["job-id"] not in before
                    and job["job-state"] in ("completed", "aborted", "canceled")]

        jobs = waiting.wait_until(ended, 2 * WAIT_LIMIT, interval=0.5)
        assert jobs, "no job reached vprinter through cups-browsed's queue: " + cups.queue_jobs(queue)
        job = jobs[0]
        assert job["job-state"] == "completed", f"{job['job-state']}: {job.get('job-state-message')}"
        assert job["impressions"], "the job printed through cups-browsed's queue rendered no side"
        assert job["job-name"] == title, job["job-name"]
        log.flush()
        interfaces = set(re.findall(r"on interface '([^']+)'", log_path.read_text(errors="replace")))
        assert interfaces == {"lo"}, f"cups-browsed saw services on {sorted(interfaces)}, not on loopback alone"
        record(CLIENT, profile, f"made queue {queue} by itself; job {job['job-id']} "
               f"{job['documents'][0]['document-format']} rendered ({len(job['impressions'])} side)")
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
        log.close()
        if queue and queue_for(printer.service):
            cups.remove_queue(queue, timeout=WAIT_LIMIT)
