"""Every endpoint of the JSON API, called on a running printer after real IPP print jobs; every answer is checked
against docs/openapi.json, every job record against docs/job-record.schema.json."""
import json
import threading
import urllib.parse
import urllib.request

from vptest.openapi import validate_component
from vptest.records import validate_record
from vptest.waiting import WAIT_LIMIT


def test_every_endpoint_answers_as_the_openapi_document_says(printer):
    checked = printer.checked
    printer.print_job(name="first job", copies=2)
    printer.print_job(b"\x00garbage" * 64, name="not a document", user="api-test",
                      document_format="application/octet-stream")

    ended = checked("GET", "/api/v1/wait?jobs=2&timeout=%d" % WAIT_LIMIT, 200)
    assert [job["job-state"] for job in ended] == ["completed", "aborted"]

    printers = checked("GET", "/api/v1/printers", 200)
    assert printers[0]["printer-uri-supported"] == printer.uri
    assert printers[0]["job-count"] == 2

    jobs = checked("GET", "/api/v1/jobs", 200)
    assert [job["job-id"] for job in jobs] == [1, 2]
    name = printers[0]["printer-name"]
    assert len(checked("GET", "/api/v1/jobs?printer=" + urllib.parse.quote(name), 200)) == 2
    assert checked("GET", "/api/v1/jobs?printer=nobody", 200) == []
    completed = checked("GET", "/api/v1/jobs?state=completed", 200)
    assert [job["job-name"] for job in completed] == ["first job"]
    assert len(checked("GET", "/api/v1/jobs?state=ended", 200)) == 2
    assert checked("GET", "/api/v1/jobs?state=active", 200) == []
    by_name = checked("GET", "/api/v1/jobs?name=not%20a%20document", 200)
    assert [job["job-id"] for job in by_name] == [2]
    checked("GET", "/api/v1/jobs?state=sleeping", 400)

    one = checked("GET", "/api/v1/jobs/1", 200)
    assert one == jobs[0]
    assert one["copies"] == 2 and one["job-impressions"] == 2 and one["impressions"][0]["file"] == "page-0001.png"
    checked("GET", "/api/v1/jobs/999", 404)

    png = checked("GET", "/api/v1/jobs/1/files/page-0001.png", 200, content_type="image/png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pdf = checked("GET", "/api/v1/jobs/1/files/document-1.pdf", 200, content_type="application/pdf")
    assert pdf.startswith(b"%PDF")
    checked("GET", "/api/v1/jobs/1/files/page-0099.png", 404)

    timed_out = checked("GET", "/api/v1/wait?jobs=3&timeout=0.2", 408)
    assert len(timed_out["jobs"]) == 2
    checked("GET", "/api/v1/wait?jobs=0", 400)

    deleted = checked("DELETE", "/api/v1/jobs", 200)
    assert deleted == {"deleted": 2}
    assert checked("GET", "/api/v1/jobs", 200) == []
    checked("GET", "/api/v1/jobs/1", 404)

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
    reader = threading.Thread(target=lambda: result.extend(read_events(printer.base_url, 3, ready)))
    reader.start()
    assert ready.wait(WAIT_LIMIT)
    printer.print_job(name="watched")
    reader.join(WAIT_LIMIT)
    assert not reader.is_alive()
    for kind, data in result:
        validate_component("Event", data)
        assert data["event"] == kind
    assert result[0][0] == "job-created" and result[0][1]["job-id"] == 1
    assert [data["sequence"] for _, data in result] == sorted(data["sequence"] for _, data in result)


def test_a_reset_with_an_api_token_needs_the_bearer_token(start_printer):
    running = start_printer("--api-token", "s3cret")
    running.print_job()
    running.checked("GET", "/api/v1/wait?jobs=1", 200)
    running.checked("DELETE", "/api/v1/jobs", 403)
    running.checked("DELETE", "/api/v1/jobs", 403, headers={"Authorization": "Bearer nope"})
    assert running.checked("DELETE", "/api/v1/jobs", 200, headers={"Authorization": "Bearer s3cret"}) == {
        "deleted": 1}


def test_unknown_methods_are_refused_with_405(printer):
    status, _, _ = printer.http("PUT", "/api/v1/jobs")
    assert status == 405
    status, _, _ = printer.http("DELETE", "/api/v1/printers")
    assert status == 405


def test_the_fault_and_device_api_answers_as_the_openapi_document_says(printer):
    checked = printer.checked
    name = urllib.parse.quote(checked("GET", "/api/v1/printers", 200)[0]["printer-name"])
    faults = "/api/v1/printers/%s/faults" % name
    added = checked("POST", faults, 201,
                    {"name": "jam", "trigger": "now", "effect": {"add-reasons": ["media-jam-error"]}})
    assert len(added["added"]) == 1
    held = checked("GET", faults, 200)
    assert held[0]["name"] == "jam" and "fired" in held[0]
    reasons = checked("GET", "/api/v1/printers", 200)[0]["printer-state-reasons"]
    assert "media-jam-error" in reasons
    bad = checked("POST", faults, 400, {"trigger": "now", "effect": {"explode": 1}})
    assert "effect" in bad["error"]
    assert checked("DELETE", faults, 200) == {"cleared": 1}
    assert "media-jam-error" not in checked("GET", "/api/v1/printers", 200)[0]["printer-state-reasons"]
    checked("DELETE", faults + "/99", 404)
    checked("POST", "/api/v1/printers/%s/trays" % name, 200, {"source": "main", "level": 0})
    assert "media-empty-report" in checked("GET", "/api/v1/printers", 200)[0]["printer-state-reasons"]
    checked("POST", "/api/v1/printers/%s/trays" % name, 200, {"source": "main"})
    checked("POST", "/api/v1/printers/%s/trays" % name, 404, {"source": "nowhere"})
    checked("POST", "/api/v1/printers/%s/supplies" % name, 200, {"index": 1, "level": 3})
    checked("POST", "/api/v1/printers/%s/supplies" % name, 400, {"level": 101})
    checked("POST", "/api/v1/printers/%s/output-bin" % name, 200, {"level": 0})
    checked("GET", "/api/v1/printers/nobody/faults", 404)
