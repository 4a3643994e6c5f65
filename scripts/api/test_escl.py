"""The office MFP's eSCL scanner over HTTP, as a scan app talks to it (Mopria eSCL 2.x; docs/scanning.md): its
capabilities and status, a scan job's life (ScanJobs, NextDocument, ScanImageInfo, DELETE), its record and images
in the JSON API with the filters and the wait, the faults as eSCL shows them, a source sent through the API, and
the records read back after a restart. The real client, sane-airscan's scanimage, is in test_scanimage.py."""
import subprocess
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
from vprinter import ipp

PROFILE = "office-mfp"
SCAN = "{http://schemas.hp.com/imaging/escl/2011/05/03}"
PWG = "{http://www.pwg.org/schemas/2010/12/sm}"


def settings(source="Platen", duplex=False, dpi=150, mode="RGB24", fmt=None, region=None):
    """A ScanSettings body as scan apps send it."""
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" '
             'xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">',
             "<pwg:Version>2.63</pwg:Version>", "<pwg:InputSource>%s</pwg:InputSource>" % source,
             "<scan:ColorMode>%s</scan:ColorMode>" % mode,
             "<scan:XResolution>%d</scan:XResolution><scan:YResolution>%d</scan:YResolution>" % (dpi, dpi)]
    if source == "Feeder":
        parts.append("<scan:Duplex>%s</scan:Duplex>" % ("true" if duplex else "false"))
    if fmt:
        parts.append("<scan:DocumentFormatExt>%s</scan:DocumentFormatExt>" % fmt)
    if region:
        x, y, width, height = region
        parts.append("<pwg:ScanRegions><pwg:ScanRegion><pwg:ContentRegionUnits>escl:ThreeHundredthsOfInches"
                     "</pwg:ContentRegionUnits><pwg:XOffset>%d</pwg:XOffset><pwg:YOffset>%d</pwg:YOffset>"
                     "<pwg:Width>%d</pwg:Width><pwg:Height>%d</pwg:Height></pwg:ScanRegion></pwg:ScanRegions>"
                     % (x, y, width, height))
    parts.append("</scan:ScanSettings>")
    return "".join(parts).encode()


def escl(printer, method, name, body=None):
    """An eSCL call under the printer's eSCL root."""
    headers = {"Content-Type": "text/xml"} if body is not None else None
    return printer.http(method, printer.path + "/eSCL/" + name, body, headers)


def create(printer, body):
    """POST ScanJobs; the job's path (from Location), checked to be an absolute URL under the eSCL root."""
    answer = escl(printer, "POST", "ScanJobs", body)
    assert answer.status == 201, (answer.status, answer.body)
    location = urllib.parse.urlsplit(answer.headers["Location"])
    assert location.scheme == "http" and location.port == printer.port
    assert location.path.startswith(printer.path + "/eSCL/ScanJobs/")
    return location.path[len(printer.path + "/eSCL/"):]


def images(printer, job):
    """NextDocument until it answers 404: the bodies and content types."""
    received = []
    while True:
        answer = escl(printer, "GET", job + "/NextDocument")
        if answer.status == 404:
            return received
        assert answer.status == 200, (answer.status, answer.body)
        received.append((answer.content_type, answer.body))


def status(printer):
    root = ET.fromstring(escl(printer, "GET", "ScannerStatus").body)
    return root.findtext(PWG + "State"), root.findtext(SCAN + "AdfState")


def set_scanner(printer, **body):
    return printer.checked("POST", "/api/v1/printers/%s/scanner" % urllib.parse.quote(printer.name), body=body)


def scans(printer, query=""):
    return printer.checked("GET", "/api/v1/scans" + query)["scans"]


def test_capabilities_describe_the_glass_the_feeder_and_what_it_scans_at(start_printer):
    printer = start_printer(profile=PROFILE)
    answer = escl(printer, "GET", "ScannerCapabilities")
    assert answer.status == 200 and answer.content_type.startswith("text/xml")
    root = ET.fromstring(answer.body)
    assert root.tag == SCAN + "ScannerCapabilities"
    uuid = root.findtext(SCAN + "UUID")
    assert len(uuid) == 36 and not uuid.startswith("urn:"), uuid
    platen = root.find(SCAN + "Platen/" + SCAN + "PlatenInputCaps")
    # A4 glass in three-hundredths of an inch; sane-airscan needs PlatenInputCaps first under Platen.
    assert (platen.findtext(SCAN + "MaxWidth"), platen.findtext(SCAN + "MaxHeight")) == ("2480", "3507")
    assert list(root.find(SCAN + "Platen"))[0].tag == SCAN + "PlatenInputCaps"
    adf = root.find(SCAN + "Adf")
    assert adf.find(SCAN + "AdfSimplexInputCaps") is not None and adf.find(SCAN + "AdfDuplexInputCaps") is not None
    resolutions = {int(r.findtext(SCAN + "XResolution")) for r in platen.iter(SCAN + "DiscreteResolution")}
    assert resolutions == {75, 100, 150, 200, 300, 600}
    formats = {f.text for f in platen.iter(PWG + "DocumentFormat")}
    assert formats == {"image/jpeg", "image/png", "application/pdf"}
    assert root.find(".//" + SCAN + "ResolutionRange") is None, "sane-airscan refuses a ResolutionRange"
    assert status(printer) == ("Idle", "ScannerAdfLoaded")


def test_a_platen_scan_is_one_image_recorded_with_its_settings(start_printer):
    printer = start_printer(profile=PROFILE)
    job = create(printer, settings(dpi=150, fmt="image/png", region=(0, 0, 1275, 1650)))
    first = escl(printer, "GET", job + "/NextDocument")
    assert first.status == 200 and first.content_type == "image/png"
    assert first.body.startswith(b"\x89PNG\r\n\x1a\n")
    info = ET.fromstring(escl(printer, "GET", job + "/ScanImageInfo").body)
    # 1275 x 1650 three-hundredths of an inch at 150 dpi: 637.5 x 825 pixels, rounded.
    assert (info.findtext(SCAN + "ActualWidth"), info.findtext(SCAN + "ActualHeight")) == ("638", "825")
    assert info.findtext(SCAN + "ActualBytesPerLine") == str(638 * 3)
    assert escl(printer, "GET", job + "/NextDocument").status == 404, "the glass holds one page"
    assert escl(printer, "DELETE", job).status == 200, "clients delete the jobs they are done with"
    assert escl(printer, "DELETE", "ScanJobs/no-such-job").status == 404

    [record] = scans(printer)
    assert record["state"] == "Completed" and record["reason"] == "JobCompletedSuccessfully"
    assert record["settings"]["source"] == "Platen" and record["settings"]["resolution"] == 150
    assert record["settings"]["region"] == {"x": 0, "y": 0, "width": 1275, "height": 1650}
    assert record["settings-asked"] == {
        "input-source": "Platen", "color-mode": "RGB24", "x-resolution": "150", "y-resolution": "150",
        "document-format-ext": "image/png",
        "region": {"x-offset": "0", "y-offset": "0", "width": "1275", "height": "1650",
                   "units": "escl:ThreeHundredthsOfInches"}}
    [image] = record["images"]
    assert (image["width"], image["height"], image["bytes"]) == (638, 825, len(first.body))
    assert printer.checked("GET", "/api/v1/scans/%d" % record["scan-id"]) == record
    served = printer.checked("GET", "/api/v1/scans/%d/files/%s" % (record["scan-id"], image["file"]),
                             content_type="image/png")
    assert served == first.body
    assert printer.http("GET", "/api/v1/scans/%d/files/../scan.json" % record["scan-id"]).status == 404


def test_a_duplex_feeder_scan_gives_both_sides_of_every_sheet_and_the_filters_find_it(start_printer):
    printer = start_printer(profile=PROFILE)
    set_scanner(printer, **{"feeder-sheets": 2})
    platen = create(printer, settings())
    images(printer, platen)
    job = create(printer, settings("Feeder", duplex=True, dpi=75, mode="Grayscale8", fmt="image/jpeg"))
    received = images(printer, job)
    assert [kind for kind, _ in received] == ["image/jpeg"] * 4
    assert status(printer)[0] == "Idle", "sane-airscan reads Processing after the last page as busy"
    [feeder] = scans(printer, "?source=feeder&state=ended&color-mode=grayscale8&format=jpeg")
    assert [(i["sheet"], i["side"]) for i in feeder["images"]] == [(1, "front"), (1, "back"), (2, "front"),
                                                                   (2, "back")]
    assert [s["scan-id"] for s in scans(printer, "?since=%d" % (feeder["scan-id"] - 1))] == [feeder["scan-id"]]
    assert len(scans(printer, "?client=127.0.0.1")) == 2
    answer = printer.http("GET", "/api/v1/scans?sourse=feeder")
    assert answer.status == 400 and "unknown filter 'sourse'" in answer.json()["error"]
    waited = printer.checked("GET", "/api/v1/scans/wait?count=2&timeout=5")
    assert len(waited["scans"]) == 2
    late = printer.http("GET", "/api/v1/scans/wait?count=3&timeout=0.2")
    assert late.status == 408 and len(late.json()["scans"]) == 2


def test_settings_the_scanner_lacks_are_refused_with_409_and_why(start_printer):
    printer = start_printer(profile=PROFILE)
    for body, why in [(settings(dpi=1200), "1200"), (settings(mode="RGB48"), "RGB48"),
                      (settings(fmt="image/tiff"), "image/tiff"), (b"<not-xml", ""),
                      (b"<!DOCTYPE x [<!ENTITY a 'b'>]><scan:ScanSettings/>", "")]:
        answer = escl(printer, "POST", "ScanJobs", body)
        assert answer.status == 409, (body, answer.status)
        assert why.encode() in answer.body
    assert scans(printer) == []


def test_faults_are_shown_as_a_real_scanner_shows_them(start_printer):
    printer = start_printer(profile=PROFILE)
    set_scanner(printer, faults=["feeder-empty"])
    answer = escl(printer, "POST", "ScanJobs", settings("Feeder"))
    assert answer.status == 409 and status(printer) == ("Idle", "ScannerAdfEmpty")
    images(printer, create(printer, settings("Platen")))  # the glass still scans

    set_scanner(printer, faults=["busy"])
    answer = escl(printer, "POST", "ScanJobs", settings())
    assert answer.status == 503 and answer.headers["Retry-After"] == "2"

    set_scanner(printer, faults=["cover-open"])
    assert escl(printer, "POST", "ScanJobs", settings("Feeder")).status == 409
    assert status(printer) == ("Stopped", "ScannerAdfDoorOpen")

    state = set_scanner(printer, faults=[])
    assert state["faults"] == [] and state["state"] == "Idle"
    job = create(printer, settings("Feeder"))
    assert escl(printer, "GET", job + "/NextDocument").status == 200
    set_scanner(printer, faults=["feeder-jam"])
    assert escl(printer, "GET", job + "/NextDocument").status == 409
    assert status(printer) == ("Stopped", "ScannerAdfJam")
    jammed = scans(printer, "?state=aborted")[0]
    assert jammed["reason"] == "ScannerAdfJam" and len(jammed["images"]) == 1
    bad = printer.http("POST", "/api/v1/printers/%s/scanner" % urllib.parse.quote(printer.name),
                       body={"faults": ["paper-out"]})
    assert bad.status == 400 and "feeder-jam" in bad.json()["error"]


def psnr(actual, expected):
    """ImageMagick's PSNR of two image files in dB (inf when identical)."""
    result = subprocess.run(["compare", "-metric", "PSNR", actual, expected, "null:"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode in (0, 1), result.stderr
    # Identical images: ImageMagick 6 (Debian 12) prints inf (exit status 1), ImageMagick 7 (Debian 13) prints 0
    # with exit status 0, which it gives only when no pixel differs.
    if result.returncode == 0:
        return float("inf")
    return float(result.stderr.split()[0])


def test_a_source_sent_through_the_api_is_what_the_scanner_scans(start_printer, tmp_path):
    printer = start_printer(profile=PROFILE)
    scanner = "/api/v1/printers/%s/scanner" % urllib.parse.quote(printer.name)
    source = tmp_path / "source.png"
    # 4 x 5 inches at 300 dpi, with its resolution in pHYs.
    subprocess.run(["convert", "-size", "1200x1500", "-density", "300", "-units", "PixelsPerInch",
                    "gradient:red-blue", "-fill", "black", "-draw", "rectangle 100,100 300,300",
                    "PNG24:%s" % source], check=True, timeout=60)
    state = printer.checked("PUT", scanner + "/source", body=source.read_bytes(),
                            headers={"Content-Type": "image/png"})
    assert state["source"].endswith(".png")
    job = create(printer, settings(dpi=300, fmt="image/png", region=(0, 0, 1200, 1500)))
    [(_, scanned)] = images(printer, job)
    (tmp_path / "scanned.png").write_bytes(scanned)
    assert psnr(str(tmp_path / "scanned.png"), str(source)) == float("inf")

    refused = printer.http("PUT", scanner + "/source", b"plain text", {"Content-Type": "image/png"})
    assert refused.status == 400 and "PDF, PNG or JPEG" in refused.json()["error"]
    assert printer.http("PUT", scanner + "/source", source.read_bytes(), {"Content-Type": "text/plain"}).status == 415
    assert printer.checked("GET", scanner)["source"] == state["source"], "a refused source leaves the last one"
    assert printer.checked("DELETE", scanner + "/source")["source"] is None, "back to the test chart"


def test_scan_records_are_listed_again_after_a_restart(start_printer):
    printer = start_printer(profile=PROFILE)
    images(printer, create(printer, settings()))
    before = scans(printer)
    again = printer.restart()
    assert scans(again) == before
    job = create(again, settings())
    assert scans(again)[0]["scan-id"] == before[0]["scan-id"] + 1
    escl(again, "DELETE", job)
    assert scans(again, "?state=canceled")[0]["reason"] == "JobCanceledByUser"


@pytest.mark.parametrize("path", ["ScannerCapabilities", "ScannerStatus"])
def test_a_printer_without_a_scanner_has_no_escl(start_printer, path):
    printer = start_printer(profile="duplex-laser")
    assert escl(printer, "GET", path).status == 404
    assert printer.http("GET", "/api/v1/printers/%s/scanner" % urllib.parse.quote(printer.name)).status == 404


def test_a_document_scanner_scans_and_answers_no_ipp(start_printer):
    printer = start_printer(profile="document-scanner")
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES)
    assert answer.status == ipp.CLIENT_ERROR_NOT_FOUND, "a scanner alone has no IPP printer"
    root = ET.fromstring(escl(printer, "GET", "ScannerCapabilities").body)
    assert root.find(SCAN + "Platen") is None and root.find(SCAN + "Adf/" + SCAN + "AdfDuplexInputCaps") is not None
    assert {f.text for f in root.iter(PWG + "DocumentFormat")} == {"image/jpeg", "application/pdf"}
    assert escl(printer, "POST", "ScanJobs", settings("Platen")).status == 409, "no glass"
    job = create(printer, settings("Feeder", duplex=True, fmt="application/pdf"))
    received = images(printer, job)
    assert [kind for kind, _ in received] == ["application/pdf"] * 6, "three sheets, both sides"
    assert all(body.startswith(b"%PDF-") for _, body in received)


def test_a_web_page_of_another_site_cannot_start_a_scan(start_printer):
    """A page's form or script may send text/plain anywhere without asking first (CORS): a scan job must be XML,
    and one from another site's page is refused."""
    printer = start_printer(profile=PROFILE)
    jobs = printer.path + "/eSCL/ScanJobs"
    assert printer.http("POST", jobs, settings(), {"Content-Type": "text/plain"}).status == 415
    assert printer.http("POST", jobs, settings(), {"Content-Type": "text/xml",
                                                   "Origin": "http://evil.example"}).status == 403
    assert scans(printer) == []
    parts = urllib.parse.urlsplit(printer.base_url)
    own = "%s://%s" % (parts.scheme, parts.netloc)  # the page the printer itself serves
    assert printer.http("POST", jobs, settings(), {"Content-Type": "application/xml", "Origin": own}).status == 201
