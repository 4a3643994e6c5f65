"""The client and the process control against the real vprinter binary: printing, records, filters, wait, text,
compare, reset, faults, health, runtime printers and power, and the errors a test sees when something is wrong."""
import os
import signal
import struct
import urllib.request

import pytest

import vprinter
from vprinter import documents

INVOICE = ["Invoice 42\nTotal 99.00", "Terms: 30 days\nThank you"]


@pytest.fixture
def printer(tmp_path):
    """A printer started through the package's own start(), rendering at 72 dpi to stay quick."""
    with vprinter.start(profile="duplex-laser", args=["--render-dpi", "72"], work_dir=tmp_path) as running:
        yield running


def test_start_gives_an_ipp_uri_on_a_free_port_and_the_printer_is_live_and_ready(printer):
    assert printer.uri.startswith("ipp://localhost:")
    assert printer.uri.endswith("/ipp/print")
    assert printer.uris == [printer.uri]
    assert printer.livez()
    ready, body = printer.readyz()
    assert ready and body["status"] == "ready"
    assert "--no-dnssd" in printer.command and "--port" in printer.command
    assert os.path.isdir(printer.output_dir)


def test_a_printed_pdf_comes_back_as_a_record_with_its_ticket_and_pages(printer):
    job_id = printer.print_file(documents.pdf(INVOICE), document_format="application/pdf", job_name="invoice 42",
                                user="alice", copies=2, sides="two-sided-long-edge",
                                media_col={"media-size": {"x-dimension": 21590, "y-dimension": 27940}},
                                page_ranges="1-2", orientation_requested="portrait")
    [job] = printer.wait(1)
    assert job["job-id"] == job_id
    assert job["job-state"] == "completed"
    assert job["job-name"] == "invoice 42"
    assert job["job-originating-user-name"] == "alice"
    attributes = job["attributes"]
    assert attributes["copies"] == 2
    assert attributes["sides"] == "two-sided-long-edge"
    assert attributes["media-col"]["media-size"] == {"x-dimension": 21590, "y-dimension": 27940}
    assert attributes["orientation-requested"] == "portrait"
    assert len(job["impressions"]) == 2
    assert job["job-impressions"] == 4
    page = printer.file(job, job["impressions"][0]["file"])
    assert page[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", page[16:24])
    assert (width, height) == (job["impressions"][0]["width"], job["impressions"][0]["height"])
    assert printer.job(job_id)["job-id"] == job_id


def test_a_file_path_is_sent_with_the_format_of_its_name(printer, tmp_path):
    path = tmp_path / "letter.pdf"
    path.write_bytes(documents.pdf(["From a file"]))
    printer.print_file(path)
    [job] = printer.wait(1)
    assert job["job-name"] == "letter.pdf"
    assert job["documents"][0]["document-format"] == "application/pdf"
    assert job["documents"][0]["size"] == path.stat().st_size


def test_jobs_wait_and_reset_take_the_api_filters(printer):
    printer.print_file(documents.pdf(["for alice"]), user="alice", job_name="a")
    printer.print_file(documents.pdf(["for bob"]), user="bob", job_name="b", sides="two-sided-short-edge")
    printer.print_file(documents.pdf(["for alice again"]), user="alice", job_name="c")
    ended = printer.wait(3)
    assert [job["job-name"] for job in ended] == ["a", "b", "c"]
    assert [job["job-name"] for job in printer.jobs(user="alice")] == ["a", "c"]
    assert [job["job-name"] for job in printer.jobs(sides=["two-sided-short-edge", "two-sided-long-edge"])] == ["b"]
    assert [job["job-name"] for job in printer.jobs(state=["completed", "aborted"])] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="user filter"):
        printer.jobs(user=["bob", "carol"])
    assert [job["job-name"] for job in printer.jobs(sides="two-sided")] == ["b"]
    assert [job["job-name"] for job in printer.jobs(since=ended[0]["job-id"])] == ["b", "c"]
    assert [job["job-name"] for job in printer.jobs(text="alice again")] == ["c"]
    assert [job["job-name"] for job in printer.wait(1, user="bob")] == ["b"]
    with pytest.raises(vprinter.APIError) as refused:
        printer.jobs(stat="completed")
    assert refused.value.status == 400
    assert printer.reset(user="alice") == 2
    assert [job["job-name"] for job in printer.jobs()] == ["b"]
    assert printer.reset() == 1
    assert printer.jobs() == []


def test_wait_raises_with_the_jobs_that_did_end(printer):
    printer.print_file(documents.pdf(["one"]))
    with pytest.raises(vprinter.WaitTimeout) as timeout:
        printer.wait(2, timeout=1)
    assert len(timeout.value.jobs) == 1
    assert timeout.value.jobs[0]["job-state"] == "completed"


def test_text_gives_each_side_and_how_it_was_read(printer):
    job_id = printer.print_file(documents.pdf(INVOICE))
    text = printer.text(job_id)
    assert "Invoice 42" in text and "Thank you" in text
    assert "Invoice 42" in text.sides[0] and "Total 99.00" in text.sides[0]
    assert "Terms: 30 days" in text.sides[1] and "Invoice" not in text.sides[1]
    assert text.sources == ["pdf", "pdf"]
    assert text.messages == {}


def test_compare_passes_for_the_same_document_and_names_the_side_that_differs(printer, tmp_path):
    golden = tmp_path / "golden"
    first = printer.print_file(documents.pdf(INVOICE))
    missing = printer.compare(first, golden)
    assert not missing and len(missing.failures) == 2
    updated = printer.compare(first, golden, update=True)
    assert updated and updated.updated
    assert sorted(os.listdir(golden)) == ["page-0001.png", "page-0002.png"]

    same = printer.print_file(documents.pdf(INVOICE))
    result = printer.compare(same, golden)
    assert result, result
    assert all(side["identical"] for side in result.sides)

    changed = printer.print_file(documents.pdf([INVOICE[0], "Terms: 60 days, and a much longer line\nThanks"]))
    result = printer.compare(changed, golden, min_psnr=40, diff_dir=tmp_path / "diff")
    assert not result
    assert [side["number"] for side in result.failures] == [2]
    assert "side 2" in repr(result) and "FAIL" in repr(result)
    assert os.listdir(tmp_path / "diff")
    # The longer line of side 2 fails across releases too; side 1 is the same.
    result = printer.compare(changed, golden, across_releases=True)
    assert not result and [side["number"] for side in result.failures] == [2]
    assert "--across-releases" in result.command and result.sides[0]["passed"]

    other_media = printer.print_file(documents.pdf(INVOICE, size="a4"), media="iso_a4_210x297mm")
    result = printer.compare(other_media, golden)
    assert not result and "size" in result.failures[0]["message"]


def test_compare_works_from_the_api_alone_when_the_output_folder_is_not_here(printer, tmp_path):
    job_id = printer.print_file(documents.pdf(["remote"]))
    remote = vprinter.Client(printer.uri, binary=printer.binary)
    golden = tmp_path / "golden"
    assert remote.compare(job_id, golden, update=True)
    assert remote.compare(job_id, golden)


def test_faults_change_the_printer_and_clearing_undoes_them(printer):
    fault_id = printer.fault(add_reasons=["media-jam-error"])
    assert isinstance(fault_id, int)
    assert "media-jam-error" in printer.printer_record()["printer-state-reasons"]
    assert [fault["id"] for fault in printer.faults()] == [fault_id]
    printer.clear_faults()
    assert "media-jam-error" not in printer.printer_record()["printer-state-reasons"]

    printer.fault({"status": "server-error-busy"}, trigger={"operation": "Print-Job", "count": 1})
    with pytest.raises(vprinter.IPPError) as busy:
        printer.print_file(documents.pdf(["busy"]))
    assert busy.value.status == 0x0507
    printer.print_file(documents.pdf(["accepted"]))
    assert printer.wait(1)[0]["job-state"] == "completed"
    with pytest.raises(ValueError):
        printer.fault()


def test_metrics_count_what_was_printed(printer):
    printer.print_file(documents.pdf(INVOICE), copies=3)
    printer.wait(1)
    metrics = printer.metrics()
    name = printer.name
    assert 'vprinter_impressions_total{printer="%s"} 6' % name in metrics
    assert 'vprinter_jobs{printer="%s",state="completed"} 1' % name in metrics


def test_a_runtime_printer_prints_and_its_jobs_are_its_own(printer):
    name = "runtime-%d" % os.getpid()
    desk = printer.add_printer(name, profile="color-inkjet")
    assert desk.uri.endswith("/ipp/print/" + name)
    assert desk.printer_record()["printer-name"] == name
    desk.print_file(documents.pdf(["on the runtime printer"]))
    printer.print_file(documents.pdf(["on the first printer"]))
    [job] = desk.wait(1)
    assert job["printer-name"] == name
    printer.wait(2)
    assert [job["printer-name"] for job in desk.jobs()] == [name]
    assert len(printer.jobs()) == 2
    desk.remove_printer()
    assert name not in [entry["printer-name"] for entry in printer.printers()]


def test_power_off_silences_the_printer_and_on_brings_it_back(printer):
    printer.power(False)
    with pytest.raises((OSError, vprinter.IPPError)):
        printer.print_file(documents.pdf(["while off"]), timeout=5)
    printer.power(True)
    printer.print_file(documents.pdf(["after power on"]))
    assert printer.wait(1)[0]["job-state"] == "completed"


def test_a_printer_that_dies_during_the_test_makes_stop_fail(tmp_path):
    running = vprinter.start(work_dir=tmp_path)
    os.kill(running.process.pid, signal.SIGKILL)
    running.process.wait()
    with pytest.raises(vprinter.VPrinterError, match="exited by itself"):
        running.stop()


def test_start_errors_say_what_went_wrong(tmp_path):
    with pytest.raises(vprinter.StartError, match="not an executable"):
        vprinter.start(binary=str(tmp_path / "missing"), work_dir=tmp_path)
    with pytest.raises(vprinter.StartError, match="exited with status 1") as failed:
        vprinter.start(profile="no-such-profile", work_dir=tmp_path)
    assert "no-such-profile" in str(failed.value)


def test_no_binary_anywhere_is_an_error_naming_vprinter_bin(monkeypatch, tmp_path):
    monkeypatch.delenv("VPRINTER_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(vprinter.StartError, match="VPRINTER_BIN"):
        vprinter.find_binary()


def test_the_binary_is_found_on_path(monkeypatch, tmp_path):
    binary = vprinter.find_binary()
    monkeypatch.delenv("VPRINTER_BIN", raising=False)
    monkeypatch.setenv("PATH", os.path.dirname(binary) + os.pathsep + os.environ["PATH"])
    assert vprinter.find_binary() == os.path.join(os.path.dirname(binary), "vprinter")


def test_a_client_refuses_a_uri_it_cannot_reach():
    with pytest.raises(ValueError):
        vprinter.Client("lpd://localhost/queue")


def test_a_printer_with_tls_is_reached_over_ipps_and_https(tmp_path):
    with vprinter.start(args=["--tls", "--render-dpi", "72"], work_dir=tmp_path) as running:
        assert running.uri.startswith("ipps://localhost:") and running.base_url.startswith("https://localhost:")
        assert running.readyz()[0]
        running.print_file(documents.pdf(["over TLS"]))
        assert running.wait(1)[0]["job-state"] == "completed"
        with pytest.raises(OSError):
            vprinter.Client(running.uri).printers()  # a client that verifies refuses the self-signed certificate


def test_kill_leaves_the_folder_as_it_was_and_a_new_start_there_takes_the_jobs_over(tmp_path):
    first = vprinter.start(args=["--render-dpi", "72"], work_dir=tmp_path)
    assert 0 < first.startup_seconds <= first.ready_seconds
    first.print_file(documents.pdf(["before the kill"]))
    first.wait(1)
    assert first.kill() == -signal.SIGKILL
    assert not first.alive() and first.stop() == -signal.SIGKILL
    with vprinter.start(args=["--render-dpi", "72"], work_dir=tmp_path) as second:
        assert [job["job-name"] for job in second.jobs()] == ["pytest"]
        assert second.output_dir == first.output_dir
    assert second.log.count("recording jobs in") == 2, "the log of both starts is kept"


def test_exchange_sends_pieces_chunked_and_send_decodes_the_answer(printer):
    header = vprinter.ipp.request(vprinter.ipp.PRINT_JOB, printer.uri, {"job-name": "in pieces"})
    document = documents.pdf(["sent in pieces"])
    answer = vprinter.ipp.exchange(printer.uri, iter([header, document[:100], b"", document[100:]]))
    assert answer.status == 200 and answer.headers["Content-Type"] == "application/ipp"
    assert vprinter.ipp.decode_message(answer.body).job_id == 1
    assert printer.wait(1)[0]["documents"][0]["size"] == len(document)
    requested = {"requested-attributes": ["printer-name", "media-col-default"]}
    message = vprinter.ipp.send(printer.uri, vprinter.ipp.request(vprinter.ipp.GET_PRINTER_ATTRIBUTES, printer.uri,
                                                                  requested))
    assert vprinter.ipp.successful(message.status)
    attributes = message.group(vprinter.ipp.PRINTER_ATTRIBUTES)
    assert attributes["printer-name"] == [printer.name]
    assert attributes["media-col-default"][0]["media-size"][0]["x-dimension"] == [21590]
    with pytest.raises(vprinter.IPPError) as missing:
        vprinter.ipp.send(printer.base_url + "/api/v1/jobs", header)
    assert missing.value.http_status == 405


def test_the_printer_answers_the_ipp_uri_it_gave(printer):
    # Get-Printer-Attributes on the URI: the same URI a real client (CUPS, a phone) would be given.
    body = vprinter.ipp.request_header(vprinter.ipp.GET_PRINTER_ATTRIBUTES, printer.uri)
    request = urllib.request.Request(printer.uri.replace("ipp://", "http://"), data=body,
                                     headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(request, timeout=10) as response:
        status, groups = vprinter.ipp.decode(response.read())
    assert status == 0
    assert groups[vprinter.ipp.PRINTER_ATTRIBUTES]["printer-name"] == [printer.name]


def test_a_missing_job_is_an_api_error(printer):
    with pytest.raises(vprinter.APIError) as missing:
        printer.job(999)
    assert missing.value.status == 404
