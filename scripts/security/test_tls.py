"""TLS on the printer's one port: ipps:// from the first byte, plain HTTP beside it, --tls-only, the certificate."""
import hashlib
import http.client
import os
import ssl
import subprocess

from vprinter.ipp import GET_PRINTER_ATTRIBUTES, SUCCESSFUL_OK
from vptest import calls
from vptest.printer import run_vprinter

from conftest import connect, ipp_call, upgraded


def test_tls_printer_prints_its_ipps_uri_and_lists_both_schemes(start_printer):
    printer = start_printer("--tls")
    assert printer.uri.startswith("ipps://localhost:")
    status, _, ipp_status, answer = ipp_call(printer, GET_PRINTER_ATTRIBUTES, tls=True)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert answer.values("printer-uri-supported") == [
        "ipps://localhost:%d/ipp/print" % printer.port, "ipp://localhost:%d/ipp/print" % printer.port]
    assert answer.values("uri-security-supported") == ["tls", "none"]
    assert answer.values("uri-authentication-supported") == ["none", "none"]
    assert answer.values("printer-more-info") == ["https://localhost:%d/" % printer.port]
    status, _, _, answer = ipp_call(printer, GET_PRINTER_ATTRIBUTES, tls=False)
    assert answer.values("printer-uri-supported")[0].startswith("ipp://")
    assert answer.values("uri-security-supported") == ["none", "tls"]


def test_tls_only_refuses_plain_http_with_426_and_lists_only_ipps(start_printer):
    printer = start_printer("--tls-only")
    answer = calls.call("GET", "http://%s/" % printer.authority)
    assert answer.status == 426
    assert answer.headers["upgrade"].startswith("TLS/1.2")
    status, _, _, answer = ipp_call(printer, GET_PRINTER_ATTRIBUTES, tls=True)
    assert status == 200
    assert answer.values("printer-uri-supported") == ["ipps://localhost:%d/ipp/print" % printer.port]
    assert answer.values("uri-security-supported") == ["tls"]


def test_plain_upgrade_by_hand_switches_to_tls(start_printer):
    printer = start_printer("--tls")
    tls = upgraded(printer, b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: TLS/1.2\r\n\r\n")
    # The answer to OPTIONS comes over TLS.
    response = http.client.HTTPResponse(tls, method="OPTIONS")
    response.begin()
    assert response.status == 200 and "POST" in response.headers["allow"]
    tls.close()


def certificate_fingerprint(printer):
    with connect(printer, tls=True) as connection:
        return hashlib.sha256(connection.getpeercert(binary_form=True)).hexdigest()


def test_generated_certificate_is_kept_in_the_output_folder_and_reused(start_printer):
    first = start_printer("--tls")
    key = os.path.join(first.output_dir, "tls", "vprinter-key.pem")
    certificate = os.path.join(first.output_dir, "tls", "vprinter-cert.pem")
    assert oct(os.stat(key).st_mode & 0o777) == "0o600"
    fingerprint = certificate_fingerprint(first)
    text = subprocess.run(["openssl", "x509", "-in", certificate, "-noout", "-text"], capture_output=True,
                          text=True, check=True).stdout
    assert "DNS:localhost" in text and "IP Address:127.0.0.1" in text
    assert "made a self-signed certificate" in first.log
    first.stop()
    first_log = first.log
    second = first.restart()  # the same output folder; its log goes on in the same file
    assert certificate_fingerprint(second) == fingerprint
    assert "using the certificate" in second.log[len(first_log):]


def test_given_certificate_and_key_are_served(start_printer, tmp_path):
    key, certificate = str(tmp_path / "given.key"), str(tmp_path / "given.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-days", "2", "-subj", "/CN=given.example"], check=True, capture_output=True)
    printer = start_printer("--tls-cert", certificate, "--tls-key", key)
    with connect(printer, tls=True) as connection:
        served = connection.getpeercert(binary_form=True)
    with open(certificate) as file:
        assert served == ssl.PEM_cert_to_DER_cert(file.read())
    assert not os.path.exists(os.path.join(printer.output_dir, "tls"))


def test_a_key_that_does_not_match_is_a_runtime_error(tmp_path):
    key, certificate = str(tmp_path / "a.key"), str(tmp_path / "b.pem")
    for name in ("a", "b"):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", str(tmp_path / (name + ".key")), "-out", str(tmp_path / (name + ".pem")),
                        "-days", "2", "-subj", "/CN=" + name], check=True, capture_output=True)
    status, stdout, stderr = run_vprinter("--port", "0", "--no-dnssd", "--output-dir", str(tmp_path / "out"),
                                          "--tls-cert", certificate, "--tls-key", key, timeout=30)
    assert status == 1
    assert "private key" in stderr and stdout == ""
