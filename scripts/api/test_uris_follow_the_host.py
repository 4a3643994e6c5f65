"""Every URI the printer gives names the host and port the client addressed (the HTTP Host field), so that a client
on another machine, or behind a forwarded port, can follow them: RFC 8011 section 4.1.5 (a printer-uri the client
is given must reach the printer) and the IPP Everywhere self-certification's WITH-HOSTNAME checks of
printer-more-info and printer-supply-info-uri (PWG ippeveselfcert 1.1, ipp-tests.test, I-10).

These run on loopback with a Host field set by hand; scripts/clients/test_lan_phone.py checks the same from a
second network namespace, where the client's own Host field is the printer's advertised name."""
import urllib.parse

import pytest

from vprinter import ipp
from vptest.documents import SAMPLE_PDF

# Names a client might reach the printer by, allowed by the printer's Host policy (--allowed-host .DOMAIN).
DOMAIN = "vprinter.test"

# The URI attributes a Get-Printer-Attributes answer builds from the request's Host.
PRINTER_URIS = ("printer-uri-supported", "printer-more-info", "printer-supply-info-uri", "printer-icons",
                "printer-strings-uri")


def uri_attributes(printer, host_field):
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": list(PRINTER_URIS)},
                         headers={"Host": host_field})
    assert answer.status == 0, "Get-Printer-Attributes with Host %s: 0x%04x" % (host_field, answer.status)
    return {name: answer.values(name) for name in PRINTER_URIS}


@pytest.fixture
def printer(start_printer):
    return start_printer("--allowed-host", "." + DOMAIN)


def authorities(values):
    return {urllib.parse.urlsplit(str(uri)).netloc for uri in values}


def test_the_printers_uris_name_the_host_and_port_the_client_addressed(printer):
    # A name of this machine, an address and an IPv6 literal, on the printer's own port and on a forwarded one
    # (a container's published port, a NAT): the client reaches the printer as HOST:PORT, and so must the URIs.
    for host_field in ("phone-view.vprinter.test:%d" % printer.port, "phone-view.vprinter.test:18000", "127.0.0.1:9631",
                       "[::1]:%d" % printer.port):
        uris = uri_attributes(printer, host_field)
        for name in PRINTER_URIS:
            assert uris[name], "%s missing for Host %s" % (name, host_field)
            assert authorities(uris[name]) == {host_field}, (name, host_field, uris[name])


def test_a_host_without_a_port_gets_the_port_the_request_arrived_on(printer):
    uris = uri_attributes(printer, "phone-view.vprinter.test")
    assert authorities(uris["printer-uri-supported"]) == {"phone-view.vprinter.test:%d" % printer.port}


def test_answers_kept_for_one_host_are_never_given_to_another(printer):
    # Get-Printer-Attributes answers are kept and reused (the encoded-answer cache): each Host has its own.
    first, second = "first.vprinter.test:%d" % printer.port, "second.vprinter.test:%d" % printer.port
    for _ in range(3):
        assert authorities(uri_attributes(printer, first)["printer-more-info"]) == {first}
        assert authorities(uri_attributes(printer, second)["printer-more-info"]) == {second}


def test_job_uris_and_the_api_follow_the_host(printer):
    host_field = "phone-view.vprinter.test:18001"
    answer = printer.ipp(ipp.PRINT_JOB, {"job-name": "host", "document-format": "application/pdf"},
                         document=SAMPLE_PDF, headers={"Host": host_field})
    assert ipp.successful(answer.status)
    job_uri = answer.get("job-uri", tag=ipp.JOB_ATTRIBUTES)
    assert job_uri == "ipp://%s/ipp/print/%d" % (host_field, answer.job_id)
    [summary] = printer.checked("GET", "/api/v1/printers", 200, headers={"Host": host_field})
    assert summary["printer-uri-supported"] == "ipp://%s/ipp/print" % host_field
    assert summary["printer-more-info"] == "http://%s/" % host_field


def test_a_port_beyond_65535_in_the_host_field_is_a_bad_request(printer):
    assert printer.http("GET", "/api/v1/printers", headers={"Host": "127.0.0.1:70000"}).status == 400
    assert printer.http("GET", "/api/v1/printers", headers={"Host": "127.0.0.1:0"}).status == 400


