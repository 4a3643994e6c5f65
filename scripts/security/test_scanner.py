"""The MFP's eSCL scanner behind TLS and credentials (docs/scanning.md "What a client sees"): the same rules as
printing — no capabilities, status or scans without credentials, scans with them over TLS, credentials in the
clear refused with an upgrade."""
import urllib.parse

from vptest import calls

from conftest import ALICE, USERS

SETTINGS = (b'<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" '
            b'xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>Platen</pwg:InputSource>'
            b'<scan:XResolution>75</scan:XResolution><scan:YResolution>75</scan:YResolution></scan:ScanSettings>')


def test_escl_asks_for_the_printers_credentials_and_scans_over_tls(start_printer):
    printer = start_printer("--tls", *USERS, profile="office-mfp")
    root = printer.path + "/eSCL/"
    assert printer.base_url.startswith("https://")
    for name in ("ScannerCapabilities", "ScannerStatus"):
        assert printer.http("GET", root + name).status == 401, name
        assert printer.http("GET", root + name, auth="alice:wrong").status == 401, name
    refused = printer.http("POST", root + "ScanJobs", SETTINGS, {"Content-Type": "text/xml"})
    assert refused.status == 401 and "Basic" in refused.headers["WWW-Authenticate"]
    assert printer.http("GET", "/api/v1/scans").status == 401

    assert printer.http("GET", root + "ScannerCapabilities", auth=ALICE).status == 200
    created = printer.http("POST", root + "ScanJobs", SETTINGS, {"Content-Type": "text/xml"}, auth=ALICE)
    assert created.status == 201
    location = urllib.parse.urlsplit(created.headers["Location"])
    assert location.scheme == "https", "the job's URL is the one the client came by"
    image = printer.http("GET", location.path + "/NextDocument", auth=ALICE)
    assert image.status == 200 and image.body[:3] == b"\xff\xd8\xff"

    plain = "http://127.0.0.1:%d%sScannerCapabilities" % (printer.port, root)
    answer = calls.call("GET", plain, auth=ALICE)
    assert answer.status == 426, "credentials are not sent in the clear"
