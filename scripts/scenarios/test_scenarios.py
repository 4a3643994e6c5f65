"""Each shipped scenario (scenarios/*.json, docs/scenarios.md) played with ipptool as the client, on a fresh printer
started with ``--scenario scenarios/NAME.json``: the state change it makes (printer-state, printer-state-reasons,
job-state processing-stopped where it applies, the events read with Get-Notifications), the recovery (through the
fault API, or by waiting for clear-after) and how the job ends. One test per scenario file: a scenario shipped
without a play here fails.
"""
import pytest

from scenario_printer import (IDLE, JOB_COMPLETED, JOB_PROCESSING, JOB_PROCESSING_STOPPED, PROCESSING, STOPPED)
from vptest import waiting
from vptest.paths import REPO

SHIPPED = sorted(path.stem for path in (REPO / "scenarios").glob("*.json"))


def play_paper_jam(played):
    """The paper jams at page 2 and clears itself 5 seconds later: the job stops (printer-stopped), the printer is
    stopped with media-jam-error, then both go on and the job completes."""
    subscription = played.subscribe()
    job = played.print_pdf()
    played.job_reaches("job stops at the jam", job, JOB_PROCESSING_STOPPED, "printer-stopped")
    played.printer_reaches("printer stopped with media-jam-error", STOPPED, "media-jam-error")
    played.assert_notified("jam event notified", subscription, "printer-state-changed", "media-jam-error")
    played.job_reaches("job completes after clear-after", job, JOB_COMPLETED, "job-completed-successfully")
    played.printer_reaches("printer idle again", IDLE, "none")
    played.assert_notified("completion notified", subscription, "job-completed")
    assert "processing-stopped" in played.states_of(job), "the record's history has processing-stopped"


def play_out_of_paper(played):
    """The main tray is empty: the job waits in processing-stopped with media-empty-error and media-needed-error
    until the tray is refilled through the API, then completes."""
    played.printer_reaches("printer reports the empty tray", IDLE, "media-empty-report")
    subscription = played.subscribe()
    job = played.print_pdf()
    played.job_reaches("job waits for paper", job, JOB_PROCESSING_STOPPED, "printer-stopped")
    played.printer_reaches("printer stopped, media-empty-error", STOPPED, "media-empty-error")
    played.printer_reaches("printer stopped, media-needed-error", STOPPED, "media-needed-error")
    played.assert_notified("stop notified", subscription, "printer-state-changed", "media-empty-error")
    played.api("POST", "/trays", {"source": "main"})
    played.job_reaches("job completes after the refill", job, JOB_COMPLETED, "job-completed-successfully")
    played.printer_reaches("printer idle again", IDLE, "none")
    played.assert_notified("completion notified", subscription, "job-completed")
    assert "processing-stopped" in played.states_of(job), "the record's history has processing-stopped"


def play_toner_low(played):
    """The toner is at 5 percent: toner-low-report while the printer stays idle and prints; a new cartridge (the
    supplies API) clears it."""
    played.printer_reaches("printer reports toner-low", IDLE, "toner-low-report")
    subscription = played.subscribe()
    job = played.print_pdf()
    played.job_reaches("job completes despite low toner", job, JOB_COMPLETED, "job-completed-successfully")
    played.printer_reaches("toner still low after the job", IDLE, "toner-low-report")
    played.api("POST", "/supplies", {"index": 1, "level": 100})
    played.printer_reaches("toner-low gone", IDLE, "none")
    played.assert_notified("change notified", subscription, "printer-state-changed", "none")


def play_offline(played):
    """Offline after 2 seconds, jobs refused with server-error-service-unavailable; clearing the faults brings it
    back."""
    subscription = played.subscribe()
    played.printer_reaches("printer goes offline", IDLE, "offline-report")
    played.passes("Print-Job and Create-Job refused while offline", "offline.test")
    played.assert_notified("offline notified", subscription, "printer-state-changed", "offline-report")
    played.api("DELETE", "/faults")
    played.printer_reaches("printer back online", IDLE, "none")
    job = played.print_pdf()
    played.job_reaches("job completes once online", job, JOB_COMPLETED, "job-completed-successfully")


def play_busy(played):
    """The first two Print-Job and Create-Job requests are answered server-error-busy; the third of each is
    accepted, and both jobs complete."""
    played.passes("busy twice, then accepted", "busy.test")
    jobs = [record["job-id"] for record in played.records()]
    assert len(jobs) == 2, "the third Print-Job and the third Create-Job made a job each, the busy ones none: %s" % (
        jobs)
    for job in jobs:
        played.job_reaches("job %d completes" % job, job, JOB_COMPLETED, "job-completed-successfully")
    played.printer_reaches("printer idle", IDLE, "none")


def play_slow(played):
    """Slow answers, slow reads and realistic pacing: the job is seen processing, then completes; clearing the
    faults takes the delays away."""
    job = played.print_pdf()
    played.job_reaches("job prints at pages-per-minute", job, JOB_PROCESSING, "job-printing")
    played.printer_reaches("printer processing", PROCESSING, "none")
    played.job_reaches("job completes", job, JOB_COMPLETED, "job-completed-successfully")
    played.api("DELETE", "/faults")
    assert played.fault_names() == [], "no faults left after DELETE /faults"


def play_flaky_network(played):
    """A dropped Get-Printer-Attributes, a Print-Job answer broken off halfway (the job is still created and
    prints), a slowly read Send-Document; every request after those is answered."""
    # CUPS's client library sends a request again on a new connection when the first closed before any answer.
    played.passes("a dropped Get-Printer-Attributes is answered on the client's retry", "get-attributes.test")
    assert "drop" not in played.fault_names(), "the drop fault was used up"
    broken = played.ipptool("print-job.test")
    assert broken.failed == ["Print-Job is accepted"], "the first Print-Job's answer breaks off: %s" % (
        broken.describe())
    assert "break" not in played.fault_names(), "the break fault was used up"
    jobs = [record["job-id"] for record in played.records()]
    assert len(jobs) == 1, "the Print-Job whose answer broke off made its job anyway, and only it: %s" % jobs
    played.job_reaches("that job completes", jobs[0], JOB_COMPLETED, "job-completed-successfully")
    played.passes("Create-Job and a slowly read Send-Document", "create-send.test")
    assert "crawl" not in played.fault_names(), "the crawl fault was used up"
    jobs = [record["job-id"] for record in played.records()]
    assert len(jobs) == 2, "Create-Job made a second job: %s" % jobs
    played.job_reaches("that job completes", jobs[1], JOB_COMPLETED, "job-completed-successfully")
    assert played.fault_names() == [], "no faults left"


def play_scanner_busy(played):
    """The office MFP's scanner answers scan jobs 503 with Retry-After for 3 seconds, then scans (eSCL)."""
    printer = played.printer
    body = (b'<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" '
            b'xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>Platen</pwg:InputSource>'
            b'<scan:XResolution>75</scan:XResolution><scan:YResolution>75</scan:YResolution></scan:ScanSettings>')
    jobs = printer.path + "/eSCL/ScanJobs"
    busy = printer.http("POST", jobs, body, {"Content-Type": "text/xml"})
    assert busy.status == 503 and busy.headers["Retry-After"] == "2", busy.status
    assert played.fault_names() == ["scanner busy"]
    answers = []

    def scans():
        answers.append(printer.http("POST", jobs, body, {"Content-Type": "text/xml"}).status)
        return answers[-1] == 201

    waiting.wait_until(scans, limit=10, interval=0.5)
    assert answers[-1] == 201 and answers[0] == 503, answers
    assert played.fault_names() == [], "the fault cleared itself"


PLAYS = {
    "paper-jam": play_paper_jam,
    "out-of-paper": play_out_of_paper,
    "toner-low": play_toner_low,
    "offline": play_offline,
    "busy": play_busy,
    "slow": play_slow,
    "flaky-network": play_flaky_network,
    "scanner-busy": play_scanner_busy,
}
# The profile a scenario is played on, when not the default printer's.
PROFILES = {"scanner-busy": "office-mfp"}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.scenario(name), id=name) for name in SHIPPED])
def test_scenario(name, scenario_printer):
    assert name in PLAYS, "scenarios/%s.json is shipped but has no play in this file" % name
    PLAYS[name](scenario_printer(scenario=name, profile=PROFILES.get(name)))


def test_every_play_has_its_scenario():
    """A play whose scenario file is gone would never run."""
    assert sorted(PLAYS) == SHIPPED
