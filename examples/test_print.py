"""Example: a pytest test that prints to vprinter and asserts on what was printed, using only Python's
standard library: it starts the printer, sends an IPP Print-Job request built by hand (RFC 8010), waits for the
job through the JSON API (GET /api/v1/wait) and checks the job record.

Run:  VPRINTER=path/to/vprinter pytest examples/test_print.py
(VPRINTER defaults to `vprinter` on PATH.)
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile
import urllib.request

import pytest

# RFC 8010 section 3.5.1 delimiter and value tags.
OPERATION_ATTRIBUTES = 0x01
JOB_ATTRIBUTES = 0x02
END_OF_ATTRIBUTES = 0x03
INTEGER = 0x21
NAME = 0x42
KEYWORD = 0x44
URI = 0x45
CHARSET = 0x47
LANGUAGE = 0x48
MIME_TYPE = 0x49
PRINT_JOB = 0x0002  # RFC 8011 section 4.2.1

# A one-page PDF with a line of text (PDF 1.4, hand-written; the cross-reference offsets are computed below).
PDF_OBJECTS = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
    b" /Resources << /Font << /F1 5 0 R >> >> >>",
    None,  # the content stream, below
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
]
CONTENT = b"BT /F1 36 Tf 72 600 Td (printed by pytest) Tj ET"


def sample_pdf():
    content = b"<< /Length %d >>\nstream\n" % len(CONTENT) + CONTENT + b"\nendstream"
    return pdf_document([content if body is None else body for body in PDF_OBJECTS])


def pdf_document(objects):
    """A PDF file of these objects, numbered from 1 (the first the catalog), with its cross-reference table."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    return out


def attribute(tag, name, value):
    """One attribute with one value (RFC 8010 section 3.1.4)."""
    encoded = struct.pack(">i", value) if tag == INTEGER else value.encode()
    return struct.pack(">BH", tag, len(name)) + name.encode() + struct.pack(">H", len(encoded)) + encoded


def print_job_request(printer_uri, job_name, document, copies=1):
    """A Print-Job request: version 2.0, operation, request-id, attribute groups, then the document."""
    body = struct.pack(">BBHI", 2, 0, PRINT_JOB, 1)
    body += bytes([OPERATION_ATTRIBUTES])
    body += attribute(CHARSET, "attributes-charset", "utf-8")
    body += attribute(LANGUAGE, "attributes-natural-language", "en")
    body += attribute(URI, "printer-uri", printer_uri)
    body += attribute(NAME, "requesting-user-name", "pytest")
    body += attribute(NAME, "job-name", job_name)
    body += attribute(MIME_TYPE, "document-format", "application/pdf")
    body += bytes([JOB_ATTRIBUTES])
    body += attribute(INTEGER, "copies", copies)
    body += attribute(KEYWORD, "sides", "one-sided")
    body += bytes([END_OF_ATTRIBUTES])
    return body + document


@pytest.fixture
def printer():
    """Starts vprinter on a free port without DNS-SD; yields (ipp uri, http base); stops it afterwards."""
    binary = os.environ.get("VPRINTER") or shutil.which("vprinter") or "vprinter"
    output = tempfile.mkdtemp(prefix="vprinter-pytest-")
    process = subprocess.Popen(
        [binary, "--port", "0", "--no-dnssd", "--output-dir", output],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        uri = process.stdout.readline().strip()
        assert uri.startswith("ipp://"), "vprinter printed no URI"
        authority = uri[len("ipp://"):].split("/", 1)[0]
        yield uri, "http://" + authority
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(output, ignore_errors=True)


def post_ipp(uri, body):
    url = "http://" + uri[len("ipp://"):]
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = response.read()
    status = struct.unpack(">H", answer[2:4])[0]
    assert status < 0x0100, "IPP status 0x%04x" % status
    return answer


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def test_a_printed_pdf_is_recorded_with_its_ticket_and_rendered_pages(printer):
    uri, base = printer
    document = sample_pdf()
    post_ipp(uri, print_job_request(uri, "pytest example", document, copies=2))

    jobs = get_json(base + "/api/v1/wait?jobs=1&timeout=30")

    assert len(jobs) == 1
    job = jobs[0]
    assert job["schema"] == 1
    assert job["job-state"] == "completed"
    assert job["job-name"] == "pytest example"
    assert job["job-originating-user-name"] == "pytest"
    assert job["attributes"]["copies"] == 2
    assert job["documents"][0]["document-format-detected"] == "application/pdf"
    assert job["documents"][0]["size"] == len(document)
    assert job["documents"][0]["pages"] == 1
    assert len(job["impressions"]) == 1
    assert job["job-impressions"] == 2
    page = job["impressions"][0]["file"]
    with urllib.request.urlopen("%s/api/v1/jobs/%d/files/%s" % (base, job["job-id"], page), timeout=30) as response:
        assert response.read(8) == b"\x89PNG\r\n\x1a\n"
