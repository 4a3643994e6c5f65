"""Fleets with TLS and credentials: printers from a --config file, from
VPRINTER_* variables and created at runtime get the same TLS (ipps://, every port, --tls-only) and the same
accounts and admins as the printer of the command line; creating, deleting and switching printers, through the
JSON API and the System Service, is for admins; under TLS the fleet is advertised as _ipps._tcp.

The certificate is the self-signed one vprinter makes, so the client does not verify it (as a printer's usually
is accepted)."""
import json

import pytest
from vprinter import ipp

from vptest import avahi
from vptest.calls import call
from vptest.documents import SAMPLE_PDF
from vptest.names import unique

ADMIN = ("boss", "boss-password")
USER = ("alice", "alice-password")
# HTTP statuses: credentials needed, refused, and TLS needed first (RFC 2817 section 4.2).
UNAUTHORIZED, FORBIDDEN, UPGRADE_REQUIRED = 401, 403, 426


def start_secure(start_printer, *arguments, **options):
    """A printer whose URIs are all ipps://."""
    running = start_printer(*arguments, **options)
    assert all(uri.startswith("ipps://") for uri in running.uris), running.uris
    return running


def api(method, authority, path, body=None, credentials=None, secure=True):
    """An API call to a port of the process over TLS (or in the clear); returns (status, decoded JSON or None)."""
    answer = call(method, "%s://%s%s" % ("https" if secure else "http", authority, path), body, auth=credentials)
    return answer.status, answer.json() if answer.content_type.startswith("application/json") else None


def print_job(printer, uri, credentials=None):
    return printer.ipp(ipp.PRINT_JOB, {"job-name": "secure fleet", "document-format": "application/pdf"},
                       document=SAMPLE_PDF, uri=uri, auth=credentials)


def create_printer(printer, system_uri, name, credentials=None):
    return printer.ipp(ipp.CREATE_PRINTER, uri=system_uri, target="system-uri", auth=credentials,
                       groups=[(ipp.PRINTER_ATTRIBUTES, {"printer-name": name})])


def assert_secured(printer, uri, label):
    """The printer at `uri` speaks TLS on its port, states ipps and basic, and asks credentials for jobs."""
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": [
        "printer-uri-supported", "uri-security-supported", "uri-authentication-supported"]}, uri=uri)
    assert answer.status == ipp.SUCCESSFUL_OK, "%s: Get-Printer-Attributes 0x%04x" % (label, answer.status)
    assert uri in answer.values("printer-uri-supported"), "%s: %r" % (label, answer)
    assert "tls" in answer.values("uri-security-supported"), "%s: %r" % (label, answer)
    assert "basic" in answer.values("uri-authentication-supported"), "%s: %r" % (label, answer)
    with pytest.raises(ipp.IPPError) as refused:
        print_job(printer, uri)
    assert refused.value.http_status == UNAUTHORIZED, "%s: Print-Job without credentials: %s" % (label, refused.value)
    printed = print_job(printer, uri, USER)
    assert ipp.successful(printed.status), "%s: Print-Job as a user: 0x%04x" % (label, printed.status)


def test_config_and_runtime_printers_take_the_tls_and_accounts_and_changes_are_for_admins(start_printer, tmp_path):
    names = [unique("sec-a"), unique("sec-b")]
    config = {"printers": [{"name": names[0], "port": 0}, {"name": names[1]}], "tls": True,
              "user": ["%s:%s" % ADMIN, "%s:%s" % USER], "admin": ADMIN[0], "no-render": True}
    (tmp_path / "secure.json").write_text(json.dumps(config))
    running = start_secure(start_printer, "--config", str(tmp_path / "secure.json"))
    assert len(running.uris) == 2
    main = running.uris[1].split("/")[2]
    assert running.uris[0].split("/")[2] != main, "the config's own port was not used"
    for uri, name in zip(running.uris, names):
        assert_secured(running, uri, name)
    # Credentials go over TLS only: in the clear a change gets 426 (upgrade), over TLS 401, 403, 201.
    created = unique("sec-runtime")
    body = {"name": created, "port": 0}
    assert api("POST", main, "/api/v1/printers", body, secure=False)[0] == UPGRADE_REQUIRED
    assert api("POST", main, "/api/v1/printers", body)[0] == UNAUTHORIZED
    assert api("POST", main, "/api/v1/printers", body, USER)[0] == FORBIDDEN
    status, summary = api("POST", main, "/api/v1/printers", body, ADMIN)
    assert status == 201, summary
    assert summary["printer-uri-supported"].startswith("ipps://"), summary
    runtime_uri = "ipps://localhost:%d/ipp/print/%s" % (summary["port"], created)
    assert_secured(running, runtime_uri, created)
    # Power and delete: admins only.
    power = "/api/v1/printers/%s/power" % created
    assert api("POST", main, power, {"on": False}, USER)[0] == FORBIDDEN
    assert api("POST", main, power, {"on": False}, ADMIN)[0] == 200
    assert api("POST", main, power, {"on": True}, ADMIN)[0] == 200
    assert api("DELETE", main, "/api/v1/printers/" + created, None, USER)[0] == FORBIDDEN
    assert api("DELETE", main, "/api/v1/printers/" + created, None, ADMIN)[0] == 200
    # The System Service: reading is open, Create-Printer is for admins.
    system_uri = "ipps://%s/ipp/system" % main
    by_ipp = unique("sec-ipp")
    with pytest.raises(ipp.IPPError) as refused:
        create_printer(running, system_uri, by_ipp)
    assert refused.value.http_status == UNAUTHORIZED
    assert create_printer(running, system_uri, by_ipp, USER).status == ipp.CLIENT_ERROR_NOT_AUTHORIZED
    made = create_printer(running, system_uri, by_ipp, ADMIN)
    assert made.status == ipp.SUCCESSFUL_OK, "0x%04x" % made.status
    assert any(uri.startswith("ipps://") for uri in made.values("printer-uri-supported")), made
    assert_secured(running, "ipps://%s/ipp/print/%s" % (main, by_ipp), by_ipp)
    printer_id = api("GET", main, "/api/v1/printers/" + by_ipp)[1]["printer-id"]

    def delete(credentials):
        return running.ipp(ipp.DELETE_PRINTER, {"printer-id": int(printer_id)}, uri=system_uri, target="system-uri",
                           auth=credentials).status
    assert delete(USER) == ipp.CLIENT_ERROR_NOT_AUTHORIZED
    assert delete(ADMIN) == ipp.SUCCESSFUL_OK


def test_variables_give_tls_only_and_accounts_to_every_printer(start_printer):
    env = {"VPRINTER_TLS_ONLY": "1", "VPRINTER_USER": "%s:%s,%s:%s" % (ADMIN + USER), "VPRINTER_ADMIN": ADMIN[0],
           "VPRINTER_NO_RENDER": "1", "VPRINTER_NAME": unique("sec-env")}
    running = start_secure(start_printer, env=env)
    assert_secured(running, running.uri, "the command line's printer")
    # --tls-only: plain HTTP gets 426 on every path, health checks included.
    assert api("GET", running.authority, "/livez", secure=False)[0] == UPGRADE_REQUIRED
    assert api("GET", running.authority, "/livez")[0] == 200
    created = unique("sec-env-runtime")
    assert api("POST", running.authority, "/api/v1/printers", {"name": created}, USER)[0] == FORBIDDEN
    status, answer = api("POST", running.authority, "/api/v1/printers", {"name": created}, ADMIN)
    assert status == 201, answer
    uri = "ipps://%s/ipp/print/%s" % (running.authority, created)
    assert_secured(running, uri, created)
    listed = running.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": ["printer-uri-supported"]}, uri=uri)
    supported = listed.values("printer-uri-supported")
    assert supported and not [plain for plain in supported if plain.startswith("ipp://")], \
        "a --tls-only printer lists a plain URI: %s" % supported


def test_a_tls_only_fleet_is_advertised_as_ipps_only(start_printer, avahi_browser, tmp_path):
    secure_browser = avahi.Browser("_ipps._tcp")
    names = [unique("sec-dnssd-a"), unique("sec-dnssd-b")]
    (tmp_path / "fleet.json").write_text(json.dumps({"printers": [{"name": name} for name in names],
                                                     "tls-only": True, "no-render": True}))
    try:
        running = start_secure(start_printer, "--config", str(tmp_path / "fleet.json"), dnssd=True)
        created = unique("sec-dnssd-runtime")
        status, answer = api("POST", running.authority, "/api/v1/printers", {"name": created})
        assert status == 201, answer
        for name in names + [created]:
            assert secure_browser.wait(name) is not None, "%s never appeared as _ipps._tcp: %s" % (name, running.log)
        # The plain type is registered in the same entry group, so it would have been seen by now.
        assert [name for name in names + [created] if avahi_browser.browsable(name)] == []
        assert api("DELETE", running.authority, "/api/v1/printers/" + created)[0] == 200
        assert secure_browser.wait(created, present=False) is not None, "the deleted printer stayed advertised"
    finally:
        secure_browser.stop()
