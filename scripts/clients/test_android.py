"""Android's built-in print service (AOSP BuiltInPrintService), as its source decides, against every profile.

Rules, read from msft-mirror-aosp/platform.packages.services.BuiltInPrintService:
- src/com/android/bips/discovery/MdnsDiscovery.java (toNetworkPrinter): a resolved _ipp._tcp service is dropped
  when its TXT says print_wfds=F (the opt-out value), when rp is empty, or when the host has no IPv4 address; the
  printer URI is ipp://ADDRESS:PORT/RP.
- jni/ipphelper/ipphelper.c (determine_ipp_version): Get-Printer-Attributes for ipp-versions-supported with
  IPP/1.1, then 1.0, then 2.0; the highest of 2.0, 1.1, 1.0 listed is used from then on.
- jni/ipphelper/ippstatus_capabilities.c: the capabilities request names the attributes below.
- jni/ipphelper/ipphelper.c (parse_printerCapabilities, parse_printerUris): PDF, PCLm (exact string
  "application/PCLm") and PWG raster from document-format-supported; pclm-* and document-format-details-supported;
  a printer URI is usable only with uri-security none and uri-authentication none or requesting-user-name.
- jni/lib/lib_wprint.c (wprintGetCapabilities, _get_print_format): a printer without PDF, PCLm and PWG raster is
  not supported (not offered); documents go as PDF when the printer takes PDF, else PCLm (also for PDF-only
  printers, "PCLm is a subset of PDF"), else PWG raster. URF is never used.
- jni/ipphelper/ipp_print.c (_fill_job): Print-Job with requesting-user-name, job-name,
  document-format-details (only what the printer lists), document-format, copies (PDF only), printer-resolution,
  sides, print-color-mode, and with IPP/2.0 a media-col of media-type (stationery) and media-size.
"""
import pytest
from vprinter.ipp import INTEGER, KEYWORD, NAME, RESOLUTION, TEXT, Value

from conftest import PROFILES, closest_resolution, get_printer_attributes, ipv4_address, media_size_of, printed, record

CLIENT = "Android"

CAPABILITY_ATTRIBUTES = [
    "ipp-versions-supported", "printer-make-and-model", "printer-info", "printer-dns-sd-name", "printer-name",
    "printer-location", "printer-uuid", "printer-uri-supported", "uri-security-supported",
    "uri-authentication-supported", "color-supported", "copies-supported", "document-format-supported",
    "media-col-default", "media-default", "media-left-margin-supported", "media-right-margin-supported",
    "media-top-margin-supported", "media-bottom-margin-supported", "media-supported", "media-type-supported",
    "output-bin-supported", "print-color-mode-supported", "print-quality-supported", "printer-resolution-supported",
    "sides-supported", "printer-device-id", "epcl-version-supported", "pclm-raster-back-side",
    "pclm-strip-height-preferred", "pclm-compression-method-preferred", "pclm-source-resolution-supported",
    "document-format-details-supported",
]


def probe_version(uri):
    """determine_ipp_version: the first of 1.1, 1.0, 2.0 that answers, then the best version listed."""
    for version in ((1, 1), (1, 0), (2, 0)):
        answer, attributes = get_printer_attributes(uri, ["ipp-versions-supported"], version=version)
        if answer.status in (0, 1) and "ipp-versions-supported" in attributes:
            listed = attributes["ipp-versions-supported"]
            for best, wire in (("2.0", (2, 0)), ("1.1", (1, 1)), ("1.0", (1, 0))):
                if best in listed:
                    return wire
    pytest.fail("no IPP version probe (1.1, 1.0, 2.0) got ipp-versions-supported")


@pytest.mark.parametrize("profile", PROFILES)
def test_android_lists_and_prints(profile, fleet, browse, documents):
    printer = fleet[profile]
    service = browse.found(printer)
    # MdnsDiscovery.java: the three reasons to drop a service.
    assert service.txt.get("print_wfds") != "F", "TXT print_wfds=F: Android ignores the printer (opt-out)"
    rp = service.txt.get("rp", "").lstrip("/")
    assert rp, "TXT rp is empty: Android ignores the printer"
    address = ipv4_address(printer.service)
    assert address, f"{printer.service} resolves to no IPv4 address: Android ignores the printer"
    uri = f"ipp://{address}:{service.port}/{rp}"
    assert uri.rsplit(":", 1)[1] == printer.uri.rsplit(":", 1)[1], (uri, printer.uri)

    version = probe_version(uri)
    answer, caps = get_printer_attributes(uri, CAPABILITY_ATTRIBUTES, version=version)
    assert answer.status in (0, 1), f"capabilities request answered 0x{answer.status:04x}"
    assert caps.get("printer-make-and-model"), "no printer-make-and-model"

    # parse_printerUris: one URI without security and with no or requesting-user-name authentication.
    uris = caps.get("printer-uri-supported", [])
    security = caps.get("uri-security-supported", [])
    authentication = caps.get("uri-authentication-supported", [])
    usable = [u for i, u in enumerate(uris)
              if (security[i] if i < len(security) else "none") == "none"
              and (authentication[i] if i < len(authentication) else "none") in ("none", "requesting-user-name")]
    assert usable, f"no usable printer URI: {uris} {security} {authentication}"

    formats = caps.get("document-format-supported", [])
    can_pdf = "application/pdf" in formats or "image/pdf" in formats
    can_pclm = "application/PCLm" in formats
    can_pwg = "image/pwg-raster" in formats
    if not (can_pdf or can_pclm or can_pwg):
        # wprintGetCapabilities: isSupported is false, the printer is not offered. That is what a real printer
        # without these formats gets; the profile meant it (an AirPrint-only printer, say).
        assert not any(f.lower() in ("application/pdf", "application/pclm", "image/pwg-raster") for f in formats)
        record(CLIENT, profile, "not offered (no PDF, PCLm or PWG raster), as for a real printer")
        return

    if can_pclm:
        # The PCLm attributes Android reads; it falls back to 16-row strips when the preference is 0 or > 256.
        strip = caps.get("pclm-strip-height-preferred", [None])[0]
        assert isinstance(strip, int) and 0 < strip <= 256, f"pclm-strip-height-preferred {strip}"
        assert caps.get("pclm-source-resolution-supported"), "PCLm printer without pclm-source-resolution-supported"
        assert caps.get("pclm-compression-method-preferred"), "PCLm printer without pclm-compression-method-preferred"
        assert caps.get("pclm-raster-back-side", [""])[0] in ("normal", "flipped", "rotated")

    # _get_print_format for a document (Android renders every document as PDF first).
    if can_pdf:
        document_format, kind = "application/pdf", "pdf"
    elif can_pclm:
        document_format, kind = "application/PCLm", "pclm"
    else:
        document_format, kind = "image/pwg-raster", "pwg"
    resolutions = caps.get("pclm-source-resolution-supported") if kind == "pclm" else None
    dpi = closest_resolution(resolutions or caps.get("printer-resolution-supported", []))
    color = "color" in caps.get("print-color-mode-supported", [])
    document = documents.get(kind, dpi=dpi, color=color, strip=caps.get("pclm-strip-height-preferred", [16])[0])

    details = caps.get("document-format-details-supported", [])
    detail_members = {name: value for name, value in (
        ("document-source-application-name", Value(NAME, "com.android.bips")),
        ("document-source-application-version", Value(TEXT, "1.0")),
        ("document-source-os-name", Value(NAME, "Android")),
        ("document-source-os-version", Value(TEXT, "34"))) if name in details}
    # A dict is a collection (begCollection), its members in order.
    operation = [("document-format-details", detail_members)] if detail_members else []
    job = []
    if kind == "pdf" and caps.get("copies-supported"):
        job.append(("copies", Value(INTEGER, 1)))
    job += [
        ("printer-resolution", Value(RESOLUTION, (dpi, dpi))),
        ("sides", Value(KEYWORD, "one-sided")),
        ("print-color-mode", Value(KEYWORD, "color" if color else "monochrome")),
    ]
    if version == (2, 0):
        width, height = media_size_of(caps)
        job.append(("media-col", {
            "media-type": Value(KEYWORD, "stationery"),
            "media-size": {"x-dimension": Value(INTEGER, width), "y-dimension": Value(INTEGER, height)}}))
    else:
        job.append(("media", Value(KEYWORD, caps["media-default"][0])))
    job_record = printed(printer, document, document_format, operation=operation, job=job, version=version,
                         name="android test")
    record(CLIENT, profile, f"lists, prints {kind.upper()} ({len(job_record['impressions'])} side)")
