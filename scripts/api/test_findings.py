"""Client findings (docs/api.md "Findings"): a corpus of faulty IPP requests, one or more per rule a single request
can break, each sent to a printer and expected to leave its finding (rule, severity, reference) on its journal
entry; a well-formed Print-Job leaves none that matters; the two rules that need several requests
(create-job-without-document, polling-rate); no findings on the System Service path; and `vprinter report`, whose
exit status a CI step reads.

The requests are built with vprinter.ipp's encoder where it can say the fault, and assembled from its pieces
(header, group, attribute) where it cannot: groups or attributes out of order, duplicates, a negative request-id.
"""
import collections
import json
import pathlib
import re
import struct
import time

import pytest

from vprinter import documents, ipp
from vptest import waiting
from vptest.printer import run_vprinter

# The printer of the corpus: duplex-laser (media-supported na_letter, iso_a4, na_legal; monochrome; no
# page-delivery-supported or print-darkness-supported; job-sheets supported but not a job creation attribute).
PROFILE = "duplex-laser"
# What the corpus's requests call themselves, to tell them apart in GET /api/v1/clients.
USER_AGENT = "vprinter-findings-corpus/1"
USER = ("requesting-user-name", "pytest")
# A name and a keyword one byte longer than RFC 8011 allows (255 octets, sections 5.1.2 and 5.1.4).
TOO_LONG_NAME = "n" * 256
TOO_LONG_KEYWORD = "iso_a4_" + "x" * 249
# Severities at or above each level, as the finding= filter selects them.
AT_OR_ABOVE = {"info": {"info", "warning", "error"}, "warning": {"warning", "error"}, "error": {"error"}}


class Case(collections.namedtuple("Case", "name build rule severity reference attribute also needs_job document")):
    """One faulty request: ``build(uri, request_id, job_id)`` gives its bytes (up to end-of-attributes);
    ``rule``, ``severity`` and ``reference`` are the finding it must get (``reference`` a tuple when the table
    gives one as two parts, any of which may be said), ``attribute`` the attribute it names (None: not checked);
    ``also`` other rules the same request may fairly be found to break; ``needs_job`` asks for a job made with a
    clean Create-Job first (its id goes to build); ``document`` follows the request."""

    def __new__(cls, name, build, rule, severity, reference, attribute=None, also=(), needs_job=False,
                document=b""):
        return super().__new__(cls, name, build, rule, severity, reference, attribute, frozenset(also), needs_job,
                               document)


def header(operation, request_id, version=(2, 0)):
    """The 8 bytes before the groups (RFC 8010 section 3.1.1); request_id may be negative (a signed integer)."""
    return struct.pack(">BBHi", version[0], version[1], operation, request_id)


def operation_group(*pairs):
    """An operation attributes group of (name, value) pairs in exactly this order (values typed as ipp.request
    types them)."""
    return ipp.group(ipp.OPERATION_ATTRIBUTES, list(pairs))


def target(uri):
    return ("printer-uri", ipp.Value(ipp.URI, uri))


def ordered(operation, *pairs, groups=b"", request_id=None):
    """A request whose operation group is ``pairs`` in the order given (charset, language and target included
    only where a pair puts them; ``"target"`` stands for printer-uri, ``"job"`` for job-id), then ``groups``
    (bytes), then end-of-attributes: for the faults of order. ``request_id`` replaces the one the runner gives."""
    def build(uri, given_id, job_id):
        placeholders = {"target": target(uri), "job": ("job-id", job_id)}
        attributes = [placeholders.get(pair, pair) if isinstance(pair, str) else pair for pair in pairs]
        return (header(operation, given_id if request_id is None else request_id) + operation_group(*attributes)
                + groups + bytes([ipp.END_OF_ATTRIBUTES]))
    return build


def encoded(operation, operation_attributes=(), job_attributes=None, user=True, job=False, **request_options):
    """A request made by ipp.request: charset, language, printer-uri, then job-id (with ``job``),
    requesting-user-name (unless ``user`` is false) and ``operation_attributes``; ``job_attributes`` in a job
    group. ``request_options`` are ipp.request's (a ``request_id`` given here replaces the one the runner gives)."""
    def build(uri, request_id, job_id):
        attributes = ([("job-id", job_id)] if job else []) + ([USER] if user else []) + list(operation_attributes)
        options = dict({"request_id": request_id}, **request_options)
        return ipp.request(operation, uri, attributes, job_attributes, **options)
    return build


def validate(job_attributes=None, operation_attributes=(), **options):
    """A Validate-Job: the job operation that makes no job, so that the corpus leaves the printer as it was."""
    return encoded(ipp.VALIDATE_JOB, operation_attributes, job_attributes, **options)


def typed(tag, value):
    return ipp.Value(tag, value)


LANGUAGE = ("attributes-natural-language", "en")
CHARSET = ("attributes-charset", "utf-8")
COPIES_TWICE = ipp.attribute("copies", 1) + ipp.attribute("copies", 2)


def job_group_first(uri, request_id, job_id):
    """A Validate-Job whose job attributes group comes before its operation attributes group."""
    return (header(ipp.VALIDATE_JOB, request_id) + ipp.group(ipp.JOB_ATTRIBUTES, [("copies", 1)])
            + operation_group(CHARSET, LANGUAGE, target(uri), USER) + bytes([ipp.END_OF_ATTRIBUTES]))


CORPUS = [
    # operation-attributes-order: attributes-natural-language sent before attributes-charset.
    Case("language-before-charset", ordered(ipp.VALIDATE_JOB, LANGUAGE, CHARSET, "target", USER),
         "operation-attributes-order", "error", "RFC 8011 §4.1.4"),
    # operation-attributes-order: attributes-natural-language third, after printer-uri (which is then second).
    Case("language-third", ordered(ipp.VALIDATE_JOB, CHARSET, "target", LANGUAGE, USER),
         "operation-attributes-order", "error", "RFC 8011 §4.1.4", also={"target-order"}),
    # target-order: printer-uri the fifth operation attribute, not the third.
    Case("printer-uri-fifth", ordered(ipp.VALIDATE_JOB, CHARSET, LANGUAGE, USER, ("job-name", "late"), "target"),
         "target-order", "error", "RFC 8011 §4.1.5", attribute="printer-uri"),
    # target-order: job-id after requesting-user-name, not fourth right after printer-uri.
    Case("job-id-fifth", ordered(ipp.GET_JOB_ATTRIBUTES, CHARSET, LANGUAGE, "target", USER, "job"), "target-order",
         "error", "RFC 8011 §4.1.5", attribute="job-id", needs_job=True),
    # group-order: the job attributes group before the operation attributes group.
    Case("job-group-first", job_group_first, "group-order", "error", "RFC 8010 §3.1.1",
         also={"operation-attributes-order", "target-order"}),
    # group-order: a second operation attributes group after the job group.
    Case("operation-group-again", ordered(
        ipp.VALIDATE_JOB, CHARSET, LANGUAGE, "target", USER,
        groups=ipp.group(ipp.JOB_ATTRIBUTES, [("copies", 1)]) + operation_group(("job-name", "again"))),
         "group-order", "error", "RFC 8010 §3.1.1"),
    # request-id: 0.
    Case("request-id-zero", encoded(ipp.VALIDATE_JOB, request_id=0),
         "request-id", "error", "RFC 8011 §4.1.2"),
    # request-id: negative (-5 as a signed integer).
    Case("request-id-negative", ordered(ipp.VALIDATE_JOB, CHARSET, LANGUAGE, "target", USER, request_id=-5),
         "request-id", "error", "RFC 8011 §4.1.2"),
    # ipp-version: 2.1, which ipp-versions-supported (1.0, 1.1, 2.0) does not list.
    Case("version-2.1", encoded(ipp.GET_PRINTER_ATTRIBUTES, version=(2, 1)), "ipp-version", "error",
         "RFC 8011 §4.1.8"),
    # charset: iso-8859-1, which charset-supported (utf-8, us-ascii) does not list.
    Case("charset-latin-1", encoded(ipp.GET_PRINTER_ATTRIBUTES, charset="iso-8859-1"), "charset", "error",
         "RFC 8011 §4.1.4.1", attribute="attributes-charset"),
    # missing-operation-attribute: Get-Job-Attributes with printer-uri and no job-id.
    Case("job-id-missing", encoded(ipp.GET_JOB_ATTRIBUTES), "missing-operation-attribute", "error",
         "RFC 8011 §4.1.5", attribute="job-id", also={"target-order"}),
    # missing-operation-attribute: Send-Document without last-document.
    Case("last-document-missing", encoded(ipp.SEND_DOCUMENT, [("document-format", "application/pdf")], job=True),
         "missing-operation-attribute", "error", "RFC 8011 §4.3.1.1", attribute="last-document", needs_job=True,
         document=documents.pdf(["sent without last-document"])),
    # requesting-user-name: a Validate-Job (a job operation) without it.
    Case("anonymous-validate-job", validate(user=False), "requesting-user-name", "warning", "RFC 8011 §4.2.1.1"),
    # requesting-user-name: Get-Jobs with my-jobs=true without it.
    Case("anonymous-my-jobs", encoded(ipp.GET_JOBS, [("my-jobs", True)], user=False), "requesting-user-name",
         "warning", "RFC 8011 §4.2.1.1"),
    # value-tag: copies as a keyword (its syntax is integer).
    Case("copies-keyword", validate({"copies": typed(ipp.KEYWORD, "two")}), "value-tag", "error",
         ("RFC 8011 §5.1", "RFC 8010 §3.5.2"), attribute="copies", also={"unsupported-value"}),
    # value-tag: job-name as a keyword (its syntax is name).
    Case("job-name-keyword", validate(operation_attributes=[("job-name", typed(ipp.KEYWORD, "report"))]),
         "value-tag", "error", ("RFC 8011 §5.1", "RFC 8010 §3.5.2"), attribute="job-name"),
    # value-tag: media as an integer (its syntax is keyword | name).
    Case("media-integer", validate({"media": typed(ipp.INTEGER, 4)}), "value-tag", "error",
         ("RFC 8011 §5.1", "RFC 8010 §3.5.2"), attribute="media", also={"unsupported-value"}),
    # value-tag: sides as a name (its syntax is keyword).
    Case("sides-name", validate({"sides": typed(ipp.NAME, "one-sided")}), "value-tag", "error",
         ("RFC 8011 §5.1", "RFC 8010 §3.5.2"), attribute="sides", also={"unsupported-value"}),
    # value-count: sides with two values (single-valued).
    Case("sides-twice", validate({"sides": ["one-sided", "two-sided-long-edge"]}), "value-count", "error",
         "RFC 8011 §5.2", attribute="sides"),
    # value-count: copies with two values.
    Case("copies-two-values", validate({"copies": [1, 2]}), "value-count", "error", "RFC 8011 §5.2",
         attribute="copies"),
    # value-range: copies 0 (copies >= 1).
    Case("copies-zero", validate({"copies": 0}), "value-range", "error", "RFC 8011 §5.2.5", attribute="copies",
         also={"unsupported-value"}),
    # value-range: job-priority 101 (1 to 100).
    Case("job-priority-101", validate({"job-priority": 101}), "value-range", "error", "RFC 8011 §5.2.1",
         attribute="job-priority", also={"unsupported-value"}),
    # value-range: page-ranges 5-2 (lower above upper).
    Case("page-ranges-backwards", validate({"page-ranges": (5, 2)}), "value-range", "error", "RFC 8011 §5.2.7",
         attribute="page-ranges"),
    # value-range: page-ranges 0-3 (pages count from 1).
    Case("page-ranges-zero", validate({"page-ranges": (0, 3)}), "value-range", "error", "RFC 8011 §5.2.7",
         attribute="page-ranges"),
    # value-range: number-up 0 (number-up >= 1).
    Case("number-up-zero", validate({"number-up": 0}), "value-range", "error", "RFC 8011 §5.2.9",
         attribute="number-up", also={"unsupported-value"}),
    # malformed-message: a job-name of 256 octets (name: 255 at most); the decoder refuses the message.
    Case("job-name-256", validate(operation_attributes=[("job-name", TOO_LONG_NAME)]), "malformed-message", "error",
         "RFC 8011 §5.1"),
    # malformed-message: a media keyword of 256 octets (keyword: 255 at most).
    Case("media-keyword-256", validate({"media": TOO_LONG_KEYWORD}), "malformed-message", "error", "RFC 8011 §5.1"),
    # malformed-message: an attribute whose value runs past the end of the message.
    Case("value-past-the-end", lambda uri, request_id, job_id: header(ipp.GET_PRINTER_ATTRIBUTES, request_id)
         + operation_group(CHARSET, LANGUAGE, target(uri))[:-2], "malformed-message", "error", "RFC 8010 §3.1"),
    # keyword-syntax: sides with capitals.
    Case("sides-capitals", validate({"sides": "Two-Sided-Long-Edge"}), "keyword-syntax", "error", "RFC 8011 §5.1.4",
         attribute="sides", also={"unsupported-value"}),
    # keyword-syntax: a print-color-mode keyword that starts with a digit and holds a space.
    Case("color-mode-digit-space", validate({"print-color-mode": "1 color"}), "keyword-syntax", "error",
         "RFC 8011 §5.1.4", attribute="print-color-mode", also={"unsupported-value"}),
    # uri-syntax: a document-uri holding a CR/LF and a space (RFC 8010 §3.9: a uri is RFC 3986's, whose characters
    # exclude both); the printer refuses the request as well (client-error-bad-request).
    Case("uri-with-crlf", validate(operation_attributes=[
        ("document-uri", typed(ipp.URI, "http://127.0.0.2/doc.pdf HTTP/1.1\r\nHost: x"))]), "uri-syntax", "error",
        "RFC 8010 §3.9, RFC 3986 §2", attribute="document-uri", also={"unsupported-attribute"}),
    # duplicate-attribute: copies twice in the job group.
    Case("copies-duplicated", ordered(ipp.VALIDATE_JOB, CHARSET, LANGUAGE, "target", USER,
                                      groups=bytes([ipp.JOB_ATTRIBUTES]) + COPIES_TWICE),
         "duplicate-attribute", "error", "RFC 8011 §4.1.3", attribute="copies"),
    # duplicate-attribute: requesting-user-name twice in the operation group.
    Case("user-duplicated", ordered(ipp.VALIDATE_JOB, CHARSET, LANGUAGE, "target", USER, ("requesting-user-name",
                                                                                        "again")),
         "duplicate-attribute", "error", "RFC 8011 §4.1.3", attribute="requesting-user-name"),
    # wrong-group: copies (a job template attribute) in the operation group.
    Case("copies-in-operation-group", validate(operation_attributes=[("copies", 1)]), "wrong-group", "error",
         "RFC 8011 §4.2.1.1", attribute="copies"),
    # wrong-group: job-name (an operation attribute) in the job group.
    Case("job-name-in-job-group", validate({"job-name": "misplaced"}), "wrong-group", "error", "RFC 8011 §4.2.1.1",
         attribute="job-name"),
    # unsupported-value: media iso_a3 on a printer whose media-supported lacks it.
    Case("media-a3", validate({"media": "iso_a3_297x420mm"}), "unsupported-value", "error", "RFC 8011 §4.1.7",
         attribute="media"),
    # unsupported-value: print-color-mode color on a monochrome printer.
    Case("color-on-monochrome", validate({"print-color-mode": "color"}), "unsupported-value", "error",
         "RFC 8011 §4.1.7", attribute="print-color-mode"),
    # unsupported-attribute: page-delivery, which this printer has no page-delivery-supported for.
    Case("page-delivery", validate({"page-delivery": "reverse-order-face-up"}), "unsupported-attribute", "warning",
         "RFC 8011 §4.1.7", attribute="page-delivery"),
    # not-creation-attribute: job-sheets, supported but not in job-creation-attributes-supported.
    Case("job-sheets", validate({"job-sheets": "none"}), "not-creation-attribute", "warning",
         "PWG 5100.11 (job-creation-attributes-supported)", attribute="job-sheets"),
    # document-format-unsupported: application/postscript, not in document-format-supported.
    Case("postscript", validate(operation_attributes=[("document-format", "application/postscript")]),
         "document-format-unsupported", "error", "RFC 8011 §4.1.9", attribute="document-format"),
    # document-format-mismatch: a PDF sent as image/jpeg.
    Case("pdf-sent-as-jpeg", encoded(ipp.PRINT_JOB, [("document-format", "image/jpeg")]),
         "document-format-mismatch", "error", "RFC 8011 §4.2.1.1", attribute="document-format",
         document=documents.pdf(["a PDF, not a JPEG"])),
    # compression-unsupported: compress, not in compression-supported (none, deflate, gzip).
    Case("compress", validate(operation_attributes=[("compression", "compress")]), "compression-unsupported",
         "error", "RFC 8011 §4.2.1.1", attribute="compression"),
    # operation-not-supported: Print-URI, not in operations-supported.
    Case("print-uri", encoded(ipp.PRINT_URI, [("document-uri", "http://example.invalid/a.pdf")]),
         "operation-not-supported", "warning", "RFC 8011 §5.4.15"),
    # unknown-requested-attribute: Get-Printer-Attributes asking for an attribute no printer has.
    Case("requested-unknown", encoded(ipp.GET_PRINTER_ATTRIBUTES, [
        ("requested-attributes", [typed(ipp.KEYWORD, "printer-state"), typed(ipp.KEYWORD, "printer-flux-level")])]),
         "unknown-requested-attribute", "info", "RFC 8011 §4.2.5.1", attribute="requested-attributes"),
]


def references(case):
    return case.reference if isinstance(case.reference, tuple) else (case.reference,)


def create_job(printer):
    """A clean Create-Job; returns its job-id."""
    answer = printer.ipp(ipp.CREATE_JOB, {"job-name": "findings"}, headers={"User-Agent": USER_AGENT})
    assert ipp.successful(answer.status) and answer.job_id, hex(answer.status)
    return answer.job_id


def last_entry(printer):
    """The number of the journal's latest entry (0 when it has none)."""
    return max((entry["id"] for entry in printer.requests()), default=0)


def post(printer, case, request_id):
    """Sends one case's request (after a clean Create-Job when it needs a job); returns the request's bytes."""
    job_id = create_job(printer) if case.needs_job else 0
    body = case.build(printer.uri, request_id, job_id)
    answer = ipp.exchange(printer.uri, body + bytes(case.document), headers={"User-Agent": USER_AGENT})
    assert answer.status == 200, "%s: HTTP %d" % (case.name, answer.status)
    return body


def send(printer, case, request_id):
    """Sends one case's request; returns its journal entry, read through the API (checked against
    docs/openapi.json), found by its request-id after the requests before it."""
    since = last_entry(printer)
    body = post(printer, case, request_id)
    entries = printer.checked("GET", "/api/v1/requests?kind=ipp&since=%d" % since)
    # The request-id as sent (a negative one may be journaled as its 32 bits unsigned); an entry without its IPP
    # part says why (``problem``: the printer could not read the request).
    [entry] = [entry for entry in entries if entry.get("ipp", {}).get("operation") != "Create-Job"]
    if case.rule == "malformed-message":
        # The printer could not read the request: no IPP part, the decoder's reason as the problem.
        assert "ipp" not in entry and "malformed" in entry["problem"], (case.name, entry)
        return entry
    assert "ipp" in entry, "%s: journaled without its IPP part: %s" % (case.name, entry.get("problem"))
    assert entry["ipp"]["request-id"] % 2 ** 32 == struct.unpack(">I", body[4:8])[0], (case.name, entry["ipp"])
    return entry


def describe(findings):
    return "; ".join("%s %s (%s): %s" % (f["severity"], f["rule"], f["reference"], f["message"]) for f in findings)


def check_finding(case, entry):
    """The case's finding is on the entry, with its severity, reference and attribute; any other finding is of a
    rule the case allows."""
    findings = entry.get("findings", [])
    found = [finding for finding in findings if finding["rule"] == case.rule]
    assert found, "%s: no %s finding; the entry has: %s" % (case.name, case.rule, describe(findings) or "none")
    finding = found[0]
    assert finding["severity"] == case.severity, (case.name, finding)
    assert finding["reference"] in references(case), (case.name, finding)
    assert finding["message"], (case.name, finding)
    if case.attribute:
        assert finding.get("attribute") == case.attribute, (case.name, finding)
    others = {finding["rule"] for finding in findings} - {case.rule} - case.also
    assert not others, "%s: findings of other rules too: %s" % (case.name, describe(findings))
    return finding


@pytest.fixture(scope="module")
def corpus_printer(start_session_printer):
    """One printer that receives the whole corpus (the module's tests of single requests share it)."""
    return start_session_printer(profile=PROFILE)


def test_the_corpus_covers_every_rule_a_single_request_can_break():
    rules = {case.rule for case in CORPUS}
    assert len(CORPUS) >= 22 and len({case.name for case in CORPUS}) == len(CORPUS)
    assert rules == {
        "operation-attributes-order", "target-order", "group-order", "request-id", "ipp-version", "charset",
        "missing-operation-attribute", "requesting-user-name", "value-tag", "value-count", "value-range",
        "malformed-message", "keyword-syntax", "uri-syntax", "duplicate-attribute", "wrong-group", "unsupported-value",
        "unsupported-attribute", "not-creation-attribute", "document-format-unsupported",
        "document-format-mismatch", "compression-unsupported", "operation-not-supported",
        "unknown-requested-attribute"}


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_a_faulty_request_gets_its_finding(corpus_printer, case):
    entry = send(corpus_printer, case, 1000 + CORPUS.index(case))
    finding = check_finding(case, entry)
    # The rule= filter finds the entry; finding= finds it at its severity and below, not above.
    assert entry["id"] in [e["id"] for e in corpus_printer.requests(rule=case.rule)]
    for level, severities in AT_OR_ABOVE.items():
        listed = entry["id"] in [e["id"] for e in corpus_printer.requests(finding=level, since=entry["id"] - 1)]
        assert listed == any(f["severity"] in severities for f in entry["findings"]), (case.name, level)
    if case.rule == "unsupported-value":
        assert "supported" in finding["message"], finding


def test_an_unsupported_value_names_the_supported_ones(corpus_printer):
    entry = send(corpus_printer, CORPUS[[case.name for case in CORPUS].index("media-a3")], 999)
    [finding] = [f for f in entry["findings"] if f["rule"] == "unsupported-value"]
    assert finding["message"] == ("media iso_a3_297x420mm is not in media-supported: na_letter_8.5x11in, "
                                  "iso_a4_210x297mm, na_legal_8.5x14in"), finding


def test_a_long_supported_list_is_cut_after_eight(start_printer):
    printer = start_printer(profile="office-mfp")
    supported = ipp.send(printer.uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, printer.uri, [
        USER, ("requested-attributes", typed(ipp.KEYWORD, "media-supported"))])).group(
        ipp.PRINTER_ATTRIBUTES)["media-supported"]
    assert len(supported) > 8 and "iso_a0_841x1189mm" not in supported, supported
    answer = printer.ipp(ipp.VALIDATE_JOB, job_attributes={"media": "iso_a0_841x1189mm"})
    assert answer.status == ipp.SUCCESSFUL_OK_IGNORED_OR_SUBSTITUTED_ATTRIBUTES, hex(answer.status)
    [entry] = printer.requests(rule="unsupported-value")
    [finding] = entry["findings"]
    assert finding["message"] == "media iso_a0_841x1189mm is not in media-supported: %s, ... (%d in all)" % (
        ", ".join(supported[:8]), len(supported)), finding


def test_a_well_formed_print_job_gets_no_error_or_warning(printer):
    # vprinter's own clients: the harness's Print-Job and the Python package's.
    first = printer.print_job(copies=2, sides="two-sided-long-edge", media="iso_a4_210x297mm")
    second = printer.print_file(documents.pdf(["well formed"]), document_format="application/pdf",
                                print_color_mode="monochrome")
    printer.wait(2)
    entries = printer.requests(kind="ipp", operation="Print-Job")
    assert sorted(entry["ipp"]["job-id"] for entry in entries) == sorted([first, second])
    for entry in entries:
        serious = [f for f in entry.get("findings", []) if f["severity"] in ("error", "warning")]
        assert not serious, describe(serious)
    assert printer.requests(finding="warning") == []


def test_group_names_among_the_requested_attributes_are_fine(printer):
    names = ["all", "printer-description", "job-template", "media-col-database", "printer-state"]
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, [("requested-attributes", [typed(ipp.KEYWORD, name)
                                                                                 for name in names])])
    assert answer.status == ipp.SUCCESSFUL_OK, hex(answer.status)
    [entry] = printer.requests(kind="ipp")
    assert "findings" not in entry, describe(entry["findings"])


def test_the_system_service_path_is_never_checked(printer):
    system = "ipp://%s/ipp/system" % printer.authority
    body = ipp.request(ipp.GET_SYSTEM_ATTRIBUTES, system, [USER], target="system-uri", request_id=0)
    ipp.send(system, body)
    entries = printer.requests(kind="ipp")
    assert [entry["ipp"]["operation"] for entry in entries] == ["Get-System-Attributes"], entries
    assert "findings" not in entries[0], entries[0]["findings"]


def write_profile(folder, **attributes):
    """A profile file: duplex-laser with raw attributes."""
    path = pathlib.Path(folder) / "findings-profile.json"
    path.write_text(json.dumps({"extends": PROFILE, "attributes": attributes}))
    return path


def test_a_create_job_left_without_its_document_is_found_when_the_time_out_passes(start_printer, tmp_path):
    # multiple-operation-time-out comes from the printer's attributes: a raw attribute of the profile sets it to
    # one second (the least the printer takes), so that the time-out passes within the test.
    printer = start_printer(profile=str(write_profile(tmp_path, **{"multiple-operation-time-out": 1})))
    left = create_job(printer)
    canceled = create_job(printer)
    assert ipp.successful(printer.ipp(ipp.CANCEL_JOB, [("job-id", canceled)]).status)
    completed = create_job(printer)
    assert ipp.successful(printer.ipp(ipp.SEND_DOCUMENT, [("job-id", completed), ("last-document", True),
                                                         ("document-format", "application/pdf")],
                                      document=documents.pdf(["sent"])).status)
    [entry] = waiting.wait_for(lambda: printer.requests(rule="create-job-without-document"),
                               "the Create-Job left without a document to get its finding")
    assert entry["ipp"]["operation"] == "Create-Job" and entry["ipp"]["job-id"] == left, entry
    [finding] = entry["findings"]
    assert (finding["severity"], finding["reference"]) == ("error", "RFC 8011 §4.2.4"), finding
    # The job the time-out ended is the one left; the canceled and completed ones get no finding, also later.
    printer.wait_for_job_state(left, "aborted")
    assert [e["ipp"]["job-id"] for e in printer.requests(rule="create-job-without-document")] == [left]
    # The entry's line is written again to requests.jsonl with the finding: the last line of that id wins.
    path = pathlib.Path(printer.output_dir) / "requests.jsonl"

    def last_line():
        lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
        mine = [line for line in lines if line["id"] == entry["id"]]
        return mine and mine[-1].get("findings") and mine[-1]
    assert waiting.wait_for(last_line, "requests.jsonl to hold the Create-Job with its finding")["findings"] == \
        entry["findings"]


def get_job_attributes(printer, job_id):
    return printer.ipp(ipp.GET_JOB_ATTRIBUTES, [("job-id", job_id)], headers={"User-Agent": USER_AGENT})


def test_a_burst_of_polls_is_found_once(start_printer):
    printer = start_printer(profile=PROFILE)
    job_id = printer.print_job()
    since = last_entry(printer)
    for _ in range(8):
        get_job_attributes(printer, job_id)
    polls = printer.requests(operation="Get-Job-Attributes", since=since)
    assert len(polls) == 8
    found = [index for index, entry in enumerate(polls)
             if any(f["rule"] == "polling-rate" for f in entry.get("findings", []))]
    # Five in a row less than --poll-interval (1 s) apart: found on the fifth, once for the run.
    assert found == [4], [entry.get("findings") for entry in polls]
    [finding] = [f for f in polls[4]["findings"] if f["rule"] == "polling-rate"]
    assert finding["severity"] == "warning" and finding["reference"] in ("RFC 8011 §4.2.6", "PWG 5100.19",
                                                                         "RFC 8011 §4.2.6 / PWG 5100.19"), finding


def test_polls_slower_than_the_poll_interval_are_fine(start_printer):
    # --poll-interval 0.05 with the polls sent 0.15 s apart: slower than the interval by a margin a busy machine
    # cannot close. (Polls sent back to back arrived less than a millisecond apart in CI, under the 0.001 s this
    # test once used.) Under the default interval (1 s) the same polls are found, as the burst test shows, so
    # the option is what keeps them fine here.
    printer = start_printer("--poll-interval", "0.05", profile=PROFILE)
    job_id = printer.print_job()
    for _ in range(8):
        time.sleep(0.15)
        get_job_attributes(printer, job_id)
    assert printer.requests(rule="polling-rate") == []


def corpus_rules(severity):
    return sorted({case.rule for case in CORPUS if case.severity == severity})


def report(printer, *options):
    return run_vprinter("report", "--url", printer.uri, *options)


def test_report_fails_after_the_corpus_and_passes_on_a_clean_printer(start_printer):
    faulty = start_printer(profile=PROFILE)
    for index, case in enumerate(CORPUS):
        post(faulty, case, 2000 + index)
    status, out, err = report(faulty, "--fail-on", "error")
    assert status == 1, (status, out, err)
    # Each rule named as a word of its own (charset is also part of attributes-charset).
    missing = [rule for rule in corpus_rules("error") + corpus_rules("warning")
               if not re.search(r"(^|\s)%s(\s|$)" % re.escape(rule), out, re.M)]
    assert not missing, (missing, out)
    assert USER_AGENT in out, out
    status, out, err = report(faulty, "--json")
    assert status == 1, err
    summary = json.loads(out)
    assert summary == faulty.clients()
    [client] = [c for c in summary["clients"] if c["user-agent"] == USER_AGENT]
    assert {rule["rule"] for rule in client["rules"]} >= set(corpus_rules("error"))

    clean = start_printer(profile=PROFILE)
    clean.print_job()
    clean.wait(1)
    assert report(clean, "--fail-on", "error")[0] == 0
    status, out, err = report(clean, "--printer", clean.name)
    assert status == 0, (out, err)
    # A warning alone fails --fail-on warning, not the default (error).
    ipp.send(clean.uri, encoded(ipp.VALIDATE_JOB, user=False)(clean.uri, 7, 0))
    assert report(clean)[0] == 0
    status, out, _ = report(clean, "--fail-on", "warning")
    assert status == 1 and "requesting-user-name" in out, out
    clean.stop()
    assert report(clean)[0] == 2
