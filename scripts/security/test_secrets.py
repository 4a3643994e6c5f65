"""Secrets that must not cross the network in the clear or lie open on disk (docs/security.md): the API token over
plain HTTP to a printer that speaks TLS, credentials in the plaintext request of an HTTP Upgrade, what was printed
under --user, file names a record gives the Python client, and the PINs and passwords of a request in the journal.
Each test failed before its defence: the token and the upgraded credentials were accepted, the files were
world-readable, the client wrote where the record said, and the journal kept the PIN in a file others could read."""
import http.client
import os
import stat

import pytest
from vprinter import VPrinterError, ipp
from vprinter.client import Client, plain_file_name
from vprinter.ipp import OCTET_STRING, PRINT_JOB, Value
from vptest import calls
from vptest.documents import SAMPLE_PDF
from vptest.waiting import WAIT_LIMIT, wait_until

from conftest import ALICE, USERS, print_job, upgraded

TOKEN = {"Authorization": "Bearer t0ken"}


def plain(printer, method, path, headers=None):
    """A call over plain HTTP to the --tls printer's port."""
    return calls.call(method, "http://%s%s" % (printer.authority, path), headers=headers)


def test_the_api_token_is_refused_in_the_clear_where_tls_is_offered(start_printer):
    printer = start_printer("--tls", "--api-token", "t0ken")
    refused = plain(printer, "DELETE", "/api/v1/jobs", TOKEN)
    assert refused.status == 426 and refused.headers["upgrade"].startswith("TLS/"), refused
    assert "TLS only" in refused.body.decode()
    assert printer.http("DELETE", "/api/v1/jobs", headers=TOKEN).status == 200
    # Under --user, the token in the clear gets 426 too, where a reader's call would otherwise pass as admin.
    secured = start_printer("--tls", *USERS, "--api-token", "t0ken")
    assert plain(secured, "GET", "/api/v1/jobs", TOKEN).status == 426
    assert secured.http("GET", "/api/v1/jobs", headers=TOKEN).status == 200


def test_allow_plain_auth_accepts_the_token_in_the_clear(start_printer):
    printer = start_printer("--tls", "--api-token", "t0ken", "--allow-plain-auth")
    assert plain(printer, "DELETE", "/api/v1/jobs", TOKEN).status == 200
    # Without TLS there is nothing else to send it over: the token is taken as it comes.
    bare = start_printer("--api-token", "t0ken")
    assert bare.http("DELETE", "/api/v1/jobs", headers=TOKEN).status == 200


def test_credentials_in_a_plaintext_upgrade_request_count_for_nothing(secured):
    print_job(secured, user=ALICE)
    tls = upgraded(secured, b"GET /api/v1/jobs HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n"
                   b"Upgrade: TLS/1.2\r\nAuthorization: %s\r\n\r\n" % calls.basic_auth(ALICE).encode())
    response = http.client.HTTPResponse(tls, method="GET")
    response.begin()
    assert response.status == 401 and response.headers["www-authenticate"].startswith("Basic")
    tls.close()
    # The same credentials over TLS from the first byte are alice's.
    assert secured.http("GET", "/api/v1/jobs", auth=ALICE).status == 200


def test_what_was_printed_under_user_is_for_this_user_only(secured):
    print_job(secured, user=ALICE)
    answer = secured.http("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, auth=ALICE)
    assert answer.status == 200, answer
    output = secured.output_dir
    assert stat.S_IMODE(os.stat(output).st_mode) == 0o700
    for folder, folders, files in os.walk(output):
        for name in folders:
            assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) & 0o077 == 0, name
        for name in files:
            assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) & 0o077 == 0, name


def test_the_python_client_writes_only_plain_file_names(tmp_path, monkeypatch):
    for name in ("page-0001.png", "document-1.pdf", "text-0001.txt"):
        assert plain_file_name(name) == name
    for name in ("../escaped.png", "/etc/passwd", "a/b.png", "..\\x", "..", ".", "", None, 7, "x\0.png"):
        with pytest.raises(VPrinterError):
            plain_file_name(name)
    client = Client("http://localhost:9")
    record = {"job-id": 3, "impressions": [{"file": "../../escaped.png"}]}
    monkeypatch.setattr(client, "job", lambda job: record)
    monkeypatch.setattr(client, "file", lambda job, name: b"written")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(VPrinterError):
        client.job_folder(3)
    assert not list(tmp_path.rglob("escaped.png"))


def test_a_job_name_cannot_forge_a_log_line(start_printer):
    printer = start_printer()
    forged = "invoice\nvprinter: job 99 completed: Job completed.\x1b[2J"
    job = printer.print_job(name=forged)
    printer.wait_for_job_state(job)
    with open(printer.log_path, encoding="utf-8", errors="replace") as log:
        lines = log.read().splitlines()
    assert not any(line.startswith("vprinter: job 99 ") for line in lines), lines
    assert not any("\x1b" in line for line in lines)
    created = [line for line in lines if "invoice" in line]
    assert created and "invoice\\nvprinter: job 99 completed" in created[0], created


def test_the_journal_keeps_no_pin_and_its_file_is_the_owners_alone(start_printer):
    # PWG 5100.11 job-password and PWG 5100.13 document-password are secrets: the journal keeps their length only.
    printer = start_printer("--profile", "enterprise-laser")
    secrets = [("job-password", Value(OCTET_STRING, b"8642")), ("document-password", Value(OCTET_STRING, b"s3cret"))]
    answer = printer.ipp(PRINT_JOB, [("job-name", "pin job"), ("document-format", "application/pdf"), *secrets],
                         document=SAMPLE_PDF)
    assert ipp.successful(answer.status), answer.status_message
    listing = printer.http("GET", "/api/v1/requests?operation=Print-Job")
    assert listing.status == 200 and "(redacted, 4 bytes)" in listing.body.decode(), listing
    page = printer.http("GET", "/requests")
    assert page.status == 200 and "pin job" in page.body.decode()
    journal_file = os.path.join(printer.output_dir, "requests.jsonl")
    assert wait_until(lambda: os.path.exists(journal_file) and b"Print-Job" in open(journal_file, "rb").read())
    with open(journal_file, "rb") as file:
        written = file.read()
    for secret in (b"8642", b"s3cret"):
        assert secret not in listing.body, secret
        assert secret not in page.body, secret
        assert secret not in written, secret
    assert stat.S_IMODE(os.stat(journal_file).st_mode) == 0o600
