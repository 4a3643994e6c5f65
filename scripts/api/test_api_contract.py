"""Every endpoint of the JSON API, called on a running printer after real IPP print jobs; every answer is checked
against docs/openapi.json, every job record against docs/job-record.schema.json."""
import json
import threading
import urllib.request

from conftest import (OPENAPI, WAIT_LIMIT, Printer, call, checked, response_schema, validate_record, wait_until)
from openapi_schema_validator import OAS30Validator


def test_every_endpoint_answers_as_the_openapi_document_says(printer):
    base = printer.base
    printer.print_pdf("first job", copies=2)
    printer.print_raw("not a document", b"\x00garbage" * 64)

    ended = checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=2&timeout=%d" % WAIT_LIMIT, 200)
    assert [job["job-state"] for job in ended] == ["completed", "aborted"]

    printers = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)
    assert printers[0]["printer-uri-supported"] == printer.uri.replace("localhost", "localhost")
    assert printers[0]["job-count"] == 2

    jobs = checked("GET", base, "/api/v1/jobs", "/api/v1/jobs", 200)
    assert [job["job-id"] for job in jobs] == [1, 2]
    name = printers[0]["printer-name"]
    assert len(checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?printer=" + urllib.parse.quote(name), 200)) == 2
    assert checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?printer=nobody", 200) == []
    completed = checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?state=completed", 200)
    assert [job["job-name"] for job in completed] == ["first job"]
    assert len(checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?state=ended", 200)) == 2
    assert checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?state=active", 200) == []
    by_name = checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?name=not%20a%20document", 200)
    assert [job["job-id"] for job in by_name] == [2]
    checked("GET", base, "/api/v1/jobs", "/api/v1/jobs?state=sleeping", 400)

    one = checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/1", 200)
    assert one == jobs[0]
    assert one["copies"] == 2 and one["job-impressions"] == 2 and one["impressions"][0]["file"] == "page-0001.png"
    checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/999", 404)

    png = checked("GET", base, "/api/v1/jobs/{id}/files/{file}", "/api/v1/jobs/1/files/page-0001.png", 200,
                  content_type="image/png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pdf = checked("GET", base, "/api/v1/jobs/{id}/files/{file}", "/api/v1/jobs/1/files/document-1.pdf", 200,
                  content_type="application/pdf")
    assert pdf.startswith(b"%PDF")
    checked("GET", base, "/api/v1/jobs/{id}/files/{file}", "/api/v1/jobs/1/files/page-0099.png", 404)

    timed_out = checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=3&timeout=0.2", 408)
    assert len(timed_out["jobs"]) == 2
    checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=0", 400)

    deleted = checked("DELETE", base, "/api/v1/jobs", "/api/v1/jobs", 200)
    assert deleted == {"deleted": 2}
    assert checked("GET", base, "/api/v1/jobs", "/api/v1/jobs", 200) == []
    checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/1", 404)

    for record in ended + jobs:
        validate_record(record)


def read_events(base, count, ready):
    """Reads `count` events from the event stream; returns (kind, data) pairs."""
    events = []
    with urllib.request.urlopen(base + "/api/v1/events", timeout=WAIT_LIMIT) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        ready.set()
        kind = None
        while len(events) < count:
            line = stream.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((kind, json.loads(line[len("data: "):])))
    return events


def test_the_event_stream_reports_a_job_from_creation_to_completion(printer):
    ready = threading.Event()
    result = []
    reader = threading.Thread(target=lambda: result.extend(read_events(printer.base, 3, ready)))
    reader.start()
    assert ready.wait(WAIT_LIMIT)
    printer.print_pdf("watched")
    reader.join(WAIT_LIMIT)
    assert not reader.is_alive()
    schema = dict(OPENAPI["components"]["schemas"]["Event"], components=OPENAPI["components"])
    for kind, data in result:
        OAS30Validator(schema).validate(data)
        assert data["event"] == kind
    assert result[0][0] == "job-created" and result[0][1]["job-id"] == 1
    assert [data["sequence"] for _, data in result] == sorted(data["sequence"] for _, data in result)


def test_a_reset_with_an_api_token_needs_the_bearer_token(folder):
    running = Printer(folder, "--api-token", "s3cret")
    try:
        running.print_pdf()
        checked("GET", running.base, "/api/v1/wait", "/api/v1/wait?jobs=1", 200)
        checked("DELETE", running.base, "/api/v1/jobs", "/api/v1/jobs", 403)
        checked("DELETE", running.base, "/api/v1/jobs", "/api/v1/jobs", 403, headers={"Authorization": "Bearer nope"})
        assert checked("DELETE", running.base, "/api/v1/jobs", "/api/v1/jobs", 200,
                       headers={"Authorization": "Bearer s3cret"}) == {"deleted": 1}
    finally:
        running.stop()


def test_unknown_methods_are_refused_with_405(printer):
    status, _, _ = call("PUT", printer.base + "/api/v1/jobs")
    assert status == 405
    status, _, _ = call("DELETE", printer.base + "/api/v1/printers")
    assert status == 405


def posted(base, path_template, path, body, status):
    """POSTs a JSON body and checks the answer against the OpenAPI document."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_LIMIT) as response:
            got, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        got, payload = error.code, error.read()
    assert got == status, "POST %s: %d %s" % (path, got, payload[:300])
    value = json.loads(payload)
    OAS30Validator(response_schema(path_template, "POST", status)).validate(value)
    return value


def test_the_fault_and_device_api_answers_as_the_openapi_document_says(printer):
    base = printer.base
    name = urllib.parse.quote(checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]["printer-name"])
    faults = "/api/v1/printers/%s/faults" % name
    added = posted(base, "/api/v1/printers/{name}/faults", faults,
                   {"name": "jam", "trigger": "now", "effect": {"add-reasons": ["media-jam-error"]}}, 201)
    assert len(added["added"]) == 1
    held = checked("GET", base, "/api/v1/printers/{name}/faults", faults, 200)
    assert held[0]["name"] == "jam" and "fired" in held[0]
    reasons = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]["printer-state-reasons"]
    assert "media-jam-error" in reasons
    bad = posted(base, "/api/v1/printers/{name}/faults", faults, {"trigger": "now", "effect": {"explode": 1}}, 400)
    assert "effect" in bad["error"]
    assert checked("DELETE", base, "/api/v1/printers/{name}/faults", faults, 200) == {"cleared": 1}
    assert "media-jam-error" not in checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0][
        "printer-state-reasons"]
    checked("DELETE", base, "/api/v1/printers/{name}/faults/{id}", faults + "/99", 404)
    posted(base, "/api/v1/printers/{name}/trays", "/api/v1/printers/%s/trays" % name, {"source": "main", "level": 0},
           200)
    assert "media-empty-report" in checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0][
        "printer-state-reasons"]
    posted(base, "/api/v1/printers/{name}/trays", "/api/v1/printers/%s/trays" % name, {"source": "main"}, 200)
    posted(base, "/api/v1/printers/{name}/trays", "/api/v1/printers/%s/trays" % name, {"source": "nowhere"}, 404)
    posted(base, "/api/v1/printers/{name}/supplies", "/api/v1/printers/%s/supplies" % name, {"index": 1, "level": 3},
           200)
    posted(base, "/api/v1/printers/{name}/supplies", "/api/v1/printers/%s/supplies" % name, {"level": 101}, 400)
    posted(base, "/api/v1/printers/{name}/output-bin", "/api/v1/printers/%s/output-bin" % name, {"level": 0}, 200)
    checked("GET", base, "/api/v1/printers/{name}/faults", "/api/v1/printers/nobody/faults", 404)
