"""TLS on the printer's one port: ipps:// from the first byte, plain HTTP beside it, --tls-only, the certificate."""
import hashlib
import os
import ssl
import subprocess

from conftest import GET_PRINTER_ATTRIBUTES, SUCCESSFUL_OK, client_context, texts


def test_tls_printer_prints_its_ipps_uri_and_lists_both_schemes(start):
    printer = start("--tls")
    assert printer.uri.startswith("ipps://localhost:")
    status, _, ipp_status, attributes = printer.ipp(GET_PRINTER_ATTRIBUTES, tls=True)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert texts(attributes, "printer-uri-supported") == [
        "ipps://localhost:%d/ipp/print" % printer.port, "ipp://localhost:%d/ipp/print" % printer.port]
    assert texts(attributes, "uri-security-supported") == ["tls", "none"]
    assert texts(attributes, "uri-authentication-supported") == ["none", "none"]
    assert texts(attributes, "printer-more-info") == ["https://localhost:%d/" % printer.port]
    status, _, _, attributes = printer.ipp(GET_PRINTER_ATTRIBUTES, tls=False)
    assert texts(attributes, "printer-uri-supported")[0].startswith("ipp://")
    assert texts(attributes, "uri-security-supported") == ["none", "tls"]


def test_tls_only_refuses_plain_http_with_426_and_lists_only_ipps(start):
    printer = start("--tls-only")
    status, headers, _ = printer.http("GET", "/", tls=False)
    assert status == 426
    assert headers["upgrade"].startswith("TLS/1.2")
    status, _, _, attributes = printer.ipp(GET_PRINTER_ATTRIBUTES, tls=True)
    assert status == 200
    assert texts(attributes, "printer-uri-supported") == ["ipps://localhost:%d/ipp/print" % printer.port]
    assert texts(attributes, "uri-security-supported") == ["tls"]


def test_plain_upgrade_by_hand_switches_to_tls(start):
    printer = start("--tls")
    raw = printer.connect(tls=False)
    raw.sendall(b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: TLS/1.2\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert head.startswith(b"HTTP/1.1 101 ")
    tls = client_context().wrap_socket(raw)
    from conftest import read_response
    status, headers, _ = read_response(tls)
    assert status == 200 and "POST" in headers["allow"]
    tls.close()


def certificate_fingerprint(printer):
    with printer.connect(tls=True) as connection:
        return hashlib.sha256(connection.getpeercert(binary_form=True)).hexdigest()


def test_generated_certificate_is_kept_in_the_output_folder_and_reused(start, folder):
    first = start("--tls", subfolder="same")
    key = os.path.join(first.output, "tls", "vprinter-key.pem")
    certificate = os.path.join(first.output, "tls", "vprinter-cert.pem")
    assert oct(os.stat(key).st_mode & 0o777) == "0o600"
    fingerprint = certificate_fingerprint(first)
    text = subprocess.run(["openssl", "x509", "-in", certificate, "-noout", "-text"], capture_output=True,
                          text=True, check=True).stdout
    assert "DNS:localhost" in text and "IP Address:127.0.0.1" in text
    assert "made a self-signed certificate" in first.log()
    first.stop()
    second = start("--tls", subfolder="same")
    assert certificate_fingerprint(second) == fingerprint
    assert "using the certificate" in second.log()


def test_given_certificate_and_key_are_served(start, folder):
    key, certificate = os.path.join(folder, "given.key"), os.path.join(folder, "given.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-days", "2", "-subj", "/CN=given.example"], check=True, capture_output=True)
    printer = start("--tls-cert", certificate, "--tls-key", key)
    with printer.connect(tls=True) as connection:
        served = connection.getpeercert(binary_form=True)
    with open(certificate) as file:
        assert served == ssl.PEM_cert_to_DER_cert(file.read())
    assert not os.path.exists(os.path.join(printer.output, "tls"))


def test_a_key_that_does_not_match_is_a_runtime_error(folder):
    key, certificate = os.path.join(folder, "a.key"), os.path.join(folder, "b.pem")
    for name in ("a", "b"):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", os.path.join(folder, name + ".key"), "-out", os.path.join(folder, name + ".pem"),
                        "-days", "2", "-subj", "/CN=" + name], check=True, capture_output=True)
    result = subprocess.run([os.environ["VPRINTER"], "--port", "0", "--no-dnssd", "--output-dir",
                             os.path.join(folder, "out"), "--tls-cert", certificate, "--tls-key", key],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "private key" in result.stderr and result.stdout == ""
