"""CUPS's ipptool suites (ipp-1.1, ipp-2.0, ipp-everywhere, ipp-2.1, ipp-2.2) against vprinter's profiles, with
ipptool as the client: a suite passes on a profile when none of its tests fails, ipptool ends cleanly, and the
printer lives through it (conformance_runs.judge)."""
import pytest

import conformance_runs


def test_pwg_raster_corpus_is_made(conformance):
    """Every PWG raster sample the profiles' resolutions and types call for is made (ipp-everywhere prints them)."""
    corpus = conformance.corpus
    if corpus is None:
        pytest.skip("no corpus made here: VP_PWG_CORPUS names one, or no profile of the run lists PWG raster")
    assert corpus.complete, "the PWG raster corpus was not made in full: %s" % corpus.report


def test_suite_passes(row, suite, conformance):
    result = conformance.result(row, suite)
    assert result.failed == 0, result.describe()


# The requests ipp-everywhere.test sends faulty on purpose, through the ipp-1.1.test it includes (via ipp-2.0.test):
# "Bad request-id value 0", the four "section 4.1.4" tests without attributes-charset or
# attributes-natural-language or with them swapped, "Unsupported IPP version 0.0", "No printer-uri operation
# attribute" and "Send-Document missing last-document". Each is found, as (operation, rule); the printer refuses it.
DELIBERATE_FAULTS = {("Get-Printer-Attributes", "request-id"),
                     ("Get-Printer-Attributes", "operation-attributes-order"),
                     ("Get-Printer-Attributes", "ipp-version"),
                     ("Get-Printer-Attributes", "missing-operation-attribute"),
                     ("Send-Document", "missing-operation-attribute")}
# On a printer that offers Print-URI and Send-URI (documentURI), ipp-1.1.test also sends each with document-uri
# bogus://bogus on purpose ("Print-URI with bad URI").
DELIBERATE_URI_FAULTS = {("Print-URI", "unsupported-value"), ("Send-URI", "unsupported-value")}


def test_ipp_everywhere_breaks_no_must_but_on_purpose(row, suite, conformance):
    """ipp-everywhere.test is a well-behaved client but for the faulty requests its included ipp-1.1.test sends on
    purpose: vprinter finds an error in each of those (docs/api.md "Findings"), which it refuses, and in no other
    request. A false alarm is named with its request, rule and message."""
    if suite != "ipp-everywhere" or row.startswith(conformance_runs.REFERENCE_ROW):
        pytest.skip("only ipp-everywhere's requests to vprinter are checked for findings")
    result = conformance.result(row, suite)
    assert result.client_errors is not None, "the printer's journal could not be read after the run"
    described = "ipptool's requests got error findings:\n" + result.describe_client_errors()
    found = {(entry.get("ipp", {}).get("operation"), finding["rule"]) for entry in result.client_errors
             for finding in entry["findings"] if finding["severity"] == "error"}
    accepted = [entry["id"] for entry in result.client_errors if entry.get("ipp", {}).get("status", "").startswith(
        "successful")]
    fetches = any(entry.get("ipp", {}).get("operation") == "Print-URI" for entry in result.all_requests)
    deliberate = DELIBERATE_FAULTS | (DELIBERATE_URI_FAULTS if fetches else set())
    assert found <= deliberate and not accepted, described
    assert found == deliberate, "faults ipp-1.1.test sends on purpose were not found: %s\n%s" % (
        sorted(deliberate - found), described)
    # "No Operation Attributes": an empty operation group lacks attributes-charset, attributes-natural-language and
    # printer-uri alike.
    empty = [entry for entry in result.all_requests if entry.get("ipp", {}).get("groups") == [] or
             [group["attributes"] for group in entry.get("ipp", {}).get("groups", [])] == [[]]]
    assert empty and all(entry.get("findings") for entry in empty), (
        "the request with no operation attributes got no finding: %s" % [entry["id"] for entry in empty])
