"""Print-URI and Send-URI (docs/profiles.md `documentURI`): a printer whose profile offers them fetches the document
from an http or ftp URI itself, as real printers that list them do, prints it and records it; file: and other
schemes are refused, a document that cannot be fetched aborts its job with document-access-error, and a profile without them
refuses the operations as every IPP Everywhere printer does."""
import functools
import http.server
import threading

import pytest
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import ThreadedFTPServer

from vprinter import documents, ipp

OFFERING = "enterprise-laser"
PLAIN = "duplex-laser"
# RFC 8011 status codes the Python client names by number.
URI_SCHEME_NOT_SUPPORTED = 0x040C
DOCUMENT_ACCESS_ERROR = 0x0412
OPERATION_NOT_SUPPORTED = 0x0501


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A web server on loopback serving a three-page PDF at /doc.pdf, /moved redirecting to it and 404 elsewhere;
    its base URL."""
    folder = tmp_path_factory.mktemp("web")
    (folder / "doc.pdf").write_bytes(documents.pdf(["fetched %d" % page for page in (1, 2, 3)]))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/moved":
                self.send_response(302)
                self.send_header("Location", "/doc.pdf")
                self.end_headers()
                return
            super().do_GET()

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def ftp(tmp_path_factory):
    """An anonymous FTP server (pyftpdlib) on loopback serving a two-page PDF at /pub/doc.pdf; its base URL."""
    folder = tmp_path_factory.mktemp("ftp")
    (folder / "pub").mkdir()
    (folder / "pub" / "doc.pdf").write_bytes(documents.pdf(["over ftp %d" % page for page in (1, 2)]))
    authorizer = DummyAuthorizer()
    authorizer.add_anonymous(str(folder))

    class Handler(FTPHandler):
        pass

    Handler.authorizer = authorizer
    server = ThreadedFTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"handle_exit": False}, daemon=True)
    thread.start()
    yield "ftp://127.0.0.1:%d" % server.address[1]
    server.close_all()


def operations(printer):
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "operations-supported"})
    return set(answer.values("operations-supported"))


def test_print_uri_fetches_prints_and_records_the_document(start_printer, web):
    printer = start_printer(profile=OFFERING)
    assert {ipp.PRINT_URI, ipp.SEND_URI} <= operations(printer)
    schemes = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "reference-uri-schemes-supported"})
    assert schemes.values("reference-uri-schemes-supported") == ["ftp", "http", "https"]
    answer = printer.ipp(ipp.PRINT_URI, {"document-uri": web + "/moved", "job-name": "fetched"})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    record = printer.wait(1)[0]
    assert record["job-state"] == "completed"
    assert record["documents"][0]["pages"] == 3
    assert record["documents"][0]["document-name"] == web + "/moved"
    sides = printer.checked("GET", "/api/v1/jobs/%d/text" % record["job-id"])["sides"]
    assert "fetched 2" in sides[1]["text"]


def test_print_uri_fetches_over_ftp(start_printer, ftp):
    printer = start_printer(profile=OFFERING)
    schemes = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "reference-uri-schemes-supported"})
    assert "ftp" in schemes.values("reference-uri-schemes-supported")
    answer = printer.ipp(ipp.PRINT_URI, {"document-uri": ftp + "/pub/doc.pdf"})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    record = printer.wait(1)[0]
    assert record["job-state"] == "completed" and record["documents"][0]["pages"] == 2
    missing = printer.ipp(ipp.PRINT_URI, {"document-uri": ftp + "/pub/missing.pdf"})
    assert missing.status == DOCUMENT_ACCESS_ERROR and "FTP server answered 550" in missing.status_message


def test_send_uri_adds_a_fetched_document_to_a_job(start_printer, web):
    printer = start_printer(profile=OFFERING)
    job = printer.ipp(ipp.CREATE_JOB, {"job-name": "two documents"}).job_id
    uploaded = printer.ipp(ipp.SEND_DOCUMENT, {"job-id": job, "last-document": False,
                                               "document-format": "application/pdf"},
                           document=documents.pdf(["uploaded"]))
    assert uploaded.status == ipp.SUCCESSFUL_OK
    fetched = printer.ipp(ipp.SEND_URI, {"job-id": job, "last-document": True, "document-uri": web + "/doc.pdf"})
    assert fetched.status == ipp.SUCCESSFUL_OK, fetched.status_message
    record = printer.wait(1)[0]
    assert [document["pages"] for document in record["documents"]] == [1, 3]


def test_unfetchable_documents_abort_the_job_and_other_schemes_are_refused(start_printer, web):
    printer = start_printer(profile=OFFERING)
    for uri in ("file:///etc/passwd", "gopher://127.0.0.1/doc.pdf"):
        refused = printer.ipp(ipp.PRINT_URI, {"document-uri": uri})
        assert refused.status == URI_SCHEME_NOT_SUPPORTED, refused.status_message
        assert refused.job_id is None
    missing = printer.ipp(ipp.PRINT_URI, {"document-uri": web + "/missing.pdf"})
    assert missing.status == DOCUMENT_ACCESS_ERROR
    assert "HTTP 404" in missing.status_message
    assert missing.get("job-state-reasons") == "document-access-error"
    record = printer.checked("GET", "/api/v1/jobs/%d" % missing.job_id)
    assert record["job-state"] == "aborted" and "document-access-error" in record["job-state-reasons"]


def test_a_profile_without_them_refuses_print_uri(start_printer, web):
    printer = start_printer(profile=PLAIN)
    assert not {ipp.PRINT_URI, ipp.SEND_URI} & operations(printer)
    refused = printer.ipp(ipp.PRINT_URI, {"document-uri": web + "/doc.pdf"})
    assert refused.status == OPERATION_NOT_SUPPORTED
