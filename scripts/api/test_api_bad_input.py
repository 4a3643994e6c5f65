"""Bad input to the JSON API and the web page: unknown ids and files, path tricks, out-of-range waits, hostile
job names."""
import os

import pytest


@pytest.mark.parametrize("path", [
    "/api/v1/jobs/0", "/api/v1/jobs/-1", "/api/v1/jobs/abc", "/api/v1/jobs/99999999999999999999",
    "/api/v1/jobs/1.0", "/api/v1/jobs/7/files/page-0001.png", "/jobs/42", "/jobs/..%2F..%2Fetc",
])
def test_unknown_job_ids_answer_404(printer, path):
    status, _, _ = printer.http("GET", path)
    assert status == 404


@pytest.mark.parametrize("name", [
    "..%2Fjob.json", "..%2F..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "..", ".", "%2E%2E", ".job.json",
    "..%5Cjob.json", "job.json%00.png", "%2e%2e%2f1%2fjob.json", "page-0001.png%2F", "",
])
def test_file_names_with_path_tricks_never_leave_the_job_folder(printer, name):
    printer.print_job(name="secret")
    printer.checked("GET", "/api/v1/wait?jobs=1", 200)
    status, _, body = printer.http("GET", "/api/v1/jobs/1/files/" + name)
    # A NUL byte is refused by the HTTP layer already (400); everything else is "no such file".
    assert status in (400, 404) if "%00" in name else status == 404, body[:200]
    assert b"root:" not in body


def test_the_same_file_names_without_tricks_are_served(printer):
    printer.print_job()
    printer.checked("GET", "/api/v1/wait?jobs=1", 200)
    status, _, body = printer.http("GET", "/api/v1/jobs/1/files/job.json")
    assert status == 200 and b'"job-id"' in body


@pytest.mark.parametrize("query", [
    "jobs=1&timeout=-1", "jobs=1&timeout=3601", "jobs=1&timeout=1e308", "jobs=1&timeout=inf", "jobs=1&timeout=nan",
    "jobs=1&timeout=abc", "jobs=-1", "jobs=abc", "", "jobs=99999999999999999999999",
])
def test_a_wait_with_a_bad_count_or_timeout_is_refused_with_400(printer, query):
    printer.checked("GET", "/api/v1/wait?" + query, 400)


def test_the_longest_allowed_wait_timeout_is_accepted(printer):
    printer.print_job()
    printer.checked("GET", "/api/v1/wait?jobs=1&timeout=3600", 200)


@pytest.mark.parametrize("job_name", ["../../escape", "/etc/passwd", "a/b/c", "..", "<script>alert(1)</script>"])
def test_job_names_never_create_files_outside_the_job_folder(printer, job_name):
    printer.print_job(name=job_name)
    [record] = printer.checked("GET", "/api/v1/wait?jobs=1", 200)
    assert record["job-name"] == job_name
    root = printer.work_dir
    found = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, files in os.walk(root) for f in files)
    allowed = {"ready.txt", "vprinter.log", "output/requests.jsonl", "output/jobs/1/job.json",
               "output/jobs/1/document-1.pdf", "output/jobs/1/page-0001.png"}
    assert set(found) <= allowed | {p for p in found if p.startswith("output/jobs/1/page-")}, found
    status, _, page = printer.http("GET", "/")
    assert status == 200
    assert b"<script>alert(1)</script>" not in page
    status, _, page = printer.http("GET", "/jobs/1")
    assert b"<script>alert(1)</script>" not in page
