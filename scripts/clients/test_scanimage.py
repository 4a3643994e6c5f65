"""sane-airscan, the eSCL client of Linux scan apps (Debian's sane-airscan, driven by scanimage of sane-utils),
finding the office MFP's scanner over DNS-SD on loopback and scanning from it (docs/scanning.md).

What sane-airscan asks of a scanner comes from its source (alexpevzner/sane-airscan): airscan-escl.c reads
ScannerCapabilities (PlatenInputCaps first under Platen, discrete resolutions, PNG before JPEG), checks
ScannerStatus, posts ScanJobs and wants exactly 201 with a Location, asks NextDocument until 404, deletes every
job, retries 503 ten times a second apart (ESCL_RETRY_ATTEMPTS) and, when a request fails, reads ScannerStatus:
an AdfState of ScannerAdfEmpty, ScannerAdfJam or ScannerAdfDoorOpen becomes SANE_STATUS_NO_DOCS, _JAMMED or
_COVER_OPEN (escl_parse_scanner_status, escl_status_decode), which scanimage prints with sane_strstatus.
airscan-zeroconf.c finds the scanner under _uscan._tcp. WS-Discovery is off here: its probes would leave the
machine.

Each scan is compared with what lay on the glass: a 300 dpi PNG source (sent through the API) scanned back at
300 dpi is identical, at 150 dpi within 40 dB of ImageMagick's resize of it; the PSNR of each goes to the suite's
figures.
"""
import os
import pathlib
import re
import subprocess
import urllib.parse

import pytest
from vptest import artifacts, avahi, waiting

from conftest import WAIT_LIMIT, record

CLIENT = "sane-airscan"
PROFILE = "office-mfp"
# The source: 4 x 5 inches at 300 dpi.
SOURCE_PIXELS = (1200, 1500)
# The region scanned, in millimetres (scanimage's -x and -y): the source's size.
REGION_MM = ("101.6", "127")


def run(sane_dir, *arguments, timeout=WAIT_LIMIT, cwd=None):
    """scanimage with the SANE configuration of `sane_dir`; its completed process."""
    environment = dict(os.environ, SANE_CONFIG_DIR=str(sane_dir))
    return subprocess.run(["scanimage", *arguments], env=environment, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def psnr(actual, expected):
    """ImageMagick's PSNR of two image files in dB (inf when identical)."""
    result = subprocess.run(["compare", "-metric", "PSNR", str(actual), str(expected), "null:"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 1), result.stderr
    # Identical images: ImageMagick 6 (Debian 12) prints inf (exit status 1), ImageMagick 7 (Debian 13) prints 0
    # with exit status 0, which it gives only when no pixel differs.
    if result.returncode == 0:
        return float("inf")
    return float(result.stderr.split()[0])


@pytest.fixture(scope="module")
def mfp(start_session_printer):
    """The office MFP, advertised on loopback under a name of this run."""
    name = f"vp-scan-{os.getpid()}"
    printer = start_session_printer(profile=PROFILE, name=name, dnssd=True)
    printer.service = name
    yield printer
    artifacts.keep(printer.log_path, "vprinter-scanimage.log")


class Sane(type(pathlib.Path())):
    """A SANE configuration folder, and the device name of our scanner in it."""

    def __new__(cls, folder, device):
        made = super().__new__(cls, folder)
        made.device = device
        return made


@pytest.fixture(scope="module")
def document_scanner(start_session_printer):
    """The document scanner (a duplex feeder, JPEG and PDF, no printer), advertised on loopback."""
    name = f"vp-docscan-{os.getpid()}"
    printer = start_session_printer(profile="document-scanner", name=name, dnssd=True)
    printer.service = name
    yield printer
    artifacts.keep(printer.log_path, "vprinter-document-scanner.log")


@pytest.fixture(scope="module")
def sane(mfp, tmp_path_factory):
    """A SANE configuration with airscan alone, discovery by DNS-SD only; and the device name scanimage -L gave
    our scanner, once it found it."""
    folder = tmp_path_factory.mktemp("sane")
    (folder / "dll.conf").write_text("airscan\n")
    (folder / "airscan.conf").write_text("[options]\ndiscovery = enable\nws-discovery = off\n")
    return Sane(folder, waiting.wait_until(lambda: listed(folder, mfp.service), WAIT_LIMIT, interval=1))


def listed(folder, service):
    """The device name `scanimage -L` gives the scanner advertised as `service`, or None."""
    match = re.search(r"device `(airscan:[^']*%s)' is a eSCL" % re.escape(service), run(folder, "-L").stdout)
    return match and match.group(1)


@pytest.fixture(scope="module")
def source(mfp, tmp_path_factory):
    """A picture with hard edges and gradients, 300 dpi in its pHYs, lying on the glass and in the feeder."""
    path = tmp_path_factory.mktemp("source") / "source.png"
    width, height = SOURCE_PIXELS
    subprocess.run(["convert", "-size", "%dx%d" % (height, width), "gradient:gold-navy", "-rotate", "90",
                    "-fill", "black", "-draw", "rectangle 100,100 300,300", "-fill", "red",
                    "-draw", "circle 800,1100 800,1300", "-density", "300", "-units", "PixelsPerInch",
                    "PNG24:%s" % path], check=True, timeout=60)
    answer = mfp.http("PUT", "/api/v1/printers/%s/scanner/source" % urllib.parse.quote(mfp.name),
                      path.read_bytes(), {"Content-Type": "image/png"})
    assert answer.status == 200, answer.body
    return path


def scanner(mfp, **body):
    answer = mfp.http("POST", "/api/v1/printers/%s/scanner" % urllib.parse.quote(mfp.name), body)
    assert answer.status == 200, answer.body


def last_scan(mfp):
    return mfp.http("GET", "/api/v1/scans?printer=%s" % urllib.parse.quote(mfp.name)).json()["scans"][0]


def test_scanimage_lists_the_scanner_it_found_over_dns_sd(sane):
    assert sane.device.startswith("airscan:")
    options = run(sane, "-d", sane.device, "-A")
    assert options.returncode == 0, options.stderr
    assert "--source Flatbed|ADF|ADF Duplex" in options.stdout
    assert "--resolution 75|100|150|200|300|600dpi" in options.stdout


@pytest.mark.parametrize("dpi, least", [(300, float("inf")), (150, 40)])
def test_the_platen_scans_what_lies_on_it(mfp, sane, source, tmp_path, dpi, least):
    scanned = tmp_path / "platen.png"
    answer = run(sane, "-d", sane.device, "--source", "Flatbed", "--mode", "Color", "--resolution", str(dpi),
                 "-l", "0", "-t", "0", "-x", REGION_MM[0], "-y", REGION_MM[1], "--format=png", "-o", str(scanned))
    assert answer.returncode == 0, answer.stderr
    expected = tmp_path / "expected.png"
    subprocess.run(["convert", str(source), "-resize", "%dx" % (SOURCE_PIXELS[0] * dpi // 300), str(expected)],
                   check=True, timeout=60)
    figure = psnr(scanned, expected)
    artifacts.record_figure("scanimage platen", resolution=dpi, psnr=figure)
    print("scanimage, platen at %d dpi: PSNR %s dB" % (dpi, figure))
    assert figure >= least
    scan = last_scan(mfp)
    assert scan["state"] == "Completed" and scan["settings"]["resolution"] == dpi
    # sane-airscan asks for PNG when the scanner offers it.
    assert scan["settings"]["format"] == "image/png" and scan["settings"]["source"] == "Platen"


def test_the_duplex_feeder_gives_both_sides_of_every_sheet(mfp, sane, source, tmp_path):
    scanner(mfp, **{"feeder-sheets": 2})
    answer = run(sane, "-d", sane.device, "--source", "ADF Duplex", "--mode", "Gray", "--resolution", "150",
                 "--format=png", "--batch=side%d.png", cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    assert "Document feeder out of documents" in answer.stderr, "how the batch ends"
    sides = sorted(tmp_path.glob("side*.png"))
    assert len(sides) == 4, answer.stderr
    scan = last_scan(mfp)
    assert [(image["sheet"], image["side"]) for image in scan["images"]] == [
        (1, "front"), (1, "back"), (2, "front"), (2, "back")]
    assert scan["settings"]["duplex"] and scan["settings"]["color-mode"] == "Grayscale8"
    # Each side holds the source at its top left in gray (Rec. 601 luma): compare that corner with the source so.
    expected = tmp_path / "expected.png"
    subprocess.run(["convert", str(source), "-resize", "600x", "-grayscale", "Rec601Luma", str(expected)],
                   check=True, timeout=60)
    for side in sides:
        corner = tmp_path / ("corner-" + side.name)
        subprocess.run(["convert", str(side), "-crop", "600x750+0+0", "+repage", str(corner)], check=True, timeout=60)
        figure = psnr(corner, expected)
        artifacts.record_figure("scanimage feeder", side=side.name, psnr=figure)
        print("scanimage, duplex feeder %s at 150 dpi in gray: PSNR %s dB" % (side.name, figure))
        assert figure >= 40, (side.name, figure)
    record(CLIENT, PROFILE, "finds it over DNS-SD, scans platen and duplex feeder")


@pytest.mark.parametrize("fault, source, message", [
    ("feeder-empty", "ADF", "Document feeder out of documents"),
    ("feeder-jam", "ADF", "Document feeder jammed"),
    ("cover-open", "ADF", "Scanner cover is open"),
    ("busy", "Flatbed", "Device busy"),
])
def test_a_fault_is_the_matching_sane_status(mfp, sane, tmp_path, fault, source, message):
    scanner(mfp, faults=[fault], **{"feeder-sheets": 3})
    try:
        # Busy: sane-airscan retries a 503 ten times, a second apart, before it gives up.
        answer = run(sane, "-d", sane.device, "--source", source, "--resolution", "75", "--format=png",
                     "-o", str(tmp_path / "out.png"), timeout=WAIT_LIMIT)
    finally:
        scanner(mfp, faults=[])
    assert answer.returncode != 0
    # A refused job ends sane_start; a jam met while reading the first image ends sane_read.
    assert re.search(r"sane_(start|read): " + message, answer.stderr), answer.stderr


def test_a_document_scanner_is_found_as_a_scanner_only_and_scans_both_sides_in_jpeg(document_scanner, sane, source,
                                                                                      tmp_path):
    """It offers JPEG and PDF, not PNG: sane-airscan takes JPEG. It is advertised under _uscan._tcp only."""
    answer = document_scanner.http(
        "PUT", "/api/v1/printers/%s/scanner/source" % urllib.parse.quote(document_scanner.name),
        source.read_bytes(), {"Content-Type": "image/png"})
    assert answer.status == 200, answer.body
    assert document_scanner.service in avahi.names("_uscan._tcp")
    assert document_scanner.service not in avahi.names("_ipp._tcp"), "a scanner alone is no printer"
    device = waiting.wait_until(lambda: listed(sane, document_scanner.service), WAIT_LIMIT, interval=1)
    options = run(sane, "-d", device, "-A").stdout
    assert "--source ADF|ADF Duplex" in options, options
    answer = run(sane, "-d", device, "--source", "ADF Duplex", "--mode", "Color", "--resolution", "150",
                 "--format=png", "--batch=page%d.png", cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    assert len(list(tmp_path.glob("page*.png"))) == 6, "three sheets, both sides"
    scan = last_scan(document_scanner)
    assert scan["settings"]["format"] == "image/jpeg" and scan["settings"]["duplex"]
    assert [image["file"] for image in scan["images"]][:2] == ["image-0001.jpg", "image-0002.jpg"]
    # Each side holds the source at its top left: compare that corner with it, the JPEG's loss included.
    expected = tmp_path / "expected.png"
    subprocess.run(["convert", str(source), "-resize", "600x", str(expected)], check=True, timeout=60)
    first = tmp_path / "page1.png"
    corner = tmp_path / "corner.png"
    subprocess.run(["convert", str(first), "-crop", "600x750+0+0", "+repage", str(corner)], check=True, timeout=60)
    figure = psnr(corner, expected)
    artifacts.record_figure("scanimage document scanner", format="image/jpeg", psnr=figure)
    print("scanimage, document scanner's duplex feeder at 150 dpi, JPEG: PSNR %s dB" % figure)
    assert figure >= 35, figure
