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


# What the findings tests' requests call themselves, so that GET /api/v1/clients can tell them apart.
FINDINGS_AGENT = "findings-test/1.0"


def send_request(printer, operation, operation_attributes, job_attributes=None, document=b"", user="pytest"):
    """An IPP request made with the package's encoder and sent with FINDINGS_AGENT as its User-Agent: the
    charset, language and printer-uri first, then requesting-user-name (unless ``user`` is None), then the
    others. Returns the decoded answer."""
    attributes = ([] if user is None else [("requesting-user-name", user)]) + list(operation_attributes)
    body = vprinter.ipp.request(operation, printer.uri, attributes, job_attributes)
    return vprinter.ipp.send(printer.uri, body, document, headers={"User-Agent": FINDINGS_AGENT})


def get_printer_attributes(printer, user="pytest"):
    return send_request(printer, vprinter.ipp.GET_PRINTER_ATTRIBUTES,
                        [("requested-attributes", vprinter.ipp.Value(vprinter.ipp.KEYWORD, "printer-state"))],
                        user=user)


def test_findings_filter_the_journal_by_severity_and_rule(printer):
    printer.print_file(documents.pdf(["clean"]), document_format="application/pdf", media="iso_a4_210x297mm")
    # copies as a keyword: value-tag, an error; a Print-Job without requesting-user-name: a warning.
    send_request(printer, vprinter.ipp.VALIDATE_JOB, [], {"copies": vprinter.ipp.Value(vprinter.ipp.KEYWORD, "two")})
    send_request(printer, vprinter.ipp.PRINT_JOB, [("document-format", "application/pdf")],
                 document=documents.pdf(["anonymous"]), user=None)
    printer.wait(2)
    clean, value_tag, anonymous = printer.requests(kind="ipp")
    assert "findings" not in clean, clean["findings"]
    [finding] = [finding for finding in value_tag["findings"] if finding["rule"] == "value-tag"]
    assert (finding["severity"], finding.get("attribute")) == ("error", "copies")
    assert [f["rule"] for f in anonymous["findings"]] == ["requesting-user-name"]
    assert anonymous["findings"][0]["severity"] == "warning"
    ids = lambda entries: [entry["id"] for entry in entries]  # noqa: E731
    assert ids(printer.requests(finding="error")) == [value_tag["id"]]
    assert ids(printer.requests(finding="warning")) == [value_tag["id"], anonymous["id"]]
    assert ids(printer.requests(finding="info")) == [value_tag["id"], anonymous["id"]]
    assert ids(printer.requests(rule="value-tag")) == [value_tag["id"]]
    assert ids(printer.requests(rule="requesting-user-name", operation="Print-Job")) == [anonymous["id"]]
    assert printer.requests(rule="keyword-syntax") == []
    with pytest.raises(ValueError):
        printer.requests(rule=["value-tag", "charset"])


def test_clients_sums_up_each_client_and_its_findings(printer):
    printer.clear_requests()
    get_printer_attributes(printer)
    get_printer_attributes(printer)
    send_request(printer, vprinter.ipp.VALIDATE_JOB, [], {"copies": 0})
    send_request(printer, vprinter.ipp.VALIDATE_JOB, [], {"copies": -3})
    summary = printer.clients()
    [client] = [entry for entry in summary["clients"] if entry["user-agent"] == FINDINGS_AGENT]
    assert client["address"] == "127.0.0.1" and client["requests"] == 4
    assert client["operations"] == {"Get-Printer-Attributes": 2, "Validate-Job": 2}
    assert client["first-seen"] <= client["last-seen"]
    assert client["findings"]["error"] == sum(rule["count"] for rule in client["rules"] if rule["severity"] == "error")
    [value_range] = [rule for rule in client["rules"] if rule["rule"] == "value-range"]
    assert (value_range["severity"], value_range["count"]) == ("error", 2)
    assert value_range["reference"] == "RFC 8011 §5.2.5" and "copies" in value_range["message"]
    assert value_range["requests"] == [entry["id"] for entry in printer.requests(rule="value-range")]
    assert summary["findings"]["error"] >= 2
    # Scoped to this printer by name, the same; cleared with the journal.
    assert printer.clients(printer=printer.name)["clients"] == summary["clients"]
    printer.clear_requests()
    assert printer.clients()["clients"] == []
