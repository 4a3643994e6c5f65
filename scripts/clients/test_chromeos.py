"""ChromeOS against every profile, as Chromium's source decides.

Rules, read from Chromium (chrome/browser/ash/printing/zeroconf_printer_detector.cc, printer_info.cc and
printing/backend/cups_jobs.cc):
- the detector browses _print._sub._ipp._tcp (and _ipps, _ipp); a service with an empty name, no IP address or port
  0 is dropped; `product` counts only inside parentheses; a printer found under _print is set up automatically
  (IPP Everywhere, PWG 5100.14 section 4.2.1), one found only as _ipp._tcp is offered for manual set-up;
- printer_info.cc QueryIppPrinter asks for printer-make-and-model (required), ipp-versions-supported,
  ipp-features-supported and document-format-supported; IsAutoconf: ipp-everywhere in ipp-features-supported, or
  an IPP version 2 or later with image/pwg-raster or application/pdf;
- ChromeOS then prints through CUPS's IPP Everywhere driver: PDF when listed, else PWG raster.
"""
import pytest

from conftest import PROFILES, closest_resolution, get_printer_attributes, printed, record

CLIENT = "ChromeOS"


@pytest.mark.parametrize("profile", PROFILES)
def test_chromeos_sets_up_and_prints(profile, fleet, browse, documents):
    printer = fleet[profile]
    service = browse.found(printer)
    assert service.name and service.address and service.port != 0, "no name, address or port"
    product = service.txt.get("product", "")
    assert product.startswith("(") and product.endswith(")") and len(product) > 2, f"product {product!r}"
    answer, attributes = get_printer_attributes(
        printer.uri, ["printer-make-and-model", "ipp-versions-supported", "ipp-features-supported",
                      "document-format-supported", "printer-state", "printer-state-reasons",
                      "printer-state-message", "pwg-raster-document-resolution-supported"])
    assert answer.status in (0, 1)
    assert attributes.get("printer-make-and-model", [""])[0], "no printer-make-and-model: the query fails"
    formats = attributes.get("document-format-supported", [])
    versions = attributes.get("ipp-versions-supported", ["1.0"])
    major = max(int(version.split(".")[0]) for version in versions)
    autoconf = "ipp-everywhere" in attributes.get("ipp-features-supported", []) or (
        major >= 2 and ("image/pwg-raster" in formats or "application/pdf" in formats))
    everywhere = "image/pwg-raster" in formats
    assert browse.in_subtype(printer.service, "_print") == everywhere, (
        f"_print subtype {'missing' if everywhere else 'advertised'} for a printer "
        f"{'with' if everywhere else 'without'} PWG raster")
    assert major >= 2, f"ipp-versions-supported {versions}: ChromeOS wants IPP/2.x"
    if not autoconf:
        record(CLIENT, profile, "found; manual set-up only (no IPP Everywhere), as for a real printer")
        return
    assert "image/pwg-raster" in formats or "application/pdf" in formats
    if "application/pdf" in formats:
        kind, document_format, document = "pdf", "application/pdf", documents.get("pdf")
    else:
        resolutions = attributes.get("pwg-raster-document-resolution-supported", [])
        dpi = closest_resolution(resolutions)
        kind, document_format, document = "pwg", "image/pwg-raster", documents.get("pwg", dpi=dpi)
    printed(printer, document, document_format, name="chromeos test")
    record(CLIENT, profile, f"{'auto set-up' if everywhere else 'set up'}, prints {kind.upper()}")
