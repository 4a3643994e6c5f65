"""Every shipped profile (docs/profiles.md) behind TLS and HTTP Basic credentials (docs/security.md): the profile's
attributes are the same over TLS as in the clear but for the URIs, a job without credentials is refused with 401
and leaves nothing, a job with them is printed and owned by its user; on enterprise-laser, a job held for its
job-password (PWG 5100.11) is released at the printer by an admin only."""
import json
import pathlib
import struct

import pytest

from conftest import ALICE, BOB, GET_PRINTER_ATTRIBUTES, SUCCESSFUL_OK, USERS, ipp, texts, wait_until

PROFILES = sorted(path.stem for path in (pathlib.Path(__file__).resolve().parents[2] / "profiles").glob("*.json"))
# The attributes that name the printer's URIs and how they are protected: the only ones TLS and credentials change.
URI_ATTRIBUTES = {"printer-uri-supported", "uri-security-supported", "uri-authentication-supported",
                  "printer-icons", "printer-more-info", "printer-supply-info-uri", "printer-xri-supported",
                  "printer-strings-uri", "job-ids-supported-uri", "printer-current-time", "printer-up-time",
                  "printer-config-change-time", "printer-state-change-time", "printer-current-time",
                  "printer-state-change-date-time", "printer-config-change-date-time"}
OCTET_STRING = 0x30
PWG_SGRAY = 18


def pwg_raster_page(dpi):
    """A one-page PWG raster (PWG 5102.4) of one white inch square in sgray_8 at dpi: the format every IPP
    Everywhere printer takes, and black_1 / sgray_8 every shipped profile lists."""
    header = bytearray(1796)
    header[0:9] = b"PwgRaster"

    def u32(offset, value):
        struct.pack_into(">I", header, offset, value)

    u32(276, dpi)
    u32(280, dpi)  # HWResolution
    u32(352, 72)
    u32(356, 72)  # PageSize in points
    u32(372, dpi)
    u32(376, dpi)  # Width, Height
    u32(384, 8)
    u32(388, 8)
    u32(392, dpi)  # BitsPerColor, BitsPerPixel, BytesPerLine
    u32(400, PWG_SGRAY)
    u32(420, 1)  # ColorSpace, NumColors
    u32(452, 1)
    u32(456, 1)
    u32(460, 1)  # TotalPageCount, CrossFeedTransform, FeedTransform
    line = bytearray([0])  # each line once; runs of up to 128 white pixels
    left = dpi
    while left > 0:
        run = min(128, left)
        line += bytes([run - 1, 0xFF])
        left -= run
    return b"RaS2" + bytes(header) + bytes(line) * dpi


def resolution_of(attributes):
    """The lowest pwg-raster-document-resolution-supported, in dots per inch."""
    values = [struct.unpack(">iib", value)[0] for value in attributes["pwg-raster-document-resolution-supported"]]
    return min(values)


def print_raster(printer, dpi, user=None, operation=b""):
    attributes = ipp.attribute(ipp.NAME, "job-name", "profile under tls")
    attributes += ipp.attribute(ipp.MIME_TYPE, "document-format", "image/pwg-raster") + operation
    return printer.ipp(ipp.PRINT_JOB, attributes, pwg_raster_page(dpi), user=user)


def record(printer, job_id, user):
    status, headers, body = printer.http("GET", "/api/v1/jobs/%d" % job_id, user=user)
    return json.loads(body) if status == 200 else None


@pytest.mark.parametrize("profile", PROFILES)
def test_every_profile_prints_over_tls_with_credentials(start, profile):
    printer = start("--tls", *USERS, "--profile", profile)
    status, _, ipp_status, secure = printer.ipp(GET_PRINTER_ATTRIBUTES)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert "tls" in texts(secure, "uri-security-supported")
    assert set(texts(secure, "uri-authentication-supported")) == {"basic"}
    assert any(uri.startswith("ipps://") for uri in texts(secure, "printer-uri-supported"))
    _, _, _, plain = printer.ipp(GET_PRINTER_ATTRIBUTES, tls=False)
    differing = {name for name in set(secure) | set(plain) if secure.get(name) != plain.get(name)}
    assert differing <= URI_ATTRIBUTES, profile

    dpi = resolution_of(secure)
    assert print_raster(printer, dpi)[0] == 401
    assert printer.job_folders() == []
    status, _, ipp_status, job = print_raster(printer, dpi, user=BOB)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK), profile
    job_id = int.from_bytes(job["job-id"][0], "big")
    done = wait_until(lambda: (record(printer, job_id, BOB) or {}).get("job-state") == "completed")
    assert done, "%s: %s" % (profile, record(printer, job_id, BOB))
    assert record(printer, job_id, BOB)["job-originating-user-name"] == "bob"
    assert printer.alive()


def test_a_job_password_job_is_released_at_the_printer_by_an_admin(start):
    printer = start("--tls", *USERS, "--profile", "enterprise-laser")
    _, _, _, attributes = printer.ipp(GET_PRINTER_ATTRIBUTES)
    pin = ipp.attribute(OCTET_STRING, "job-password", "4711")
    status, _, ipp_status, job = print_raster(printer, resolution_of(attributes), user=BOB, operation=pin)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    job_id = int.from_bytes(job["job-id"][0], "big")
    held = wait_until(lambda: (record(printer, job_id, BOB) or {}).get("job-state") == "pending-held")
    assert held and record(printer, job_id, BOB)["job-state-reasons"] == ["job-password-wait"]

    def release(user, pin):
        body = json.dumps({"job-password": pin}).encode()
        return printer.http("POST", "/api/v1/jobs/%d/release" % job_id, body,
                            {"Content-Type": "application/json"}, user=user)[0]

    assert release(None, "4711") == 401
    assert release(BOB, "4711") == 403  # a user is no admin: the panel is the printer's
    assert release(ALICE, "0000") == 403  # a wrong PIN: the job keeps waiting
    assert record(printer, job_id, BOB)["job-state"] == "pending-held"
    assert release(ALICE, "4711") == 200
    assert wait_until(lambda: record(printer, job_id, BOB)["job-state"] == "completed")
