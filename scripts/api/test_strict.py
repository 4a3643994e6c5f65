"""Strict mode (docs/api.md "Strict mode"): a strict printer refuses what a lenient one substitutes or ignores, and
the finding stays on the journal entry either way. --strict makes every printer strict; "strict": true in a
--config printer's options, POST /api/v1/printers with "strict": true and POST /api/v1/printers/NAME/strict with
{"strict": true} make one."""
import json
import urllib.parse

import pytest

from vprinter import documents, ipp

PROFILE = "duplex-laser"
# media-supported of duplex-laser is na_letter, iso_a4, na_legal: A3 is not among them.
UNSUPPORTED_MEDIA = {"media": "iso_a3_297x420mm"}


@pytest.fixture
def pair(start_printer):
    """A lenient printer (the default) and one started with --strict."""
    return start_printer(profile=PROFILE), start_printer("--strict", profile=PROFILE)


def findings_of(printer, uri=None):
    """The rules found on the latest IPP request to the printer (of ``uri`` when given)."""
    name = printer.name if uri is None else uri.rsplit("/", 1)[-1]
    entry = printer.requests(kind="ipp", printer=name)[-1]
    return [finding["rule"] for finding in entry.get("findings", [])], entry


def validate_media(printer, uri=None):
    return printer.ipp(ipp.VALIDATE_JOB, job_attributes=UNSUPPORTED_MEDIA, uri=uri)


def assert_lenient_media(answer):
    assert answer.status == ipp.SUCCESSFUL_OK_IGNORED_OR_SUBSTITUTED_ATTRIBUTES, hex(answer.status)


def assert_strict_media(answer):
    assert answer.status == ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED, hex(answer.status)
    assert answer.group(ipp.UNSUPPORTED_ATTRIBUTES).get("media") == ["iso_a3_297x420mm"], answer.groups


def test_a_strict_printer_refuses_media_it_does_not_support(pair):
    lenient, strict = pair
    assert_lenient_media(validate_media(lenient))
    assert_strict_media(validate_media(strict))
    # A Print-Job too: refused, and no job made.
    answer = strict.ipp(ipp.PRINT_JOB, {"document-format": "application/pdf"}, UNSUPPORTED_MEDIA,
                        document=documents.pdf(["refused"]))
    assert answer.status == ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED and strict.jobs() == []
    # The finding is on both printers' entries; the strict one's answer is the refusal.
    for printer in pair:
        rules, entry = findings_of(printer)
        assert "unsupported-value" in rules, entry
    assert findings_of(strict)[1]["ipp"]["status"] == "client-error-attributes-or-values-not-supported"


@pytest.mark.parametrize("where, attributes, refusal", [
    # copies as a keyword in the job group: 0x040B with the unsupported group.
    ("job", {"copies": ipp.Value(ipp.KEYWORD, "two")}, ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED),
    # job-name as a keyword in the operation group: client-error-bad-request.
    ("operation", [("job-name", ipp.Value(ipp.KEYWORD, "report"))], ipp.CLIENT_ERROR_BAD_REQUEST),
], ids=["job-group", "operation-group"])
def test_a_strict_printer_refuses_a_wrong_value_tag(pair, where, attributes, refusal):
    lenient, strict = pair
    arguments = {"job_attributes": attributes} if where == "job" else {"operation_attributes": attributes}
    # (A lenient printer ignores a job attribute it cannot read; an operation attribute it may refuse anyway.)
    lenient_answer = lenient.ipp(ipp.VALIDATE_JOB, **arguments)
    assert where != "job" or ipp.successful(lenient_answer.status), hex(lenient_answer.status)
    answer = strict.ipp(ipp.VALIDATE_JOB, **arguments)
    assert answer.status == refusal, hex(answer.status)
    if refusal == ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED:
        assert "copies" in answer.group(ipp.UNSUPPORTED_ATTRIBUTES), answer.groups
    for printer in pair:
        assert "value-tag" in findings_of(printer)[0]


def test_a_strict_printer_refuses_a_target_out_of_place(pair):
    def request(printer):
        # printer-uri after requesting-user-name and job-name: the fifth operation attribute, not the third.
        attributes = [("attributes-charset", "utf-8"), ("attributes-natural-language", "en"),
                      ("requesting-user-name", "pytest"), ("job-name", "late"),
                      ("printer-uri", ipp.Value(ipp.URI, printer.uri))]
        return ipp.send(printer.uri, ipp.request(ipp.VALIDATE_JOB, None, attributes, charset=None,
                                                 natural_language=None))
    lenient, strict = pair
    assert ipp.successful(request(lenient).status)
    assert request(strict).status == ipp.CLIENT_ERROR_BAD_REQUEST
    for printer in pair:
        assert "target-order" in findings_of(printer)[0]


def test_every_printer_refuses_a_value_too_long(pair):
    # The decoder refuses a name longer than RFC 8011 section 5.1.3 allows, strict or not: the request is no message
    # the printer can read, and its finding says so.
    long_name = [("job-name", "n" * 256)]
    for printer in pair:
        assert printer.ipp(ipp.VALIDATE_JOB, long_name).status == ipp.CLIENT_ERROR_REQUEST_VALUE_TOO_LONG
        assert "malformed-message" in findings_of(printer)[0]


def test_a_strict_printer_aborts_a_document_that_is_not_its_format(pair):
    lenient, strict = pair
    pdf = documents.pdf(["a PDF sent as a JPEG"])
    jpeg = {"document-format": "image/jpeg"}
    assert ipp.successful(lenient.ipp(ipp.PRINT_JOB, jpeg, document=pdf).status)
    answer = strict.ipp(ipp.PRINT_JOB, jpeg, document=pdf)
    assert answer.status == ipp.CLIENT_ERROR_DOCUMENT_FORMAT_ERROR, hex(answer.status)
    # A job made of it is aborted with document-format-error.
    for job in strict.jobs():
        record = strict.wait_for_job_state(job, "aborted")
        assert "document-format-error" in record["job-state-reasons"], record
    for printer in pair:
        assert "document-format-mismatch" in findings_of(printer)[0]


def test_warnings_and_info_never_refuse(pair):
    _, strict = pair
    # No requesting-user-name on a job operation: a warning.
    assert ipp.successful(strict.ipp(ipp.VALIDATE_JOB, user=None).status)
    assert "requesting-user-name" in findings_of(strict)[0]
    # An attribute no printer has among the requested ones: info.
    answer = strict.ipp(ipp.GET_PRINTER_ATTRIBUTES, [
        ("requested-attributes", [ipp.Value(ipp.KEYWORD, "printer-state"), ipp.Value(ipp.KEYWORD, "printer-flux")])])
    assert ipp.successful(answer.status) and "printer-state" in answer.group(ipp.PRINTER_ATTRIBUTES)
    assert "unknown-requested-attribute" in findings_of(strict)[0]


@pytest.mark.parametrize("attributes, rule", [
    ({"page-delivery": "reverse-order-face-up"}, "unsupported-attribute"),
    ({"job-sheets": "none"}, "not-creation-attribute"),
], ids=["unsupported-attribute", "not-creation-attribute"])
def test_job_template_warnings_are_refused_as_with_fidelity(pair, attributes, rule):
    # The two warnings of job template attributes are what ipp-attribute-fidelity=true refuses: a strict printer
    # refuses them (the spec's first strict rule), a lenient one ignores them.
    lenient, strict = pair
    [(name, _)] = attributes.items()
    assert ipp.successful(lenient.ipp(ipp.VALIDATE_JOB, job_attributes=attributes).status)
    answer = strict.ipp(ipp.VALIDATE_JOB, job_attributes=attributes)
    assert answer.status == ipp.CLIENT_ERROR_ATTRIBUTES_OR_VALUES_NOT_SUPPORTED, hex(answer.status)
    assert name in answer.group(ipp.UNSUPPORTED_ATTRIBUTES), answer.groups
    for printer in pair:
        assert rule in findings_of(printer)[0]


def printer_uri(printer, name):
    return "ipp://%s/ipp/print/%s" % (printer.authority, name)


def set_strict(printer, name, strict, status=200):
    """POST /api/v1/printers/NAME/strict with {"strict": ``strict``}, checked against docs/openapi.json; a body
    that is not a boolean is sent as it is."""
    body = {"strict": strict} if isinstance(strict, bool) else strict
    return printer.checked("POST", "/api/v1/printers/%s/strict" % urllib.parse.quote(name, safe=""), status, body)


def strictness(printer, name):
    return printer.checked("GET", "/api/v1/printers/" + urllib.parse.quote(name, safe=""))["strict"]


def test_strict_in_a_config_file_makes_only_that_printer_strict(start_printer, tmp_path):
    config = tmp_path / "strict.json"
    config.write_text(json.dumps({"printers": [{"profile": PROFILE, "name": "lenient"},
                                               {"profile": PROFILE, "name": "picky", "options": {"strict": True}}]}))
    printer = start_printer("--config", str(config))
    assert (strictness(printer, "lenient"), strictness(printer, "picky")) == (False, True)
    assert_lenient_media(validate_media(printer, printer_uri(printer, "lenient")))
    assert_strict_media(validate_media(printer, printer_uri(printer, "picky")))
    assert "unsupported-value" in findings_of(printer, printer_uri(printer, "picky"))[0]


def test_the_api_makes_a_printer_strict_and_lenient_again(printer):
    created = printer.checked("POST", "/api/v1/printers", 201, {"name": "picky", "profile": PROFILE, "strict": True})
    assert created["strict"] is True and strictness(printer, printer.name) is False
    uri = printer_uri(printer, "picky")
    assert_strict_media(validate_media(printer, uri))
    assert set_strict(printer, "picky", False) == {"printer-name": "picky", "strict": False}
    assert strictness(printer, "picky") is False
    assert_lenient_media(validate_media(printer, uri))
    set_strict(printer, "picky", True)
    assert_strict_media(validate_media(printer, uri))
    # The printer started lenient is made strict the same way.
    set_strict(printer, printer.name, True)
    assert_strict_media(validate_media(printer))
    # Each of these requests has its finding, refused or not.
    entries = printer.requests(kind="ipp", operation="Validate-Job")
    assert len(entries) == 4 and all("unsupported-value" in [f["rule"] for f in entry["findings"]]
                                     for entry in entries), entries
    assert [entry["ipp"]["status"] for entry in entries] == [
        "client-error-attributes-or-values-not-supported", "successful-ok-ignored-or-substituted-attributes",
        "client-error-attributes-or-values-not-supported", "client-error-attributes-or-values-not-supported"]
    # A body that is not {"strict": true|false} is refused.
    assert set_strict(printer, "picky", True, status=200)["strict"] is True
    assert set_strict(printer, "picky", {"strict": 1}, status=400)["error"]
