"""IPP over HTTP (RFC 8010 section 4; ipps:// over TLS, RFC 7472): requests POSTed to a printer URI's HTTP
address, and Print-Job with a job ticket."""
import collections
import http.client
import os
import ssl
import urllib.parse

from .decoder import decode, decode_message
from .encoder import request
from .error import IPPError
from .tags import FIRST_ERROR_STATUS, JOB_ATTRIBUTES, OPERATION_ATTRIBUTES, PRINT_JOB

# File name endings and the document-format they are sent as.
FORMATS = {
    ".pdf": "application/pdf", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png",
    ".pwg": "image/pwg-raster", ".ras": "image/pwg-raster", ".urf": "image/urf", ".ps": "application/postscript",
    ".pclm": "application/PCLm", ".txt": "text/plain",
}
# Documents are sent in pieces of this many bytes.
CHUNK_SIZE = 1 << 16
# IPP's port when a URI names none (RFC 8010 section 4.1; also for ipps, RFC 7472 section 4).
DEFAULT_PORT = 631

HTTPAnswer = collections.namedtuple("HTTPAnswer", "status reason headers body")
HTTPAnswer.__doc__ = "An HTTP answer: status code, reason phrase, headers (an email.message.Message), body bytes."


def insecure_context():
    """A TLS client context that accepts any certificate: for a printer whose self-signed certificate the caller
    trusts because it started that printer itself."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def format_of(path):
    """The document-format a file is sent as, from its name."""
    return FORMATS.get(os.path.splitext(str(path))[1].lower(), "application/octet-stream")


def _connection(printer_uri, timeout, context):
    url = urllib.parse.urlsplit(printer_uri)
    if url.scheme in ("ipp", "http"):
        connection = http.client.HTTPConnection(url.hostname, url.port or DEFAULT_PORT, timeout=timeout)
    elif url.scheme in ("ipps", "https"):
        connection = http.client.HTTPSConnection(url.hostname, url.port or DEFAULT_PORT, timeout=timeout,
                                                 context=context or ssl.create_default_context())
    else:
        raise ValueError("only ipp://, ipps://, http:// and https:// printer URIs can be printed to, not %r"
                         % printer_uri)
    return connection, url.path or "/"


def exchange(printer_uri, body, headers=None, timeout=60, context=None, content_length=None):
    """POSTs ``body`` to the printer URI's HTTP address and returns the HTTPAnswer, whatever its status.

    ``body`` is bytes, or an iterable of bytes pieces, sent as they come: with chunked transfer coding unless
    ``content_length`` gives their total. ``headers`` are added to (or replace) the Host of the URI and ``Content-Type:
    application/ipp``; ``context`` is the TLS context for ipps:// (default: one that verifies the certificate).
    """
    connection, path = _connection(printer_uri, timeout, context)
    if isinstance(body, (bytes, bytearray)):
        body, content_length = [bytes(body)], len(body)
    fields = {"Content-Type": "application/ipp"}
    fields.update(headers or {})
    if content_length is None:
        fields["Transfer-Encoding"] = "chunked"
    else:
        fields["Content-Length"] = str(content_length)
    try:
        # A Host among the headers replaces the one of the URI (a test of what a printer answers to).
        connection.putrequest("POST", path, skip_host=any(name.lower() == "host" for name in fields))
        for name, value in fields.items():
            connection.putheader(name, value)
        connection.endheaders()
        for piece in body:
            if content_length is not None:
                connection.send(piece)
            elif piece:
                connection.send(b"%x\r\n%s\r\n" % (len(piece), piece))
        if content_length is None:
            connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        return HTTPAnswer(response.status, response.reason, response.headers, response.read())
    finally:
        connection.close()


def post(printer_uri, body_parts, content_length, timeout=60, headers=None, context=None):
    """POSTs an IPP request (bytes, or pieces of it) to the printer's HTTP address; returns the answer bytes.
    Raises IPPError when the HTTP status is not 200."""
    answer = exchange(printer_uri, body_parts, headers, timeout, context, content_length)
    if answer.status != 200:
        raise IPPError("HTTP %d %s from %s" % (answer.status, answer.reason, printer_uri),
                       http_status=answer.status)
    return answer.body


def send(printer_uri, ipp_request, document=b"", timeout=60, headers=None, context=None):
    """POSTs an encoded request (see request()) and its document; returns the decoded answer, a Message, whatever
    its IPP status. Raises IPPError when the HTTP status is not 200 or the answer is not IPP."""
    body = bytes(ipp_request) + bytes(document)
    return decode_message(post(printer_uri, [body], len(body), timeout, headers, context))


def print_job(printer_uri, document, document_format=None, job_name="pytest", user="pytest", timeout=60,
              headers=None, context=None, **job_attributes):
    """Sends Print-Job with ``document`` (bytes, or a file path) and the job ticket (``copies=2``,
    ``sides="two-sided-long-edge"``, ``media="iso_a4_210x297mm"``; ``_`` may stand for ``-``); returns the job-id.

    ``document_format`` defaults to the file name's (``.pdf`` -> application/pdf), for bytes to
    application/octet-stream (the printer detects the format). Raises IPPError for an error status (its message
    names the status and the printer's status-message). ``headers`` and ``context`` are exchange()'s.
    """
    if isinstance(document, (bytes, bytearray, memoryview)):
        data = bytes(document)
        size = len(data)
        mime_type = document_format or "application/octet-stream"

        def pieces():
            yield data
    else:
        path = os.fspath(document)
        size = os.path.getsize(path)
        mime_type = document_format or format_of(path)

        def pieces():
            with open(path, "rb") as file:
                while True:
                    chunk = file.read(CHUNK_SIZE)
                    if not chunk:
                        return
                    yield chunk
    operation = {"requesting-user-name": user, "job-name": job_name, "document-format": mime_type}
    header = request(PRINT_JOB, printer_uri, operation_attributes=operation, job_attributes=job_attributes)

    def body():
        yield header
        yield from pieces()

    answer = post(printer_uri, body(), len(header) + size, timeout=timeout, headers=headers, context=context)
    status, groups = decode(answer)
    if status >= FIRST_ERROR_STATUS:
        message = groups.get(OPERATION_ATTRIBUTES, {}).get("status-message", [""])[0]
        raise IPPError("Print-Job to %s: status 0x%04x %s" % (printer_uri, status, message), status, groups)
    job = groups.get(JOB_ATTRIBUTES, {})
    if "job-id" not in job:
        raise IPPError("Print-Job to %s answered no job-id" % printer_uri, status, groups)
    return job["job-id"][0]
