"""The MFP's eSCL scanner behind TLS and credentials (docs/scanning.md "What a client sees"): the same rules as
printing — no capabilities, status or scans without credentials, scans with them over TLS, credentials in the
clear refused with an upgrade, and a scan job its user's: another user gets 404 for it, an admin sees it."""
import urllib.parse

from vptest import calls

from conftest import ALICE, BOB, USERS

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


def test_a_scan_job_is_its_users_and_another_user_gets_404_for_it(start_printer):
    # Before, any user with credentials fetched, deleted and listed every other user's scans.
    printer = start_printer("--tls", *USERS, profile="office-mfp")
    root = printer.path + "/eSCL/"
    created = printer.http("POST", root + "ScanJobs", SETTINGS, {"Content-Type": "text/xml"}, auth=BOB)
    assert created.status == 201
    job = urllib.parse.urlsplit(created.headers["Location"]).path
    uuid = job.rsplit("/", 1)[1]
    carol = "carol:c:o:l"
    assert uuid not in printer.http("GET", root + "ScannerStatus", auth=carol).body.decode()
    for path in (job + "/NextDocument", job + "/ScanImageInfo"):
        assert printer.http("GET", path, auth=carol).status == 404, path
    assert printer.http("DELETE", job, auth=carol).status == 404
    assert printer.http("GET", job + "/NextDocument", auth=BOB).status == 200, "the owner still scans"
    scans = printer.http("GET", "/api/v1/scans", auth=carol)
    assert scans.status == 200 and scans.json()["scans"] == []
    [record] = printer.http("GET", "/api/v1/scans", auth=BOB).json()["scans"]
    assert record["user"] == "bob" and record["uuid"] == uuid
    number = record["scan-id"]
    assert printer.http("GET", "/api/v1/scans/%d" % number, auth=carol).status == 404
    assert printer.http("GET", "/api/v1/scans/%d/files/image-0001.jpg" % number, auth=carol).status == 404
    # alice is an admin: she sees every scan, as every job.
    assert printer.http("GET", "/api/v1/scans/%d/files/image-0001.jpg" % number, auth=ALICE).status == 200
    assert uuid in printer.http("GET", root + "ScannerStatus", auth=ALICE).body.decode()
