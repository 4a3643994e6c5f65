"""Windows 10/11 (the IPP class driver, Mopria) against every profile.

Windows' source is not public. What it asks for comes from Microsoft's printing documentation for the IPP class
driver and the Mopria device specification, and from the Windows-facing attributes PAPPL derives for the same
clients (michaelrsweet/pappl pappl/printer-ipp.c: mopria-certified, printer-device-id, document-format-preferred);
where a rule is a fact observed on real Windows machines it says so:
- discovery over mDNS (_ipp._tcp), then Get-Printer-Attributes all;
- a well-formed IEEE 1284 printer-device-id (PWG 5107.2): KEY:value; fields with MFG, MDL and CMD;
- mopria-certified as an attribute and, with the same value, as a TXT key (Mopria discovery);
- document-format-preferred among document-format-supported; printer-firmware-name and
  printer-firmware-string-version; a printer-uuid that stays the same across restarts (Windows keys its queue on
  it); media-supported and media-default;
- media-source-supported without digits-only keywords (observed: the add-printer dialog hangs on one);
- documents as PDF, else PCLm, else PWG raster; a printer with none of them cannot be driven by the class driver.
"""
import re

import pytest
from vprinter import ipp
from vprinter.ipp import KEYWORD, MIME_TYPE, RESOLUTION, Value

from conftest import PROFILES, USER, closest_resolution, get_printer_attributes, printed, record

CLIENT = "Windows/Mopria"


def device_id_fields(device_id):
    """The fields of an IEEE 1284 device ID; asserts that it is well formed (every field KEY:value;)."""
    assert device_id.endswith(";"), f"printer-device-id does not end with ';': {device_id!r}"
    fields = {}
    for field in device_id[:-1].split(";"):
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9 -]*:[^;]*", field), f"malformed device ID field {field!r}"
        key, value = field.split(":", 1)
        assert key not in fields, f"device ID key {key} twice"
        fields[key] = value
    return fields


def uuid_after_restart(start_printer, profile, name):
    """printer-uuid of a second, short-lived printer with the same profile and name (not advertised)."""
    second = start_printer(profile=profile, name=name)
    _, attributes = get_printer_attributes(f"ipp://127.0.0.1:{second.port}/ipp/print", ["printer-uuid"])
    second.stop()
    return attributes["printer-uuid"][0]


@pytest.mark.parametrize("profile", PROFILES)
def test_windows_adds_and_prints(profile, fleet, browse, documents, start_printer):
    printer = fleet[profile]
    txt = browse.found(printer).txt
    answer, attributes = get_printer_attributes(printer.uri, ["all", "media-col-database"])
    assert answer.status == 0, f"Get-Printer-Attributes answered 0x{answer.status:04x}"

    fields = device_id_fields(attributes["printer-device-id"][0])
    for key in ("MFG", "MDL", "CMD"):
        assert fields.get(key), f"printer-device-id has no {key}: {attributes['printer-device-id'][0]}"

    formats = attributes["document-format-supported"]
    mopria = any(f in formats for f in ("application/pdf", "application/PCLm", "image/pwg-raster"))
    if mopria:
        assert attributes.get("mopria-certified"), "a printer with a Mopria format has no mopria-certified"
        assert txt.get("mopria-certified") == attributes["mopria-certified"][0], (
            f"TXT mopria-certified {txt.get('mopria-certified')!r}, attribute {attributes['mopria-certified']}")
    preferred = attributes.get("document-format-preferred", [None])[0]
    assert preferred in formats, f"document-format-preferred {preferred!r} not in {formats}"
    assert attributes.get("printer-firmware-name", [""])[0], "no printer-firmware-name"
    assert attributes.get("printer-firmware-string-version", [""])[0], "no printer-firmware-string-version"
    assert attributes["media-default"][0] in attributes["media-supported"]
    digits_only = [s for s in attributes.get("media-source-supported", []) if s.isdigit()]
    assert not digits_only, f"digits-only media-source keywords {digits_only} hang Windows' add-printer dialog"
    uuid = attributes["printer-uuid"][0]
    assert re.fullmatch(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", uuid), uuid
    assert txt.get("uuid") == uuid[len("urn:uuid:"):], "TXT UUID differs from printer-uuid"
    assert uuid_after_restart(start_printer, profile, printer.service) == uuid, "printer-uuid not stable"

    if not mopria:
        record(CLIENT, profile, "found; not printable by the class driver (no PDF, PCLm or PWG), as for a real one")
        return
    if "application/pdf" in formats:
        document_format, kind = "application/pdf", "pdf"
    elif "application/PCLm" in formats:
        document_format, kind = "application/PCLm", "pclm"
    else:
        document_format, kind = "image/pwg-raster", "pwg"
    dpi = closest_resolution(attributes.get("printer-resolution-supported", []), 600)
    color = "color" in attributes.get("print-color-mode-supported", [])
    document = documents.get(kind, dpi=dpi, color=color)
    validate = ipp.send(printer.uri, ipp.request(
        ipp.VALIDATE_JOB, printer.uri, [USER, ("document-format", Value(MIME_TYPE, document_format))]))
    assert validate.status in (0, 1), f"Validate-Job answered 0x{validate.status:04x}"
    job = [("media", Value(KEYWORD, attributes["media-default"][0])),
           ("printer-resolution", Value(RESOLUTION, (dpi, dpi)))]
    printed(printer, document, document_format, job=job, name="windows test")
    record(CLIENT, profile, f"adds, prints {kind.upper()}")
