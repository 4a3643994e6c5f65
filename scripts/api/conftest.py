"""Shared fixtures of the JSON API tests: a running vprinter (the built binary), raw IPP printing, HTTP calls, and
validation against docs/openapi.json and docs/job-record.schema.json.

The binary is VPRINTER (set by scripts/api-test). Every job.json a test left is checked against
docs/job-record.schema.json when its folder is removed (RECORDS_CHECKED counts them).
"""
import glob
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from openapi_schema_validator import OAS30Validator
import jsonschema

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples"))
import test_print as ipp  # noqa: E402  (the example's stdlib IPP encoder)

OPENAPI = json.loads((REPO / "docs" / "openapi.json").read_text())
RECORD_SCHEMA = json.loads((REPO / "docs" / "job-record.schema.json").read_text())
# Every job.json checked against the record schema in this run.
RECORDS_CHECKED = []
# The longest any wait of these tests lasts, in seconds.
WAIT_LIMIT = 30


class Printer:
    """One vprinter process: start with arguments, URI and API base, stop (SIGTERM) or kill (SIGKILL)."""

    def __init__(self, output, *arguments):
        self.output = output
        self.stderr = open(os.path.dirname(output) + "/vprinter.stderr.log", "ab")
        started = time.monotonic()
        self.process = subprocess.Popen(
            [os.environ["VPRINTER"], "--port", "0", "--no-dnssd", "--output-dir", output, *arguments],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.uri = self.process.stdout.readline().strip()
        self.startup_seconds = time.monotonic() - started
        assert self.uri.startswith("ipp://"), "vprinter printed no URI"
        self.base = "http://" + self.uri[len("ipp://"):].split("/", 1)[0]

    def print_pdf(self, name="api test", copies=1, document=None):
        """Print-Job with a one-page PDF; returns the raw IPP response."""
        return ipp.post_ipp(self.uri, ipp.print_job_request(self.uri, name, document or ipp.sample_pdf(), copies))

    def print_raw(self, name, document, document_format="application/octet-stream"):
        """Print-Job with any bytes as the document; returns the raw IPP response."""
        body = build_request(self.uri, name, document_format) + document
        request = urllib.request.Request(self.uri.replace("ipp://", "http://"), data=body,
                                         headers={"Content-Type": "application/ipp"})
        with urllib.request.urlopen(request, timeout=WAIT_LIMIT) as response:
            return response.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=WAIT_LIMIT)
        self.stderr.close()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT_LIMIT)
        self.stderr.close()


def build_request(uri, name, document_format, user="api-test"):
    body = ipp.struct.pack(">BBHI", 2, 0, ipp.PRINT_JOB, 1) + bytes([ipp.OPERATION_ATTRIBUTES])
    body += ipp.attribute(ipp.CHARSET, "attributes-charset", "utf-8")
    body += ipp.attribute(ipp.LANGUAGE, "attributes-natural-language", "en")
    body += ipp.attribute(ipp.URI, "printer-uri", uri)
    body += ipp.attribute(ipp.NAME, "requesting-user-name", user)
    body += ipp.attribute(ipp.NAME, "job-name", name)
    body += ipp.attribute(ipp.MIME_TYPE, "document-format", document_format)
    return body + bytes([ipp.END_OF_ATTRIBUTES])


@pytest.fixture
def folder():
    """A fresh output folder; when the test is done, every job.json in it is checked against the record schema,
    then the folder is removed."""
    path = tempfile.mkdtemp(prefix="vprinter-api-")
    yield os.path.join(path, "output")
    try:
        for record_path in glob.glob(path + "/output/jobs/*/job.json"):
            with open(record_path) as file:
                validate_record(json.load(file))
            RECORDS_CHECKED.append(record_path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def printer(folder):
    running = Printer(folder)
    yield running
    running.stop()


def call(method, url, headers=None, timeout=WAIT_LIMIT + 10):
    """An HTTP call; returns (status, content type, body bytes) for any status."""
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def response_schema(path, method, status, content_type="application/json"):
    """The schema docs/openapi.json gives for a response, with the components it refers to."""
    responses = OPENAPI["paths"][path][method.lower()]["responses"]
    assert str(status) in responses, "%s %s: status %d is not documented" % (method, path, status)
    content = responses[str(status)].get("content", {})
    assert content_type in content, "%s %s %d: %s is not documented" % (method, path, status, content_type)
    return dict(content[content_type]["schema"], components=OPENAPI["components"])


def checked(method, base, path_template, path, status, headers=None, content_type="application/json"):
    """Calls the API and checks the status and the body against the OpenAPI document; returns the decoded JSON
    (or the bytes for other content types)."""
    got_status, got_type, body = call(method, base + path, headers)
    assert got_status == status, "%s %s: %d %s" % (method, path, got_status, body[:300])
    assert got_type.split(";")[0] == content_type
    if content_type != "application/json":
        response_schema(path_template, method, status, content_type)
        return body
    value = json.loads(body)
    OAS30Validator(response_schema(path_template, method, status)).validate(value)
    return value


def validate_record(record):
    jsonschema.Draft7Validator(RECORD_SCHEMA).validate(record)


def wait_until(predicate, limit=WAIT_LIMIT):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()
