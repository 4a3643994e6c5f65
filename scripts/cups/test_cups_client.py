"""CUPS as a driverless client: a queue made with ``lpadmin -m everywhere`` from the printer's own attributes, a PDF
printed with ``lp``, the job recorded by vprinter as completed with what CUPS was asked to print, and the job
listed by CUPS as completed. The printer's work folder (log, output, records) and the record are kept in
$VP_ARTIFACTS/cups-client-test/."""
import json
import pathlib
import shutil

import pytest
from vprinter import documents

from vptest import artifacts, cups, names, reference, waiting
from vptest.printer import run_vprinter

# Seconds to wait for the job to end, from lp on, in vprinter and in CUPS; how often to look.
JOB_LIMIT = 120
POLL = 0.5
JOB_USER = "cups-client-test"
JOB_TITLE = "cups client test letter"
# What CUPS sends a driverless printer: the PDF as it is, or a raster it made of it.
DRIVERLESS_FORMATS = {"application/pdf", "image/pwg-raster", "image/urf", "image/jpeg"}
ENDED = {"completed", "canceled", "aborted"}


@pytest.fixture
def letter(tmp_path):
    """A one-page letter PDF."""
    path = tmp_path / "letter.pdf"
    path.write_bytes(documents.pdf([JOB_TITLE], size="letter"))
    return path


@pytest.fixture
def queue():
    """A new driverless queue's name in the private cupsd; the queue is removed after the test."""
    cups.private_server()
    name = names.unique("vp")
    yield name
    cups.remove_queue(name)


def ended_records(output_dir):
    """The job records in the output folder whose job has ended."""
    records = [json.loads(path.read_text()) for path in sorted(output_dir.glob("jobs/*/job.json"))]
    return [record for record in records if record.get("job-state") in ENDED]


def print_through_cups(queue, uri, document):
    """Adds the queue for URI and prints the document with lp as JOB_USER; returns CUPS's job (QUEUE-N)."""
    cups.add_everywhere_queue(queue, uri)
    answer = cups.lp(queue, document, JOB_TITLE, "-U", JOB_USER)
    job = cups.request_id(answer)
    assert job, "lp named no job: %s" % answer
    return job


def wait_cups_completed(queue, job):
    completed = waiting.wait_until(lambda: cups.job_listed(queue, job, "completed"), JOB_LIMIT, POLL)
    assert completed, "CUPS did not complete %s within %d s: %s" % (job, JOB_LIMIT, cups.queue_jobs(queue))


def test_cups_prints_to_vprinter(request, start_printer, queue, letter):
    work = artifacts.folder() / "printer"
    shutil.rmtree(work, ignore_errors=True)
    printer = start_printer(profile=request.config.getoption("--profile"), work_dir=work)
    job = print_through_cups(queue, printer.uri, letter)
    output = pathlib.Path(printer.output_dir)
    # A record being written may not parse yet: that is a record not there yet.
    records = waiting.wait_until(lambda: ended_records(output), JOB_LIMIT, POLL, ignore=(ValueError,))
    assert records, "no job ended in %s within %d s (CUPS says: %s)" % (output, JOB_LIMIT, cups.queue_jobs(queue))
    assert len(records) == 1, "CUPS sent one job: %s" % [record["job-id"] for record in records]
    [record] = records
    artifacts.write("job.json", record)
    document = (record.get("documents") or [{}])[0]
    seen = {
        "job-state": record["job-state"],
        "document-format is driverless": document.get("document-format") in DRIVERLESS_FORMATS,
        "document has bytes": document.get("size", 0) > 0,
        "job-originating-user-name": record.get("job-originating-user-name"),
        "job-name": record.get("job-name"),
        "job-pages": record.get("job-pages"),
    }
    expected = {
        "job-state": "completed",
        "document-format is driverless": True,
        "document has bytes": True,
        "job-originating-user-name": JOB_USER,
        "job-name": JOB_TITLE,
        "job-pages": 1,
    }
    assert seen == expected, "the record of what CUPS sent (%s, %s, state %s): %s" % (
        document.get("document-format"), document.get("size"), record["job-state"],
        [record.get("job-state-reasons"), record.get("job-state-message")])
    wait_cups_completed(queue, job)
    # What CUPS asked, in order: lpadmin read the attributes for the queue's PPD, then the ipp backend read them
    # again, created the job and sent the document (CUPS's backend/ipp.c: Get-Printer-Attributes, then
    # Create-Job and Send-Document where the printer supports Create-Job), and asked after the job.
    operations = [entry["ipp"]["operation"] for entry in printer.requests(kind="ipp")]
    assert printer.verify(sequence=[
        {"operation": "Get-Printer-Attributes", "client": "CUPS/"},
        {"operation": "Create-Job", "attributes": [{"name": "requesting-user-name", "equals": JOB_USER}]},
        {"operation": "Send-Document", "status": "successful-ok"},
        {"operation": "Get-Job-Attributes"},
    ]), operations
    assert printer.verify({"operation": "Print-Job"}, count=0), operations
    # CUPS is a well-behaved client: none of its requests breaks a MUST (docs/api.md "Findings"). A false alarm is
    # named with its request, rule and message.
    errors = ["request %d %s: %s (%s): %s" % (entry["id"], entry.get("ipp", {}).get("operation"), finding["rule"],
                                              finding["reference"], finding["message"])
              for entry in printer.requests(kind="ipp", finding="error")
              for finding in entry["findings"] if finding["severity"] == "error"]
    assert not errors, "CUPS's requests got error findings:\n" + "\n".join(errors)
    findings = printer.clients()["findings"]
    assert findings["error"] == 0, findings
    # The CI step a client's tests end with passes: vprinter report exits 0 at --fail-on error.
    status, out, err = run_vprinter("report", "--url", printer.uri, "--fail-on", "error")
    assert status == 0 and "CUPS/" in out, (status, out, err)


@pytest.mark.reference
def test_cups_prints_to_the_reference(queue, letter, tmp_path):
    log = artifacts.folder() / "ippeveprinter.log"
    with reference.start(tmp_path / "spool", log) as printer:
        job = print_through_cups(queue, printer.uri, letter)
        wait_cups_completed(queue, job)
