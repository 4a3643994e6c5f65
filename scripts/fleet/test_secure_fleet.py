"""Fleets with TLS and credentials: printers from a --config file, from
VPRINTER_* variables and created at runtime get the same TLS (ipps://, every port, --tls-only) and the same
accounts and admins as the printer of the command line; creating, deleting and switching printers, through the
JSON API and the System Service, is for admins; under TLS the fleet is advertised as _ipps._tcp.

The certificate is the self-signed one vprinter makes, so the client does not verify it (as a printer's usually
is accepted)."""
import base64
import http.client
import json
import pathlib
import shutil
import ssl
import subprocess
import tempfile

from conftest import (CREATE_PRINTER, DELETE_PRINTER, PRINTER_ATTRIBUTES, WAIT_LIMIT, Browser, Vprinter,
                      attribute, get_printer_attributes, ipp, ipp_status, request, unescape, unique)

ADMIN = ("boss", "boss-password")
USER = ("alice", "alice-password")
CLIENT_TLS = ssl.create_default_context()
CLIENT_TLS.check_hostname = False
CLIENT_TLS.verify_mode = ssl.CERT_NONE
NOT_AUTHORIZED = 0x0403


def secure_vprinter(*arguments, env=None, expect_uris=1, dnssd=False):
    """A vprinter whose URI lines are ipps://."""
    return Vprinter(*arguments, env=env, expect_uris=expect_uris, dnssd=dnssd, scheme="ipps")


def authority(uri):
    return uri.split("://", 1)[1].split("/", 1)[0]


def path_of(uri):
    return "/" + uri.split("://", 1)[1].split("/", 1)[1]


def exchange(method, host_port, path, body=None, credentials=None, content_type="application/json", secure=True):
    """One HTTP(S) request; returns (status, body bytes)."""
    host, port = host_port.rsplit(":", 1)
    connection = (http.client.HTTPSConnection(host, int(port), context=CLIENT_TLS, timeout=WAIT_LIMIT) if secure
                  else http.client.HTTPConnection(host, int(port), timeout=WAIT_LIMIT))
    headers = {"Content-Type": content_type} if body is not None else {}
    if credentials:
        headers["Authorization"] = "Basic " + base64.b64encode(("%s:%s" % credentials).encode()).decode()
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def ipp_over_tls(uri, body, credentials=None):
    """An IPP request over TLS to the URI's own port; returns (HTTP status, IPP answer bytes)."""
    return exchange("POST", authority(uri), path_of(uri), body, credentials, content_type="application/ipp")


def print_job(uri):
    return ipp.print_job_request(uri, "secure fleet", ipp.sample_pdf(), 1)


def create_printer_request(system_uri, name):
    groups = bytes([PRINTER_ATTRIBUTES]) + attribute(ipp.NAME, "printer-name", name)
    return request(CREATE_PRINTER, "system-uri", system_uri, groups=groups)


def assert_secured(uri, label):
    """The printer at `uri` speaks TLS on its port, states ipps and basic, and asks credentials for jobs."""
    status, answer = ipp_over_tls(uri, get_printer_attributes(
        uri, ("printer-uri-supported", "uri-security-supported", "uri-authentication-supported")))
    assert status == 200 and ipp_status(answer) == 0, "%s: Get-Printer-Attributes %d" % (label, status)
    assert uri.encode() in answer and b"tls" in answer and b"basic" in answer, "%s: %r" % (label, answer[:600])
    status, _ = ipp_over_tls(uri, print_job(uri))
    assert status == 401, "%s: Print-Job without credentials answered %d" % (label, status)
    status, answer = ipp_over_tls(uri, print_job(uri), USER)
    assert status == 200 and ipp_status(answer) < 0x0100, "%s: Print-Job as a user: %d" % (label, status)


def test_config_and_runtime_printers_take_the_tls_and_accounts_and_changes_are_for_admins():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="vprinter-secure-config-"))
    names = [unique("sec-a"), unique("sec-b")]
    config = {"printers": [{"name": names[0], "port": 0}, {"name": names[1]}], "tls": True,
              "user": ["%s:%s" % ADMIN, "%s:%s" % USER], "admin": ADMIN[0], "no-render": True}
    (folder / "secure.json").write_text(json.dumps(config))
    running = secure_vprinter("--config", str(folder / "secure.json"), expect_uris=2)
    try:
        main = authority(running.uris[1])
        assert authority(running.uris[0]) != main, "the config's own port was not used"
        for uri, name in zip(running.uris, names):
            assert_secured(uri, name)
        # Credentials go over TLS only: in the clear a change gets 426 (upgrade), over TLS 401, 403, 201.
        created = unique("sec-runtime")
        body = {"name": created, "port": 0}
        assert exchange("POST", main, "/api/v1/printers", body, secure=False)[0] == 426
        assert exchange("POST", main, "/api/v1/printers", body)[0] == 401
        assert exchange("POST", main, "/api/v1/printers", body, USER)[0] == 403
        status, answer = exchange("POST", main, "/api/v1/printers", body, ADMIN)
        assert status == 201, answer
        summary = json.loads(answer)
        assert summary["printer-uri-supported"].startswith("ipps://"), summary
        runtime_uri = "ipps://localhost:%d/ipp/print/%s" % (summary["port"], created)
        assert_secured(runtime_uri, created)
        # Power and delete: admins only.
        power = "/api/v1/printers/%s/power" % created
        assert exchange("POST", main, power, {"on": False}, USER)[0] == 403
        assert exchange("POST", main, power, {"on": False}, ADMIN)[0] == 200
        assert exchange("POST", main, power, {"on": True}, ADMIN)[0] == 200
        assert exchange("DELETE", main, "/api/v1/printers/" + created, None, USER)[0] == 403
        assert exchange("DELETE", main, "/api/v1/printers/" + created, None, ADMIN)[0] == 200
        # The System Service: reading is open, Create-Printer is for admins.
        system_uri = "ipps://%s/ipp/system" % main
        by_ipp = unique("sec-ipp")
        status, _ = ipp_over_tls(system_uri, create_printer_request(system_uri, by_ipp))
        assert status == 401
        status, answer = ipp_over_tls(system_uri, create_printer_request(system_uri, by_ipp), USER)
        assert status == 200 and ipp_status(answer) == NOT_AUTHORIZED, "0x%04x" % ipp_status(answer)
        status, answer = ipp_over_tls(system_uri, create_printer_request(system_uri, by_ipp), ADMIN)
        assert status == 200 and ipp_status(answer) == 0, "0x%04x" % ipp_status(answer)
        assert b"ipps://" in answer
        assert_secured("ipps://%s/ipp/print/%s" % (main, by_ipp), by_ipp)
        printer_id = int(json.loads(exchange("GET", main, "/api/v1/printers/" + by_ipp)[1])["printer-id"])
        delete = request(DELETE_PRINTER, "system-uri", system_uri, attribute(0x21, "printer-id", printer_id))
        status, answer = ipp_over_tls(system_uri, delete, USER)
        assert status == 200 and ipp_status(answer) == NOT_AUTHORIZED
        status, answer = ipp_over_tls(system_uri, delete, ADMIN)
        assert status == 200 and ipp_status(answer) == 0
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_variables_give_tls_only_and_accounts_to_every_printer():
    env = {"VPRINTER_TLS_ONLY": "1", "VPRINTER_USER": "%s:%s,%s:%s" % (ADMIN + USER), "VPRINTER_ADMIN": ADMIN[0],
           "VPRINTER_NO_RENDER": "1", "VPRINTER_NAME": unique("sec-env")}
    running = secure_vprinter(env=env)
    try:
        assert_secured(running.uris[0], "the command line's printer")
        # --tls-only: plain HTTP gets 426 on every path, health checks included.
        assert exchange("GET", running.authority, "/livez", secure=False)[0] == 426
        assert exchange("GET", running.authority, "/livez")[0] == 200
        created = unique("sec-env-runtime")
        assert exchange("POST", running.authority, "/api/v1/printers", {"name": created}, USER)[0] == 403
        status, answer = exchange("POST", running.authority, "/api/v1/printers", {"name": created}, ADMIN)
        assert status == 201, answer
        uri = "ipps://%s/ipp/print/%s" % (running.authority, created)
        assert_secured(uri, created)
        status, answer = ipp_over_tls(uri, get_printer_attributes(uri, ("printer-uri-supported",)))
        assert b"ipp://" not in answer, "a --tls-only printer lists a plain URI"
    finally:
        running.stop()


def browsed(service_type, names):
    """Which of `names` a one-shot avahi-browse of `service_type` finds (resolved, so cached entries count)."""
    output = subprocess.run(["avahi-browse", "-t", "-p", "-k", service_type], capture_output=True, text=True,
                            timeout=WAIT_LIMIT).stdout
    found = {unescape(line.split(";")[3]) for line in output.splitlines() if line.startswith("+")}
    return {name for name in names if name in found}


def test_a_tls_only_fleet_is_advertised_as_ipps_only(browser):
    secure_browser = Browser("_ipps._tcp")
    names = [unique("sec-dnssd-a"), unique("sec-dnssd-b")]
    folder = pathlib.Path(tempfile.mkdtemp(prefix="vprinter-secure-dnssd-"))
    (folder / "fleet.json").write_text(json.dumps({"printers": [{"name": name} for name in names],
                                                   "tls-only": True, "no-render": True}))
    running = secure_vprinter("--config", str(folder / "fleet.json"), expect_uris=2, dnssd=True)
    try:
        created = unique("sec-dnssd-runtime")
        status, answer = exchange("POST", running.authority, "/api/v1/printers", {"name": created})
        assert status == 201, answer
        for name in names + [created]:
            assert secure_browser.wait(name, True) is not None, "%s never appeared as _ipps._tcp: %s" % (
                name, running.log())
        # The plain type is registered in the same entry group, so it would be there by now.
        assert browsed("_ipp._tcp", names + [created]) == set()
        assert exchange("DELETE", running.authority, "/api/v1/printers/" + created)[0] == 200
        assert secure_browser.wait(created, False) is not None, "the deleted printer stayed advertised"
    finally:
        running.stop()
        secure_browser.stop()
        shutil.rmtree(folder, ignore_errors=True)
