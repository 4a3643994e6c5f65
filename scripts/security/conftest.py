"""Fixtures of the security tests (docs/security.md): a --tls printer with credentials, and IPP to a printer over
TLS or in the clear with the HTTP answer whatever its status (401 without credentials, 426 for credentials in the
clear). Printers come from vptest's start_printer."""
import pathlib

import pytest
from vprinter import ipp
from vptest import calls
from vptest.documents import SAMPLE_PDF

# The accounts of the authenticated printer: alice is the admin.
USERS = ["--user", "alice:wonder land", "--user", "bob:builder", "--user", "carol:c:o:l", "--admin", "alice"]
ALICE = "alice:wonder land"
BOB = "bob:builder"
CAROL = "carol:c:o:l"


@pytest.fixture
def secured(start_printer):
    """A --tls printer with three users, alice the admin."""
    return start_printer("--tls", *USERS)


def ipp_call(printer, operation, attributes=(), document=b"", tls=True, user=None, requesting_user="pytest",
             headers=None):
    """An IPP request to the printer, over TLS (ipps://) or in the clear (ipp:// on the same port), with HTTP Basic
    credentials `user` ("name:password") and requesting-user-name first among `attributes`; returns (HTTP status,
    HTTP headers, IPP status or None, the decoded answer or None)."""
    uri = "%s://%s%s" % ("ipps" if tls else "ipp", printer.authority, printer.path)
    answer, message = printer.ipp_exchange(operation, list(attributes), document=document, uri=uri,
                                           user=requesting_user, auth=user, headers=headers)
    return answer.status, answer.headers, message.status if message else None, message


def print_job(printer, tls=True, user=None, requesting_user="pytest", name="security test"):
    """Print-Job of the sample PDF (see ipp_call)."""
    attributes = [("job-name", name), ("document-format", "application/pdf")]
    return ipp_call(printer, ipp.PRINT_JOB, attributes, SAMPLE_PDF, tls, user, requesting_user)


def connect(printer, tls=True):
    """A socket connected to the printer's port on 127.0.0.1, TLS from the first byte or plain."""
    return calls.connect("127.0.0.1:%d" % printer.port, tls)


def job_folders(printer):
    """The names of the job folders in the printer's output folder."""
    jobs = pathlib.Path(printer.output_dir) / "jobs"
    return sorted(path.name for path in jobs.iterdir()) if jobs.exists() else []


def upgraded(printer, request):
    """Sends a plaintext request that asks to upgrade to TLS (RFC 2817) to the printer's port, checks the 101,
    and returns the TLS socket that the answer to the request comes over."""
    raw = connect(printer, tls=False)
    raw.sendall(request)
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert head.startswith(b"HTTP/1.1 101 "), head
    return calls.tls_context().wrap_socket(raw)
