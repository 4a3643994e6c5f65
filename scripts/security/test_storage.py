"""Storage a client can fill (docs/security.md "Storage"): jobs kept per printer with held ones counted
(--max-jobs, default 1000), pages rendered per job (--max-pages, default 1000), the free space the output folder's
disk keeps (--min-free-disk, default 256M) and pages of records on the API. Before, held jobs piled up without end,
a job rendered 10,000 pages a document, a disk filled to its last byte, and /api/v1/jobs answered every record of
every printer at once."""
import os
import re

from vprinter import ipp
from vptest.documents import pdf_of_postscript
from vptest.waiting import WAIT_LIMIT


def job_folders(printer):
    jobs = os.path.join(printer.output_dir, "jobs")
    return sorted(os.listdir(jobs)) if os.path.isdir(jobs) else []


def test_held_jobs_count_against_the_jobs_kept(start_printer):
    printer = start_printer("--max-jobs", "2", "--no-render")
    for _ in range(2):
        printer.print_job(job_hold_until="indefinite")
    answer = printer.ipp(ipp.PRINT_JOB, {"job-name": "third", "document-format": "application/pdf"},
                         document=b"%PDF-1.4\n")
    assert answer.status == 0x050B, hex(answer.status)  # server-error-too-many-jobs
    assert "--max-jobs" in answer.status_message
    assert len(job_folders(printer)) == 2


def test_a_disk_below_its_floor_refuses_jobs_and_says_so(start_printer):
    # A floor no disk reaches: the printer is full from the start.
    printer = start_printer("--min-free-disk", "1000000G", "--no-render")
    answer = printer.ipp(ipp.PRINT_JOB, {"job-name": "refused", "document-format": "application/pdf"},
                         document=b"%PDF-1.4\n")
    assert answer.status == 0x0506, hex(answer.status)  # server-error-not-accepting-jobs
    assert "--min-free-disk" in answer.status_message
    attributes = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES,
                             {"requested-attributes": ["printer-state-reasons", "printer-is-accepting-jobs"]})
    assert "spool-area-full" in attributes.values("printer-state-reasons")
    assert attributes.get("printer-is-accepting-jobs") is False
    assert job_folders(printer) == []


def test_a_disk_below_its_floor_refuses_scan_jobs_with_503_and_says_so(start_printer):
    # sane-airscan reads a 503 with an Idle ScannerStatus as busy: it asks again and says "Device busy".
    printer = start_printer("--min-free-disk", "1000000G", profile="office-mfp")
    settings = (b'<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" '
                b'xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>Platen</pwg:InputSource>'
                b'</scan:ScanSettings>')
    answer = printer.http("POST", printer.path + "/eSCL/ScanJobs", settings, {"Content-Type": "text/xml"})
    assert answer.status == 503, answer.status
    assert answer.headers["Retry-After"] == "60"
    assert b"--min-free-disk" in answer.body and b"no new scans" in answer.body
    scans = os.path.join(printer.output_dir, "scans")
    assert not os.path.isdir(scans) or [name for name in os.listdir(scans) if name.isdigit()] == []


def test_pages_are_counted_for_the_whole_job(start_printer, tmp_path):
    printer = start_printer("--max-pages", "3")
    two_pages = pdf_of_postscript(tmp_path, "two", "showpage showpage\n")
    with open(two_pages, "rb") as file:
        document = file.read()
    create = printer.ipp(ipp.CREATE_JOB, {"job-name": "four pages"})
    job = create.job_id
    for last in (False, True):
        sent = printer.ipp(ipp.SEND_DOCUMENT, {"job-id": job, "last-document": last,
                                               "document-format": "application/pdf"}, document=document)
        assert sent.status < 0x0100, hex(sent.status)
    record = printer.http("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT).json()[0]
    assert record["job-state"] == "aborted"
    assert "maximum pages" in record["job-state-message"]


def test_job_records_come_a_page_at_a_time(start_printer):
    printer = start_printer("--no-render")
    jobs = [printer.print_job(name="job %d" % index) for index in range(5)]
    seen = []
    path = "/api/v1/jobs?limit=2&user=pytest"
    while path:
        answer = printer.http("GET", path)
        assert answer.status == 200
        page = answer.json()
        assert len(page) <= 2
        seen += [record["job-id"] for record in page]
        link = answer.headers.get("Link")
        path = re.fullmatch(r'<(.+)>; rel="next"', link).group(1) if link else None
    assert seen == jobs
    assert printer.http("GET", "/api/v1/jobs?limit=0").status == 400
    assert printer.http("GET", "/api/v1/jobs?limit=1001").status == 400
    assert printer.http("GET", "/api/v1/wait?count=3&limit=2").status == 400
    # The Python client follows the pages.
    assert [record["job-id"] for record in printer.jobs(limit=2)] == jobs
