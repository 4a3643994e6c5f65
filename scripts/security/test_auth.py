"""HTTP Basic authentication and admins (docs/security.md): who may print, administer, and see what."""
import json

from vprinter.ipp import (CANCEL_JOB, CLIENT_ERROR_NOT_AUTHORIZED, GET_JOBS, GET_PRINTER_ATTRIBUTES, JOB_ATTRIBUTES,
                          PAUSE_PRINTER, PRINT_JOB, PURGE_JOBS, SUCCESSFUL_OK)
from vptest.documents import SAMPLE_PDF
from vptest.printer import run_vprinter
from vptest.waiting import wait_until

from conftest import ALICE, BOB, CAROL, ipp_call, job_folders, print_job


def api(printer, method, path, user=None):
    """An API call over TLS: (status, headers, the decoded JSON or the bytes of another content type)."""
    answer = printer.http(method, path, auth=user)
    return answer.status, answer.headers, answer.json() if answer.content_type.startswith(
        "application/json") else answer.body


def test_job_operations_without_valid_credentials_get_401_and_create_nothing(secured):
    for user in (None, "alice:wrong", "nobody:builder", "bob:"):
        status, headers, _, _ = print_job(secured, user=user)
        assert status == 401, user
        assert headers["www-authenticate"].startswith('Basic realm="vprinter"')
    for header in ("Basic !!!", "Basic YWxpY2U=", "Digest username=alice", "Bearer abc", "Basic", "basic  \t"):
        status, _, _, _ = ipp_call(secured, PRINT_JOB, document=SAMPLE_PDF, headers={"Authorization": header})
        assert status == 401, header
    assert job_folders(secured) == []
    assert api(secured, "GET", "/api/v1/jobs", user=ALICE)[2] == []
    assert secured.alive()


def test_credentials_in_the_clear_are_refused_with_an_upgrade(secured):
    status, headers, _, _ = print_job(secured, tls=False, user=BOB)
    assert status == 426 and headers["upgrade"].startswith("TLS/")
    status, _, _, _ = print_job(secured, tls=False)
    assert status == 426
    assert job_folders(secured) == []


def test_get_printer_attributes_stays_open_and_says_basic(secured):
    status, _, ipp_status, answer = ipp_call(secured, GET_PRINTER_ATTRIBUTES, tls=False)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert answer.values("uri-authentication-supported") == ["basic", "basic"]


def test_the_authenticated_user_owns_the_job(secured):
    status, _, ipp_status, answer = print_job(secured, user=BOB, requesting_user="mallory")
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    record = wait_until(lambda: api(secured, "GET", "/api/v1/jobs/%d" % answer.job_id, user=BOB)[2])
    assert record["job-originating-user-name"] == "bob"


def test_admin_operations_are_for_admins_only(secured):
    for operation in (PAUSE_PRINTER, PURGE_JOBS):
        status, _, ipp_status, _ = ipp_call(secured, operation, user=BOB)
        assert (status, ipp_status) == (200, CLIENT_ERROR_NOT_AUTHORIZED), hex(operation)
        assert ipp_call(secured, operation)[0] == 401
    status, _, ipp_status, _ = ipp_call(secured, PAUSE_PRINTER, user=ALICE)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert api(secured, "DELETE", "/api/v1/jobs", user=BOB)[0] == 403
    assert api(secured, "DELETE", "/api/v1/jobs")[0] == 401
    assert api(secured, "POST", "/api/v1/printers/%s/faults" % "x")[0] in (401, 404)
    assert api(secured, "DELETE", "/api/v1/jobs", user=ALICE)[0] == 200


def test_users_see_and_change_only_their_own_jobs(secured):
    bob_job = print_job(secured, user=BOB, name="bob's")[3].job_id
    carol_job = print_job(secured, user=CAROL, name="carol's")[3].job_id
    wait_until(lambda: len(api(secured, "GET", "/api/v1/jobs", user=ALICE)[2]) == 2)
    assert [job["job-id"] for job in api(secured, "GET", "/api/v1/jobs", user=BOB)[2]] == [bob_job]
    assert sorted(job["job-id"] for job in api(secured, "GET", "/api/v1/jobs", user=ALICE)[2]) == [bob_job, carol_job]
    assert api(secured, "GET", "/api/v1/jobs/%d" % bob_job, user=CAROL)[0] == 404
    assert api(secured, "GET", "/api/v1/jobs/%d/files/document-1.pdf" % bob_job, user=CAROL)[0] == 404
    status, _, document = api(secured, "GET", "/api/v1/jobs/%d/files/document-1.pdf" % bob_job, user=BOB)
    assert status == 200 and document.startswith(b"%PDF")
    assert api(secured, "GET", "/api/v1/jobs/%d/files/document-1.pdf" % bob_job)[0] == 401
    # The printed text, job queries and filtered waits see only what the user may see.
    assert api(secured, "GET", "/api/v1/jobs/%d/text" % bob_job, user=CAROL)[0] == 404
    assert api(secured, "GET", "/api/v1/jobs?name=carol%27s", user=BOB)[2] == []
    assert [job["job-id"] for job in api(secured, "GET", "/api/v1/jobs?name=carol%27s", user=ALICE)[2]] == [carol_job]
    status, _, ended = api(secured, "GET", "/api/v1/wait?count=1&timeout=20", user=BOB)
    assert status == 200 and [job["job-id"] for job in ended] == [bob_job]
    status, _, text = api(secured, "GET", "/api/v1/jobs/%d/text" % bob_job, user=BOB)
    assert status == 200 and text["job-id"] == bob_job and [side["source"] for side in text["sides"]] == ["pdf"]
    status, _, ipp_status, _ = ipp_call(secured, CANCEL_JOB, [("job-id", bob_job)], user=CAROL)
    assert ipp_status == CLIENT_ERROR_NOT_AUTHORIZED
    status, _, ipp_status, answer = ipp_call(secured, GET_JOBS, [("which-jobs", "all")], user=CAROL)
    assert ipp_status == SUCCESSFUL_OK
    assert [job["job-id"][0] for job in answer.groups_of(JOB_ATTRIBUTES)] == [carol_job]


def test_the_web_page_needs_credentials_and_shows_own_jobs(secured):
    bob_job = print_job(secured, user=BOB, name="bobs-secret-report")[3].job_id
    answer = secured.http("GET", "/")
    assert answer.status == 401 and answer.headers["www-authenticate"].startswith("Basic")
    status, _, page = secured.http("GET", "/", auth=CAROL)
    assert status == 200 and b"bobs-secret-report" not in page
    status, _, page = secured.http("GET", "/", auth=ALICE)
    assert b"bobs-secret-report" in page
    # The front panel's job list and the viewer keep to the same rule.
    status, _, panel = secured.http("GET", "/ipp/print", auth=CAROL)
    assert status == 200 and b"bobs-secret-report" not in panel
    assert secured.http("GET", "/jobs/%d" % bob_job, auth=CAROL)[0] == 404
    status, _, viewer = secured.http("GET", "/jobs/%d" % bob_job, auth=BOB)
    assert status == 200 and b"bobs-secret-report" in viewer
    assert secured.http("GET", "/web/vprinter.js")[0] == 200  # the script is the same for everyone
    assert secured.http("GET", "/ipp/print/icon-128.png")[0] == 200
    assert api(secured, "GET", "/api/v1/printers")[0] == 200


def test_allow_plain_auth_accepts_credentials_over_http(start_printer):
    printer = start_printer("--user", "dave:pw", "--allow-plain-auth")
    assert printer.uri.startswith("ipp://")
    assert print_job(printer, tls=False)[0] == 401
    status, _, ipp_status, _ = print_job(printer, tls=False, user="dave:pw")
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)


def test_users_file_and_its_errors(start_printer, tmp_path):
    users = tmp_path / "users"
    users.write_text("# testers\n\nerin:pass:word\nfrank:x\n")
    printer = start_printer("--tls", "--users", users, "--admin", "erin")
    assert ipp_call(printer, PAUSE_PRINTER, user="erin:pass:word")[2] == SUCCESSFUL_OK
    assert ipp_call(printer, PAUSE_PRINTER, user="frank:x")[2] == CLIENT_ERROR_NOT_AUTHORIZED
    users.write_text("erin:pw\nno colon here\n")
    status, _, stderr = run(tmp_path, "--tls", "--users", users)
    assert status == 1 and "line 2" in stderr


def run(folder, *arguments):
    """vprinter with these arguments on a free port, not advertised: (exit status, stdout, stderr)."""
    return run_vprinter("--port", "0", "--no-dnssd", "--output-dir", str(folder / "run-out"), *map(str, arguments),
                        timeout=30)


def test_usage_errors(tmp_path):
    for arguments in (["--user", "a:b"], ["--tls", "--user", "nocolon"], ["--tls", "--user", ":pw"],
                      ["--tls", "--admin", "a"], ["--tls", "--user", "a:b", "--admin", "z"], ["--tls-cert", "x"]):
        status, stdout, stderr = run(tmp_path, *arguments)
        assert status == 2, arguments
        assert stderr.strip() and stdout == ""


def test_warns_once_when_open_beyond_loopback(start_printer):
    open_printer = start_printer()
    assert open_printer.log.count("can read every printed document") == 1
    assert "--listen 127.0.0.1" in open_printer.log and "--user" in open_printer.log
    local = start_printer("--listen", "127.0.0.1")
    assert "can read every printed document" not in local.log
    secured = start_printer("--tls", "--user", "a:b")
    assert "can read every printed document" not in secured.log


def test_vprinter_wait_reaches_a_tls_printer_with_credentials(secured):
    print_job(secured, user=BOB)
    url = "ipps://bob:builder@localhost:%d/ipp/print" % secured.port
    status, stdout, stderr = run_vprinter("wait", "--url", url, "--jobs", "1", "--timeout", "30", timeout=60)
    assert status == 0, stderr
    assert json.loads(stdout)[0]["job-originating-user-name"] == "bob"
    status, _, stderr = run_vprinter("wait", "--url", secured.uri, "--jobs", "1", "--timeout", "5", timeout=60)
    assert status == 1 and "401" in stderr


def test_the_api_token_acts_as_an_admin(start_printer):
    printer = start_printer("--tls", "--user", "gina:pw", "--api-token", "t0ken")
    print_job(printer, user="gina:pw")
    status, _, body = printer.http("GET", "/api/v1/jobs", headers={"Authorization": "Bearer t0ken"})
    assert status == 200 and len(json.loads(body)) == 1
    assert printer.http("GET", "/api/v1/jobs", headers={"Authorization": "Bearer wrong"})[0] == 401
    assert printer.http("DELETE", "/api/v1/jobs", headers={"Authorization": "Bearer t0ken"})[0] == 200
