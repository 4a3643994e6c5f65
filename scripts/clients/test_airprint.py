"""iOS and macOS AirPrint against every profile.

Apple's client is not public; the rules are Apple's published AirPrint requirements as CUPS and PAPPL implement the
printer side (apple/cups scheduler/dirsvc.c and tools/ippeveprinter.c register _universal._sub._ipp._tcp with URF
and image/urf in pdl; michaelrsweet/pappl pappl/dnssd.c). Checked here:
- iOS browses _universal._sub._ipp._tcp and lists only services with a non-empty URF key, which must equal
  urf-supported; pdl holds image/urf; the service name is unique;
- the printer answers media-ready, media-col-ready (iOS 17 and later want media-source in every entry) and
  media-col-supported;
- documents go as PDF when the printer lists it, else as Apple Raster (image/urf).
A profile without image/urf is not an AirPrint printer: it must not be advertised as one, and iOS does not list it.
"""
import pytest

from conftest import PROFILES, closest_resolution, get_printer_attributes, printed, record

CLIENT = "iOS/macOS AirPrint"


@pytest.mark.parametrize("profile", PROFILES)
def test_airprint_lists_and_prints(profile, fleet, browse, documents):
    printer = fleet[profile]
    txt = browse.found(printer).txt
    answer, attributes = get_printer_attributes(printer.uri, ["all", "media-col-database"])
    assert answer.status == 0
    formats = attributes["document-format-supported"]
    listed = browse.in_subtype(printer.service, "_universal")
    if "image/urf" not in formats:
        assert not listed, "advertised as _universal (AirPrint) without taking image/urf"
        assert "urf-supported" not in attributes, "urf-supported on a printer without image/urf"
        assert txt.get("urf", "none") == "none", f"TXT URF {txt.get('urf')!r} on a printer without image/urf"
        record(CLIENT, profile, "not listed (no image/urf: not AirPrint), as for a real printer")
        return
    assert listed, "an AirPrint printer not browsable as _universal._sub._ipp._tcp"
    urf = attributes.get("urf-supported", [])
    assert urf and txt.get("urf") not in (None, "", "none"), "empty URF: iOS does not list the printer"
    assert txt["urf"] == ",".join(urf), f"TXT URF {txt['urf']!r} differs from urf-supported {urf}"
    assert "image/urf" in txt.get("pdl", "").split(","), f"pdl {txt.get('pdl')!r} lacks image/urf"
    # A unique service name: vprinter took the name it asked for (it renames itself on a collision).
    assert attributes.get("printer-dns-sd-name", [None])[0] == printer.service, attributes.get("printer-dns-sd-name")
    assert attributes.get("media-ready"), "no media-ready"
    ready = attributes.get("media-col-ready", [])
    assert ready, "no media-col-ready"
    for entry in ready:
        assert entry.get("media-source"), f"a media-col-ready entry without media-source: {entry}"
        assert entry.get("media-size"), f"a media-col-ready entry without media-size: {entry}"
    assert attributes.get("media-col-supported"), "no media-col-supported"
    if "application/pdf" in formats:
        kind, document_format = "pdf", "application/pdf"
        document = documents.get("pdf")
    else:
        kind, document_format = "urf", "image/urf"
        rs = next((token[2:] for token in urf if token.startswith("RS")), "300")
        dpi = closest_resolution([(int(value), int(value), 3) for value in rs.split("-")])
        document = documents.get("urf", dpi=dpi)
    printed(printer, document, document_format, name="airprint test")
    record(CLIENT, profile, f"lists, prints {kind.upper()}")
