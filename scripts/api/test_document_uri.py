"""Print-URI and Send-URI (docs/profiles.md `documentURI`): a printer whose profile offers them fetches the document
from an http or ftp URI itself, as real printers that list them do, prints it and records it; file: and other
schemes are refused, a document that cannot be fetched aborts its job with document-access-error, and a profile without them
refuses the operations as every IPP Everywhere printer does.

Where the printer fetches from (docs/security.md, "What the printer fetches"): never its own listeners; loopback only
while it listens on loopback alone (these tests' document servers are on 127.0.0.1, so their printers get
``--listen 127.0.0.1``, as a user's test with a local document server would) or with ``--fetch-allow``. 127.0.0.2
stands in for another service on the printer's host: nothing here sends a packet beyond loopback."""
import functools
import json
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
BAD_REQUEST = 0x0400
# The printers of the tests whose document servers are on loopback.
ON_LOOPBACK = ("--listen", "127.0.0.1")


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A web server on 127.0.0.1 serving a three-page PDF at /doc.pdf, /moved redirecting to it and 404 elsewhere;
    its base URL."""
    for url, _ in serve(tmp_path_factory, "127.0.0.1"):
        yield url


@pytest.fixture(scope="module")
def other_service(tmp_path_factory):
    """The same web server on 127.0.0.2: another service of the printer's host, which a client on the LAN cannot
    reach but the printer could; its base URL and the paths it was asked for."""
    yield from serve(tmp_path_factory, "127.0.0.2")


def serve(tmp_path_factory, address):
    folder = tmp_path_factory.mktemp("web")
    (folder / "doc.pdf").write_bytes(documents.pdf(["fetched %d" % page for page in (1, 2, 3)]))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            self.server.requests.append(self.path)
            if self.path == "/moved":
                self.send_response(302)
                self.send_header("Location", "/doc.pdf")
                self.end_headers()
                return
            super().do_GET()

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer((address, 0), functools.partial(Handler, directory=folder))
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "http://%s:%d" % (address, server.server_address[1]), server.requests
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
    printer = start_printer(*ON_LOOPBACK, profile=OFFERING)
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
    printer = start_printer(*ON_LOOPBACK, profile=OFFERING)
    schemes = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "reference-uri-schemes-supported"})
    assert "ftp" in schemes.values("reference-uri-schemes-supported")
    answer = printer.ipp(ipp.PRINT_URI, {"document-uri": ftp + "/pub/doc.pdf"})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    record = printer.wait(1)[0]
    assert record["job-state"] == "completed" and record["documents"][0]["pages"] == 2
    missing = printer.ipp(ipp.PRINT_URI, {"document-uri": ftp + "/pub/missing.pdf"})
    assert missing.status == DOCUMENT_ACCESS_ERROR and "FTP server answered 550" in missing.status_message


def test_send_uri_adds_a_fetched_document_to_a_job(start_printer, web):
    printer = start_printer(*ON_LOOPBACK, profile=OFFERING)
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
    printer = start_printer(*ON_LOOPBACK, profile=OFFERING)
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


@pytest.mark.parametrize("listen", [(), ON_LOOPBACK], ids=["all-addresses", "loopback-alone"])
def test_print_uri_never_fetches_the_printers_own_api(start_printer, listen):
    """Issue 40's first attack: Print-URI of the printer's own API stored its answer as the job's document."""
    printer = start_printer(*listen, profile=OFFERING)
    own = "http://127.0.0.1:%d/api/v1/printers" % printer.port
    refused = printer.ipp(ipp.PRINT_URI, {"document-uri": own})
    assert refused.status == DOCUMENT_ACCESS_ERROR, refused.status_message
    assert "own listeners" in refused.status_message
    record = printer.checked("GET", "/api/v1/jobs/%d" % refused.job_id)
    assert record["job-state"] == "aborted" and record["documents"] == []
    files = printer.http("GET", "/api/v1/jobs/%d/files/document-1.bin" % refused.job_id)
    assert files.status == 404


def test_another_service_on_loopback_is_fetched_only_where_a_client_could_reach_it(start_printer, other_service):
    """A printer that listens beyond loopback does not fetch from loopback (a LAN client could not); the answer is
    the same whether the port is open or closed, so it tells nothing of what listens there. ``--fetch-allow`` and a
    printer on loopback alone fetch it."""
    url, requests = other_service
    printer = start_printer(profile=OFFERING)
    refused = printer.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"})
    assert refused.status == DOCUMENT_ACCESS_ERROR
    assert "fetched only while the printer listens on loopback alone" in refused.status_message
    assert "--fetch-allow 127.0.0.2:" in refused.status_message
    closed = printer.ipp(ipp.PRINT_URI, {"document-uri": "http://127.0.0.2:1/doc.pdf"})
    assert closed.status == DOCUMENT_ACCESS_ERROR
    assert "fetched only while the printer listens on loopback alone" in closed.status_message
    assert requests == [], "the refused fetch reached the server"
    allowed = start_printer("--fetch-allow", "127.0.0.2", profile=OFFERING)
    fetched = allowed.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"})
    assert fetched.status == ipp.SUCCESSFUL_OK, fetched.status_message
    alone = start_printer(*ON_LOOPBACK, profile=OFFERING)
    assert alone.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"}).status == ipp.SUCCESSFUL_OK
    assert alone.wait(1)[0]["documents"][0]["pages"] == 3
    denied = start_printer(*ON_LOOPBACK, "--fetch-deny", "127.0.0.2", profile=OFFERING)
    refused_by_rule = denied.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"})
    assert refused_by_rule.status == DOCUMENT_ACCESS_ERROR
    assert "refused by --fetch-deny 127.0.0.2" in refused_by_rule.status_message


def test_a_document_uri_with_a_line_break_is_refused_and_deletes_nothing(start_printer, web):
    """Issue 40's second attack: a CR/LF in document-uri put a second request (DELETE /api/v1/jobs) into the fetch,
    which the printer's own server answered with loopback's rights."""
    printer = start_printer(*ON_LOOPBACK, profile=OFFERING)
    printer.print_job(name="kept")
    printer.wait(1)
    smuggled = "http://127.0.0.1:%d/livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nDELETE /api/v1/jobs" % printer.port
    refused = printer.ipp(ipp.PRINT_URI, {"document-uri": smuggled})
    assert refused.status == BAD_REQUEST, refused.status_message
    assert "document-uri is not a URI" in refused.status_message and refused.job_id is None
    assert [record["job-name"] for record in printer.checked("GET", "/api/v1/jobs")] == ["kept"]
    findings = printer.checked("GET", "/api/v1/requests?operation=Print-URI")[-1]["findings"]
    assert "uri-syntax" in {finding["rule"] for finding in findings}


def test_a_config_file_gives_one_printer_fetch_rules_of_its_own(start_printer, other_service, tmp_path):
    """docs/config.md: fetch-allow in a printer's options applies to that printer only, after the process's."""
    url, _ = other_service
    config = tmp_path / "fleet.json"
    config.write_text(json.dumps({"printers": [
        {"profile": OFFERING, "name": "allowed", "options": {"fetch-allow": "127.0.0.2"}},
        {"profile": OFFERING, "name": "plain"}]}))
    printer = start_printer("--config", str(config))
    allowed, plain = printer.uris
    fetched = printer.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"}, uri=allowed)
    assert fetched.status == ipp.SUCCESSFUL_OK, fetched.status_message
    refused = printer.ipp(ipp.PRINT_URI, {"document-uri": url + "/doc.pdf"}, uri=plain)
    assert refused.status == DOCUMENT_ACCESS_ERROR and "--fetch-allow" in refused.status_message
