"""What a web page open in the tester's browser could make it send (docs/security.md "Browsers"): a cross-site
simple request (a form, text/plain, no-cors fetch) that would create or switch off printers, and a request under
a site name that an attacker pointed at this machine (DNS rebinding), which would read every document. Each test
here failed before the defence it checks: the printer answered 201/200 to all of them."""
import socket
import urllib.parse

from vprinter import ipp
from vptest.calls import JSON

EVIL = "http://evil.example"


def printer_names(printer):
    return sorted(entry["printer-name"] for entry in printer.http("GET", "/api/v1/printers").json())


def host_field(printer, name):
    return "%s:%d" % (name, printer.port)


def test_a_cross_site_page_can_neither_create_nor_switch_off_a_printer(start_printer):
    printer = start_printer()
    before = printer_names(printer)
    # What `fetch(url, {method: "POST", mode: "no-cors", body: ...})` sends: text/plain, no preflight.
    created = printer.http("POST", "/api/v1/printers", b'{"name": "planted"}',
                           headers={"Origin": EVIL, "Content-Type": "text/plain;charset=UTF-8"})
    assert created.status == 403 and EVIL in created.json()["error"], created
    assert "--allow-origin" in created.json()["error"]
    name = urllib.parse.quote(before[0])
    off = printer.http("POST", "/api/v1/printers/%s/power" % name, b'{"on": false}',
                       headers={"Origin": EVIL, "Content-Type": "text/plain"})
    assert off.status == 403, off
    # A change without a body is refused by its Origin alone (a form's POST, a no-cors fetch without a body).
    assert printer.http("DELETE", "/api/v1/jobs", headers={"Origin": EVIL}).status == 403
    assert printer.http("POST", "/api/v1/printers/%s/pause" % name, headers={"Origin": "null"}).status == 403
    assert printer_names(printer) == before
    assert printer.ipp(ipp.GET_PRINTER_ATTRIBUTES).status == ipp.SUCCESSFUL_OK


def test_a_body_a_form_can_send_is_refused_where_the_api_reads_json(start_printer):
    printer = start_printer()
    before = printer_names(printer)
    # curl -d, an HTML form, a text/plain fetch: no Origin is needed to be refused.
    for content_type in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": content_type} if content_type else {}
        answer = printer.http("POST", "/api/v1/printers", b'{"name": "formed"}', headers=headers)
        assert answer.status == 415 and "Content-Type: application/json" in answer.json()["error"], answer
    assert printer_names(printer) == before
    # JSON with a charset parameter, and a change without a body (curl -X DELETE), go through.
    created = printer.http("POST", "/api/v1/printers", b'{"name": "json one"}',
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert created.status == 201, created
    assert printer.http("DELETE", "/api/v1/printers/json%20one").status == 200


def test_the_printers_own_page_and_allowed_origins_may_change_it(start_printer):
    printer = start_printer("--allow-origin", "http://localhost:3000")
    own = "http://127.0.0.1:%d" % printer.port
    mine = printer.http("POST", "/api/v1/printers", {"name": "from the page"},
                        headers={"Origin": own, "Host": host_field(printer, "127.0.0.1")})
    assert mine.status == 201, mine
    allowed = printer.http("POST", "/api/v1/printers", {"name": "from the app"},
                           headers={"Origin": "http://localhost:3000"})
    assert allowed.status == 201, allowed
    # Another port of the same host is another origin; https is another scheme.
    for origin in ("http://localhost:3001", "https://127.0.0.1:%d" % printer.port, "file://"):
        assert printer.http("POST", "/api/v1/printers", {"name": "x"}, headers={"Origin": origin}).status == 403
    # Reading is not a change: a GET with a foreign Origin is answered (the browser keeps the answer from the page).
    assert printer.http("GET", "/api/v1/jobs", headers={"Origin": EVIL}).status == 200


def test_a_rebound_site_name_is_refused_everywhere(start_printer):
    printer = start_printer()
    job = printer.print_job()
    printer.wait_for_job_state(job)
    evil = {"Host": host_field(printer, "evil.example")}
    for path in ("/api/v1/jobs", "/api/v1/jobs/%d" % job, "/", "/api/v1/requests"):
        answer = printer.http("GET", path, headers=evil)
        assert answer.status == 421, (path, answer)
        assert b"--allowed-host evil.example" in answer.body
    http_answer, message = printer.ipp_exchange(ipp.GET_JOBS, headers=evil)
    assert http_answer.status == 421 and message is None
    # The journal shows the refused requests.
    refused = printer.http("GET", "/api/v1/requests").json()
    assert any(entry["http"]["status"] == 421 for entry in refused)


def test_the_printers_own_names_are_answered(start_printer):
    printer = start_printer("--allowed-host", "printer.example")
    names = ["localhost", "127.0.0.1", "LOCALHOST", "printer.example", "printer.example.",
             socket.gethostname().split(".")[0] + ".local", "app.localhost", socket.gethostname()]
    for name in names:
        answer = printer.http("GET", "/api/v1/jobs", headers={"Host": host_field(printer, name)})
        assert answer.status == 200, (name, answer)
        assert answer.content_type.startswith(JSON)
    assert printer.http("GET", "/api/v1/jobs", headers={"Host": "[::1]:%d" % printer.port}).status == 200
    assert printer.http("GET", "/api/v1/jobs", headers={"Host": host_field(printer, "other.example")}).status == 421
    # Another .local name: any host of the link can advertise one and point it at this machine (issue 40).
    assert printer.http("GET", "/api/v1/jobs", headers={"Host": host_field(printer, "desk.local")}).status == 421


def test_any_host_and_origin_when_told(start_printer):
    printer = start_printer("--allowed-host", "*", "--allow-origin", "*")
    answer = printer.http("POST", "/api/v1/printers", {"name": "anywhere"},
                          headers={"Host": host_field(printer, "evil.example"), "Origin": EVIL})
    assert answer.status == 201, answer


def test_recorded_files_are_never_sniffed_as_pages_of_the_printer(start_printer):
    """A client's document is served from the printer's own origin: a browser that sniffed an HTML or SVG document
    sent as application/octet-stream would run it as the printer's page, with the API's rights. Every recorded file
    (documents, page images, text) carries X-Content-Type-Options: nosniff (issue 40)."""
    printer = start_printer("--render-dpi", "72")
    html = b"<html><script>fetch('/api/v1/jobs', {method: 'DELETE'})</script></html>"
    answer = printer.ipp(ipp.PRINT_JOB, {"document-format": "application/octet-stream"}, document=html)
    [record] = printer.wait(1)
    assert answer.job_id == record["job-id"] and record["documents"], record
    pdf = printer.print_job(name="a page")
    [rendered] = [job for job in printer.wait(2) if job["job-id"] == pdf]
    files = [(record, document["file"]) for document in record["documents"]]
    files += [(rendered, rendered["documents"][0]["file"]), (rendered, "page-0001.png")]
    for job, name in files:
        served = printer.http("GET", "/api/v1/jobs/%d/files/%s" % (job["job-id"], name))
        assert served.status == 200, (name, served.status)
        assert served.headers["X-Content-Type-Options"] == "nosniff", (name, served.headers)
        assert "html" not in served.headers["Content-Type"], (name, served.headers)
