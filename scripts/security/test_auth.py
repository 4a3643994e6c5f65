"""HTTP Basic authentication and admins (docs/security.md): who may print, administer, and see what."""
import json
import os
import subprocess

from conftest import (ALICE, BOB, CAROL, CANCEL_JOB, GET_JOBS, GET_PRINTER_ATTRIBUTES, NOT_AUTHORIZED,
                      PAUSE_PRINTER, PURGE_JOBS, SUCCESSFUL_OK, ipp, texts, wait_until)


def api(printer, method, path, user=None, tls=True):
    status, headers, body = printer.http(method, path, user=user, tls=tls)
    return status, headers, json.loads(body) if headers.get("content-type", "").startswith("application/json") else body


def test_job_operations_without_valid_credentials_get_401_and_create_nothing(secured):
    for user in (None, "alice:wrong", "nobody:builder", "bob:"):
        status, headers, _, _ = secured.print_job(user=user)
        assert status == 401, user
        assert headers["www-authenticate"].startswith('Basic realm="vprinter"')
    for header in ("Basic !!!", "Basic YWxpY2U=", "Digest username=alice", "Bearer abc", "Basic", "basic  \t"):
        status, _, _, _ = secured.ipp(ipp.PRINT_JOB, document=ipp.sample_pdf(), headers={"Authorization": header})
        assert status == 401, header
    assert secured.job_folders() == []
    assert api(secured, "GET", "/api/v1/jobs", user=ALICE)[2] == []
    assert secured.alive()


def test_credentials_in_the_clear_are_refused_with_an_upgrade(secured):
    status, headers, _, _ = secured.print_job(tls=False, user=BOB)
    assert status == 426 and headers["upgrade"].startswith("TLS/")
    status, _, _, _ = secured.print_job(tls=False)
    assert status == 426
    assert secured.job_folders() == []


def test_get_printer_attributes_stays_open_and_says_basic(secured):
    status, _, ipp_status, attributes = secured.ipp(GET_PRINTER_ATTRIBUTES, tls=False)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert texts(attributes, "uri-authentication-supported") == ["basic", "basic"]


def test_the_authenticated_user_owns_the_job(secured):
    status, _, ipp_status, attributes = secured.print_job(user=BOB, requesting_user="mallory")
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    job_id = int.from_bytes(attributes["job-id"][0], "big")
    record = wait_until(lambda: api(secured, "GET", "/api/v1/jobs/%d" % job_id, user=BOB)[2])
    assert record["job-originating-user-name"] == "bob"


def test_admin_operations_are_for_admins_only(secured):
    for operation in (PAUSE_PRINTER, PURGE_JOBS):
        status, _, ipp_status, _ = secured.ipp(operation, user=BOB)
        assert (status, ipp_status) == (200, NOT_AUTHORIZED), hex(operation)
        assert secured.ipp(operation)[0] == 401
    status, _, ipp_status, _ = secured.ipp(PAUSE_PRINTER, user=ALICE)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert api(secured, "DELETE", "/api/v1/jobs", user=BOB)[0] == 403
    assert api(secured, "DELETE", "/api/v1/jobs")[0] == 401
    assert api(secured, "POST", "/api/v1/printers/%s/faults" % "x")[0] in (401, 404)
    assert api(secured, "DELETE", "/api/v1/jobs", user=ALICE)[0] == 200


def job_id_of(response):
    return int.from_bytes(response[3]["job-id"][0], "big")


def test_users_see_and_change_only_their_own_jobs(secured):
    bob_job = job_id_of(secured.print_job(user=BOB, name="bob's"))
    carol_job = job_id_of(secured.print_job(user=CAROL, name="carol's"))
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
    job_uri = ipp.attribute(ipp.INTEGER, "job-id", bob_job)
    status, _, ipp_status, _ = secured.ipp(CANCEL_JOB, job_uri, user=CAROL)
    assert ipp_status == NOT_AUTHORIZED
    status, _, ipp_status, attributes = secured.ipp(
        GET_JOBS, ipp.attribute(ipp.KEYWORD, "which-jobs", "all"), user=CAROL)
    assert ipp_status == SUCCESSFUL_OK
    assert [int.from_bytes(j["job-id"][0], "big") for j in attributes.get("jobs", [])] == [carol_job]


def test_the_web_page_needs_credentials_and_shows_own_jobs(secured):
    attributes = secured.print_job(user=BOB, name="bobs-secret-report")[3]
    bob_job = int.from_bytes(attributes["job-id"][0], "big")
    status, headers, _ = secured.http("GET", "/")
    assert status == 401 and headers["www-authenticate"].startswith("Basic")
    status, _, page = secured.http("GET", "/", user=CAROL)
    assert status == 200 and b"bobs-secret-report" not in page
    status, _, page = secured.http("GET", "/", user=ALICE)
    assert b"bobs-secret-report" in page
    # The front panel's job list and the viewer keep to the same rule.
    status, _, panel = secured.http("GET", "/ipp/print", user=CAROL)
    assert status == 200 and b"bobs-secret-report" not in panel
    assert secured.http("GET", "/jobs/%d" % bob_job, user=CAROL)[0] == 404
    status, _, viewer = secured.http("GET", "/jobs/%d" % bob_job, user=BOB)
    assert status == 200 and b"bobs-secret-report" in viewer
    assert secured.http("GET", "/web/vprinter.js")[0] == 200  # the script is the same for everyone
    assert secured.http("GET", "/ipp/print/icon-128.png")[0] == 200
    assert api(secured, "GET", "/api/v1/printers")[0] == 200


def test_allow_plain_auth_accepts_credentials_over_http(start):
    printer = start("--user", "dave:pw", "--allow-plain-auth")
    assert printer.uri.startswith("ipp://")
    assert printer.print_job(tls=False)[0] == 401
    status, _, ipp_status, _ = printer.print_job(tls=False, user="dave:pw")
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)


def test_users_file_and_its_errors(start, folder):
    users = os.path.join(folder, "users")
    with open(users, "w") as file:
        file.write("# testers\n\nerin:pass:word\nfrank:x\n")
    printer = start("--tls", "--users", users, "--admin", "erin")
    assert printer.ipp(PAUSE_PRINTER, user="erin:pass:word")[2] == SUCCESSFUL_OK
    assert printer.ipp(PAUSE_PRINTER, user="frank:x")[2] == NOT_AUTHORIZED
    with open(users, "w") as file:
        file.write("erin:pw\nno colon here\n")
    result = run(folder, "--tls", "--users", users)
    assert result.returncode == 1 and "line 2" in result.stderr


def run(folder, *arguments):
    return subprocess.run([os.environ["VPRINTER"], "--port", "0", "--no-dnssd", "--output-dir",
                           os.path.join(folder, "run-out"), *arguments], capture_output=True, text=True, timeout=30)


def test_usage_errors(folder):
    for arguments in (["--user", "a:b"], ["--tls", "--user", "nocolon"], ["--tls", "--user", ":pw"],
                      ["--tls", "--admin", "a"], ["--tls", "--user", "a:b", "--admin", "z"], ["--tls-cert", "x"]):
        result = run(folder, *arguments)
        assert result.returncode == 2, arguments
        assert result.stderr.strip() and result.stdout == ""


def test_warns_once_when_open_beyond_loopback(start):
    open_printer = start()
    assert open_printer.log().count("can read every printed document") == 1
    assert "--listen 127.0.0.1" in open_printer.log() and "--user" in open_printer.log()
    local = start("--listen", "127.0.0.1")
    assert "can read every printed document" not in local.log()
    secured = start("--tls", "--user", "a:b")
    assert "can read every printed document" not in secured.log()


def test_vprinter_wait_reaches_a_tls_printer_with_credentials(secured):
    secured.print_job(user=BOB)
    url = "ipps://bob:builder@localhost:%d/ipp/print" % secured.port
    result = subprocess.run([os.environ["VPRINTER"], "wait", "--url", url, "--jobs", "1", "--timeout", "30"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)[0]["job-originating-user-name"] == "bob"
    without = subprocess.run([os.environ["VPRINTER"], "wait", "--url", secured.uri, "--jobs", "1", "--timeout", "5"],
                             capture_output=True, text=True, timeout=60)
    assert without.returncode == 1 and "401" in without.stderr


def test_the_api_token_acts_as_an_admin(start):
    printer = start("--tls", "--user", "gina:pw", "--api-token", "t0ken")
    printer.print_job(user="gina:pw")
    status, _, body = printer.http("GET", "/api/v1/jobs", headers={"Authorization": "Bearer t0ken"})
    assert status == 200 and len(json.loads(body)) == 1
    assert printer.http("GET", "/api/v1/jobs", headers={"Authorization": "Bearer wrong"})[0] == 401
    assert printer.http("DELETE", "/api/v1/jobs", headers={"Authorization": "Bearer t0ken"})[0] == 200
