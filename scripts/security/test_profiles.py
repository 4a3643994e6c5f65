"""Every shipped profile (docs/profiles.md) behind TLS and HTTP Basic credentials (docs/security.md): the profile's
attributes are the same over TLS as in the clear but for the URIs, a job without credentials is refused with 401
and leaves nothing, a job with them is printed and owned by its user; on enterprise-laser, a job held for its
job-password (PWG 5100.11) is released at the printer by an admin only."""
import pytest
from vprinter.ipp import GET_PRINTER_ATTRIBUTES, OCTET_STRING, PRINT_JOB, SUCCESSFUL_OK, Value
from vptest.documents import pwg_of_postscript
from vptest.printer import shipped_profiles
from vptest.waiting import wait_until

from conftest import ALICE, BOB, USERS, ipp_call, job_folders

# The printing profiles (a scanner alone answers no IPP).
PROFILES = shipped_profiles()
# The attributes that name the printer's URIs and how they are protected: the only ones TLS and credentials change.
URI_ATTRIBUTES = {"printer-uri-supported", "uri-security-supported", "uri-authentication-supported",
                  "printer-icons", "printer-more-info", "printer-supply-info-uri", "printer-xri-supported",
                  "printer-strings-uri", "job-ids-supported-uri", "printer-current-time", "printer-up-time",
                  "printer-config-change-time", "printer-state-change-time", "printer-current-time",
                  "printer-state-change-date-time", "printer-config-change-date-time"}
# A page one inch square, white.
INCH_PAGE = "%!PS\n<< /PageSize [72 72] >> setpagedevice showpage\n"


def attribute_values(answer):
    """Every attribute's values by (group, name); a textWithLanguage value with its language."""
    return {(tag, name): [(value, getattr(value, "language", None)) for value in values]
            for tag, attributes in answer.groups for name, values in attributes.items()}


def resolution_of(answer):
    """The lowest pwg-raster-document-resolution-supported, in dots per inch."""
    return min(value[0] for value in answer.values("pwg-raster-document-resolution-supported"))


def inch_page(folder, dpi):
    """A one-page PWG raster (PWG 5102.4) of one white inch in sgray_8 at `dpi`: the format every IPP Everywhere
    printer takes, and sgray_8 every shipped profile lists."""
    with open(pwg_of_postscript(folder, "inch", INCH_PAGE, dpi=dpi), "rb") as file:
        return file.read()


def print_raster(printer, page, user=None, operation=()):
    attributes = [("job-name", "profile under tls"), ("document-format", "image/pwg-raster"), *operation]
    return ipp_call(printer, PRINT_JOB, attributes, page, user=user)


def record(printer, job_id, user):
    answer = printer.http("GET", "/api/v1/jobs/%d" % job_id, auth=user)
    return answer.json() if answer.status == 200 else None


@pytest.mark.parametrize("profile", PROFILES)
def test_every_profile_prints_over_tls_with_credentials(start_printer, tmp_path, profile):
    printer = start_printer("--tls", *USERS, "--profile", profile)
    status, _, ipp_status, secure = ipp_call(printer, GET_PRINTER_ATTRIBUTES)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    assert "tls" in secure.values("uri-security-supported")
    assert set(secure.values("uri-authentication-supported")) == {"basic"}
    assert any(uri.startswith("ipps://") for uri in secure.values("printer-uri-supported"))
    secure_values, plain_values = attribute_values(secure), attribute_values(ipp_call(
        printer, GET_PRINTER_ATTRIBUTES, tls=False)[3])
    differing = {name for tag, name in set(secure_values) | set(plain_values)
                 if secure_values.get((tag, name)) != plain_values.get((tag, name))}
    assert differing <= URI_ATTRIBUTES, profile

    page = inch_page(tmp_path, resolution_of(secure))
    assert print_raster(printer, page)[0] == 401
    assert job_folders(printer) == []
    status, _, ipp_status, job = print_raster(printer, page, user=BOB)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK), profile
    done = wait_until(lambda: (record(printer, job.job_id, BOB) or {}).get("job-state") == "completed")
    assert done, "%s: %s" % (profile, record(printer, job.job_id, BOB))
    assert record(printer, job.job_id, BOB)["job-originating-user-name"] == "bob"
    assert printer.alive()


def test_a_job_password_job_is_released_at_the_printer_by_an_admin(start_printer, tmp_path):
    printer = start_printer("--tls", *USERS, "--profile", "enterprise-laser")
    attributes = ipp_call(printer, GET_PRINTER_ATTRIBUTES)[3]
    pin = [("job-password", Value(OCTET_STRING, b"4711"))]
    page = inch_page(tmp_path, resolution_of(attributes))
    status, _, ipp_status, job = print_raster(printer, page, user=BOB, operation=pin)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
    job_id = job.job_id
    held = wait_until(lambda: (record(printer, job_id, BOB) or {}).get("job-state") == "pending-held")
    assert held and record(printer, job_id, BOB)["job-state-reasons"] == ["job-password-wait"]

    def release(user, pin):
        return printer.http("POST", "/api/v1/jobs/%d/release" % job_id, {"job-password": pin}, auth=user).status

    assert release(None, "4711") == 401
    assert release(BOB, "4711") == 403  # a user is no admin: the panel is the printer's
    assert release(ALICE, "0000") == 403  # a wrong PIN: the job keeps waiting
    assert record(printer, job_id, BOB)["job-state"] == "pending-held"
    assert release(ALICE, "4711") == 200
    assert wait_until(lambda: record(printer, job_id, BOB)["job-state"] == "completed")
