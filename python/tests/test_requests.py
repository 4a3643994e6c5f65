"""The request journal through the client: what a test sees of the requests its client sent, waiting for them,
clearing, and verification that passes, fails with near misses, and refuses a matcher it cannot read."""
import pytest

import vprinter
from vprinter import documents


@pytest.fixture
def printer(tmp_path):
    """A printer that records documents without rendering them: the journal is about the requests."""
    with vprinter.start(profile="duplex-laser", args=["--no-render"], work_dir=tmp_path) as running:
        yield running


def test_every_ipp_request_is_journaled_with_its_attributes_and_answer(printer):
    job_id = printer.print_file(documents.pdf(["journal"]), job_name="invoice 7", user="alice",
                                document_format="application/pdf", media="iso_a4_210x297mm")
    [entry] = printer.wait_for_requests(1, operation="Print-Job")
    ipp = entry["ipp"]
    assert entry["kind"] == "ipp" and entry["printer"] == printer.printer_record()["printer-name"]
    assert ipp["status"] == "successful-ok" and ipp["job-id"] == job_id
    assert ipp["groups"][0]["tag"] == "operation-attributes-tag"
    names = [attribute["name"] for attribute in ipp["groups"][0]["attributes"]]
    assert names[:2] == ["attributes-charset", "attributes-natural-language"]
    operation = {attribute["name"]: attribute["values"] for attribute in ipp["groups"][0]["attributes"]}
    assert operation["requesting-user-name"] == [{"tag": "nameWithoutLanguage", "value": "alice"}]
    assert ipp["document"]["format"] == ipp["document"]["detected-format"] == "application/pdf"
    assert ipp["document"]["size"] > 0
    assert len(ipp["document"]["sha256"]) == 64
    job = {attribute["name"]: attribute["values"] for group in ipp["groups"][1:] for attribute in group["attributes"]}
    assert job["media"] == [{"tag": "keyword", "value": "iso_a4_210x297mm"}]
    assert printer.requests(job=job_id, kind="ipp")[0]["id"] == entry["id"]


def test_api_calls_are_journaled_apart_and_reading_the_journal_is_not(printer):
    printer.clear_requests()
    printer.jobs()
    printer.requests()
    http = printer.requests(kind="http")
    assert [entry["http"]["path"] for entry in http] == ["/api/v1/jobs"]
    assert http[0]["http"]["status"] == 200 and "ipp" not in http[0]


def test_clearing_empties_the_journal_and_since_counts_on(printer):
    printer.jobs()
    last = printer.clear_requests()
    assert printer.requests() == []
    printer.jobs()
    [entry] = printer.requests()
    assert entry["id"] > last
    assert printer.requests(since=entry["id"]) == []


def test_waiting_for_requests_that_never_come_times_out_with_those_there_are(printer):
    with pytest.raises(vprinter.RequestsTimeout) as timeout:
        printer.wait_for_requests(1, timeout=0.5, operation="Cancel-Job")
    assert timeout.value.requests == []


def test_verify_counts_orders_and_names_near_misses(printer):
    printer.print_file(documents.pdf(["one"]), media="iso_a4_210x297mm")
    printer.print_file(documents.pdf(["two"]), media="na_letter_8.5x11in")
    printer.wait(2)
    assert printer.verify({"operation": "Print-Job"}, count=2)
    assert printer.verify({"operation": "Print-Job", "attributes": [{"name": "media", "equals": "iso_a4_210x297mm"}]},
                          count=1)
    assert printer.verify(sequence=[{"operation": "Print-Job"}, {"operation": "Print-Job"}])
    failed = printer.verify({"operation": "Print-Job", "attributes": [{"name": "media", "equals": "iso_a3_297x420mm"}]})
    assert not failed
    missed = [miss["missed"] for miss in failed["nearMisses"][:2]]
    assert missed == [["attribute media: na_letter_8.5x11in, not iso_a3_297x420mm"],
                      ["attribute media: iso_a4_210x297mm, not iso_a3_297x420mm"]]
    assert "near miss" in repr(failed)
    assert not printer.verify({"operation": "Cancel-Job"})
    assert not printer.verify({"operation": "Print-Job"}, at_most=1)


def test_a_matcher_with_a_misspelt_key_is_refused_not_matched(printer):
    with pytest.raises(vprinter.APIError) as refused:
        printer.verify({"operaton": "Print-Job"})
    assert refused.value.status == 400 and "operaton" in refused.value.body["error"]


def test_the_journal_can_be_turned_off(tmp_path):
    with vprinter.start(profile="duplex-laser", args=["--no-render", "--journal-size", "0"], work_dir=tmp_path) as off:
        with pytest.raises(vprinter.APIError) as refused:
            off.requests()
        assert refused.value.status == 404
