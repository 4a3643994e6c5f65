"""cups-browsed and libcupsfilters' rules against every profile (the real daemon is in test_cups_browsed.py).

Rules, read from OpenPrinting/cups-filters 1.28.17 (Debian 12's cups-browsed), utils/cups-browsed.c
(resolve_callback, create_remote_printer_entry) and cupsfilters/ipp.c (get_printer_attributes5, which became
libcupsfilters' cfGetPrinterAttributes5 in OpenPrinting/libcupsfilters cupsfilters/ipp.c):
- a resolved IPP service needs rp and adminurl TXT keys (else cups-browsed makes them up from the host name);
- with CreateIPPPrinterQueues Driverless/All it makes a queue for a printer whose pdl lists PDF, PWG raster, Apple
  Raster, PCLm or PostScript;
- Get-Printer-Attributes all,media-col-database (IPP/2.0, then IPP/1.1, then all alone): the answer must not be
  bad-request or version-not-supported, must hold at least 20 attributes and every one of
  attributes-charset, attributes-natural-language, charset-configured, charset-supported, compression-supported,
  document-format-default, document-format-supported, generated-natural-language-supported,
  ipp-versions-supported, natural-language-configured, operations-supported, printer-is-accepting-jobs,
  printer-name, printer-state, printer-state-reasons, printer-up-time, printer-uri-supported,
  uri-authentication-supported, uri-security-supported.
"""
import pytest

from vprinter import ipp

from conftest import PROFILES, get_printer_attributes, record

CLIENT = "cups-browsed rules"

REQUIRED = [
    "charset-configured", "charset-supported", "compression-supported", "document-format-default",
    "document-format-supported", "generated-natural-language-supported", "ipp-versions-supported",
    "natural-language-configured", "operations-supported", "printer-is-accepting-jobs", "printer-name",
    "printer-state", "printer-state-reasons", "printer-up-time", "printer-uri-supported",
    "uri-authentication-supported", "uri-security-supported",
]
DRIVERLESS = ["application/pdf", "image/pwg-raster", "image/urf", "application/PCLm", "application/postscript"]


@pytest.mark.parametrize("profile", PROFILES)
def test_cups_browsed_would_make_a_queue(profile, fleet, browse):
    printer = fleet[profile]
    txt = browse.found(printer).txt
    assert txt.get("rp"), "no rp TXT key"
    assert txt.get("adminurl", "").startswith("http"), f"adminurl {txt.get('adminurl')!r}"
    pdl = txt.get("pdl", "")
    driverless = [f for f in DRIVERLESS if f.lower() in pdl.lower().split(",")]
    for version in ((2, 0), (1, 1)):
        answer, attributes = get_printer_attributes(printer.uri, ["all", "media-col-database"], version=version)
        assert answer.status not in (0x0400, 0x0503), f"IPP/{version}: 0x{answer.status:04x}"
        operation = answer.group(ipp.OPERATION_ATTRIBUTES)
        for name in ("attributes-charset", "attributes-natural-language"):
            assert name in operation, f"IPP/{version}: {name} missing in the answer"
        missing = [name for name in REQUIRED if name not in attributes]
        assert not missing, f"IPP/{version}: required attributes missing: {missing}"
        assert len(attributes) + len(operation) >= 20, f"IPP/{version}: only {len(attributes)} attributes"
        assert "media-col-database" in attributes, "media-col-database not answered to all,media-col-database"
    if not driverless:
        record(CLIENT, profile, f"no queue (pdl {pdl!r} has no driverless format), as for a real printer")
        return
    record(CLIENT, profile, f"queue ({', '.join(f.split('/')[1] for f in driverless)})")
