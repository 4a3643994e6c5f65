"""The harness's own tests: each check it offers the suites fails when it should, and its helpers read what the
tools write. A few start the built vprinter (VPRINTER); the others need nothing."""
import configparser
import http.server
import json
import os
import re
import subprocess
import threading

import pytest
from vprinter import ipp

from vptest import artifacts, avahi, calls, cups, documents, font_corpus, names, openapi, pwg_corpus, records
from vptest import waiting
from vptest import printer as vprinter
from vptest.paths import REPO
from vptest.services import alive, avahi_daemon, cupsd

pytest_plugins = ["pytester"]


class Stub(http.server.BaseHTTPRequestHandler):
    """Answers every request with the server's ``answer`` (status, content type, body) and keeps what it got."""

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.server.requests.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
        status, content_type, body = self.server.answer
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = handle_one

    def log_message(self, *arguments):
        pass


@pytest.fixture
def stub():
    server = http.server.HTTPServer(("127.0.0.1", 0), Stub)
    server.requests = []
    server.answer = (200, "application/json", b"[]")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.base = "http://127.0.0.1:%d" % server.server_address[1]
    yield server
    server.shutdown()


def test_a_path_finds_its_template_and_an_undocumented_one_fails():
    assert openapi.template_of("GET", "/api/v1/jobs/12/files/page-0001.png") == "/api/v1/jobs/{id}/files/{file}"
    assert openapi.template_of("DELETE", "/api/v1/printers/a%20b/faults") == "/api/v1/printers/{name}/faults"
    assert openapi.template_of("DELETE", "/api/v1/printers/a/faults/3") == "/api/v1/printers/{name}/faults/{id}"
    with pytest.raises(AssertionError, match="not documented"):
        openapi.template_of("GET", "/api/v1/nothing")
    with pytest.raises(AssertionError, match="not documented"):
        openapi.template_of("PUT", "/api/v1/jobs")


def test_checked_fails_on_the_status_the_content_type_and_the_schema(stub):
    stub.answer = (200, "application/json", b"[]")
    assert openapi.checked("GET", stub.base + "/api/v1/jobs?user=x", 200) == []
    with pytest.raises(AssertionError, match="GET /api/v1/jobs\\?user=x: 200"):
        openapi.checked("GET", stub.base + "/api/v1/jobs?user=x", 404)
    stub.answer = (200, "text/plain", b"[]")
    with pytest.raises(AssertionError, match="content type text/plain"):
        openapi.checked("GET", stub.base + "/api/v1/jobs", 200)
    stub.answer = (200, "application/json", b'[{"job-id": "one"}]')
    with pytest.raises(Exception, match="job-id|required"):
        openapi.checked("GET", stub.base + "/api/v1/jobs", 200)
    stub.answer = (418, "application/json", b"{}")
    with pytest.raises(AssertionError, match="status 418 is not documented"):
        openapi.checked("GET", stub.base + "/api/v1/jobs", 418)


def test_a_call_sends_json_or_bytes_and_credentials_and_answers_any_status(stub):
    stub.answer = (404, "application/json; charset=utf-8", b'{"error": "no"}')
    answer = calls.call("POST", stub.base + "/x?y=1", {"on": False}, auth="alice:wonder land")
    status, content_type, body = answer
    assert (status, content_type, answer.json()) == (404, "application/json; charset=utf-8", {"error": "no"})
    method, path, headers, sent = stub.requests[-1]
    assert (method, path, json.loads(sent)) == ("POST", "/x?y=1", {"on": False})
    assert headers["Content-Type"] == "application/json" and headers["User-Agent"] == calls.USER_AGENT
    assert headers["Authorization"] == calls.basic_auth(("alice", "wonder land")) == "Basic YWxpY2U6d29uZGVyIGxhbmQ="
    calls.call("POST", stub.base + "/raw", b"not json")
    assert stub.requests[-1][3] == b"not json" and "Content-Type" not in stub.requests[-1][2]


def test_wait_until_gives_the_last_answer_and_wait_for_names_what_it_waited_for():
    answers = iter([None, 0, "ready"])
    assert waiting.wait_until(lambda: next(answers), limit=5, interval=0) == "ready"
    assert waiting.wait_until(lambda: [], limit=0.05) == []
    with pytest.raises(AssertionError, match="waiting for the moon"):
        waiting.wait_for(lambda: False, "the moon", limit=0.05)

    def flaky():
        raise KeyError("not yet")
    assert waiting.wait_until(flaky, limit=0.05, ignore=(KeyError,)) is None


def test_avahi_lines_are_unescaped_and_split():
    assert avahi.unescape("Office\\032Printer\\0462\\.local\\\\x") == "Office Printer.2.local\\x"
    added = avahi.parse_line("+;lo;IPv4;vp\\032one;_ipp._tcp;local\n")
    assert (added["event"], added["name"], added["type"], added["protocol"]) == ("+", "vp one", "_ipp._tcp", "IPv4")
    resolved = avahi.parse_line('=;lo;IPv6;vp;_ipp._tcp;local;vp.local;::1;8631;"txtvers=1" "rp=ipp/print" "flag"')
    assert (resolved["host"], resolved["address"], resolved["port"]) == ("vp.local", "::1", 8631)
    assert resolved["txt"] == [("txtvers", "1"), ("rp", "ipp/print"), ("flag", None)]
    assert avahi.parse_line("Failed to create client object") is None
    assert avahi.parse_line("=;lo;IPv4;cut;_ipp._tcp;local") is None


def test_a_record_that_breaks_the_schema_fails_the_folder_check(tmp_path):
    assert records.check_folder(tmp_path) == 0
    (tmp_path / "jobs" / "7").mkdir(parents=True)
    (tmp_path / "jobs" / "7" / "job.json").write_text(json.dumps({"schema": 1, "job-id": 7}))
    with pytest.raises(AssertionError, match="jobs/7/job.json breaks docs/job-record.schema.json"):
        records.check_folder(tmp_path)


def test_figures_verdicts_and_files_go_to_the_suites_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("VP_ARTIFACTS", str(tmp_path))
    monkeypatch.setenv("VP_SUITE", "harness-test")
    artifacts.record_figure("startup", seconds=0.5)
    artifacts.record_verdict("android/duplex-laser", "PASS", detail="printed")
    written = artifacts.write("report.json", {"b": 1, "a": [2]})
    log = tmp_path / "some.log"
    log.write_text("log line\n")
    kept = artifacts.keep(log, "printer.log")
    folder = tmp_path / "harness-test"
    assert json.loads((folder / "figures.jsonl").read_text()) == {"figure": "startup", "seconds": 0.5}
    assert json.loads((folder / "verdicts.jsonl").read_text()) == {"subject": "android/duplex-laser",
                                                                   "verdict": "PASS", "detail": "printed"}
    assert json.loads(written.read_text()) == {"a": [2], "b": 1} and kept.read_text() == "log line\n"


def test_unique_names_differ_and_name_the_process():
    first, second = names.unique("web"), names.unique("web")
    assert first != second and first.startswith("web-%d-" % os.getpid())


def test_the_printers_ipp_takes_raw_attributes_any_version_and_print_job_fails_on_an_error(printer):
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, ipp.attribute("requested-attributes", ["printer-name"]),
                         version=(1, 1), request_id=77)
    assert answer.status == ipp.SUCCESSFUL_OK and answer.request_id == 77 and answer.version == (1, 1)
    assert list(answer.group(ipp.PRINTER_ATTRIBUTES)) == ["printer-name"]
    with pytest.raises(AssertionError, match="Print-Job answered status 0x04"):
        printer.print_job(uri=printer.uri + "/no-such-printer")


def test_start_printer_fails_a_test_that_left_a_broken_record(pytester, monkeypatch):
    monkeypatch.delenv("VP_SUITE", raising=False)  # the inner run's failure is not this run's
    pytester.makepyfile("""
        import os

        def test_leaves_a_broken_record(printer):
            os.makedirs(os.path.join(printer.output_dir, "jobs", "5"))
            with open(os.path.join(printer.output_dir, "jobs", "5", "job.json"), "w") as file:
                file.write('{"schema": 1}')
    """)
    result = pytester.runpytest_inprocess("-p", "vptest.plugin", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*jobs/5/job.json breaks docs/job-record.schema.json*"])


def test_ghostscript_makes_a_document_and_its_failure_names_the_error(tmp_path):
    made = documents.pdf_of_program(tmp_path / "page.pdf", "showpage")
    assert made.startswith(b"%PDF")
    with pytest.raises(documents.GhostscriptError, match="exit status 1: Error: /undefined in no_such_operator"):
        documents.ghostscript("pdfwrite", tmp_path / "broken.pdf", program="no_such_operator showpage")


def test_the_ipptool_documents_are_made_in_their_formats_and_sizes(tmp_path):
    folder = documents.ipptool_documents(tmp_path / "made")
    made = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert sorted(made) == sorted(documents.IPPTOOL_DOCUMENTS)
    assert b"/MediaBox [0 0 595 842]" in made["document-a4.pdf"]
    assert b"/MediaBox [0 0 612 792]" in made["document-letter.pdf"]
    assert made["document-a4.ps"].startswith(b"%!PS") and b"%%BoundingBox: 0 0 595 842" in made["document-a4.ps"]
    assert all(made[name].startswith(b"\xff\xd8") for name in ("color.jpg", "gray.jpg"))


def test_the_corpus_serves_the_union_of_what_printers_list_and_links_only_its_samples(tmp_path):
    laser = {"pwg-raster-document-resolution-supported": "600dpi,300dpi",
             "pwg-raster-document-type-supported": "black_1,sgray_8"}
    photo = {"pwg-raster-document-resolution-supported": "300dpi,300x600dpi",
             "pwg-raster-document-type-supported": "srgb_8"}
    assert pwg_corpus.needs([laser, photo, {}]) == ([300, 600], ["black_1", "sgray_8", "srgb_8"])
    assert pwg_corpus.needs([{}]) == ([], [])
    corpus = tmp_path / "corpus"
    (corpus / "pwg-raster-samples-300dpi" / "sgray-8").mkdir(parents=True)
    (corpus / "sources").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    pwg_corpus.link(corpus, work)
    pwg_corpus.link(corpus, work)  # again: the links are replaced
    assert [path.name for path in work.iterdir()] == ["pwg-raster-samples-300dpi"]
    assert (work / "pwg-raster-samples-300dpi" / "sgray-8").is_dir()


def pwg_pages(path):
    """The (width, height) of each page of a PWG raster file, from the page headers' cupsWidth and cupsHeight."""
    data = open(path, "rb").read()
    assert data[:4] == b"RaS2", path
    headers = [match.start() for match in re.finditer(b"PwgRaster\0", data)]
    return [(int.from_bytes(data[index + 372:index + 376], "big"), int.from_bytes(data[index + 376:index + 380], "big"))
            for index in headers]


def test_the_corpus_makes_what_the_suite_names_for_what_is_asked_and_fails_on_a_file_it_cannot_make(tmp_path):
    suite = tmp_path / "samples.test"
    samples = ["pwg-raster-samples-72dpi/sgray-8/document-letter-sgray-8-72dpi.pwg",
               "pwg-raster-samples-72dpi/sgray-8/gray.jpg-4x6-sgray-8-72dpi.pwg",
               "pwg-raster-samples-72dpi/black-1/onepage-letter-black-1-72dpi.pwg",
               "pwg-raster-samples-150dpi/sgray-8/onepage-a4-sgray-8-150dpi.pwg"]
    suite.write_text("".join("\tFILE %s\n" % sample for sample in samples))
    (tmp_path / "cache" / "0123456789abcdef").mkdir(parents=True)  # a corpus of another key
    corpus = pwg_corpus.make(tmp_path / "cache", suite, [72], ["sgray_8"])
    assert corpus.complete and "made 2 files for 72 dpi, sgray-8 (2 empty placeholders)" in corpus.report, corpus.report
    assert os.listdir(tmp_path / "cache") == [os.path.basename(corpus.folder)]
    document, photo, *placeholders = (os.path.join(corpus.folder, sample) for sample in samples)
    assert pwg_pages(document) == [(612, 792)] * 2 and pwg_pages(photo) == [(288, 432)]
    assert [os.path.getsize(path) for path in placeholders] == [0, 0]
    assert not [name for _, _, names in os.walk(corpus.folder) for name in names if name.endswith(".partial")]
    assert "made 0 files" in pwg_corpus.make(tmp_path / "cache", suite, [72], ["sgray_8"]).report
    suite.write_text("\tFILE pwg-raster-samples-72dpi/sgray-8/unknown-sgray-8-72dpi.pwg\n")
    corpus = pwg_corpus.make(tmp_path / "cache", suite, [72], ["sgray_8"])
    assert not corpus.complete and "no recipe for pwg-raster-samples-72dpi/sgray-8/unknown" in corpus.report


def test_the_profiles_and_their_attributes_come_from_the_binary():
    names = vprinter.profile_names()
    assert "duplex-laser" in names and len(names) == len(set(names))
    # A scanner alone answers no IPP: it is left out unless asked for, and the checkout's files agree.
    assert "document-scanner" not in names and "document-scanner" in vprinter.profile_names(printing=False)
    assert vprinter.shipped_profiles() == sorted(names)
    attributes = vprinter.profile_attributes("duplex-laser")
    assert "application/pdf" in attributes["document-format-supported"].split(",")
    assert attributes["printer-make-and-model"] == "vprinter Duplex Laser"
    assert vprinter.profile_attributes("no-such-profile") == {}


def test_the_font_corpus_compares_identical_renderings_equal_and_finds_other_fonts(tmp_path, monkeypatch):
    """The comparison behind the image guard and the fresh-machine check can fail: the same corpus printed with a
    font configuration that knows DejaVu only (VPRINTER_FONTCONFIG) differs on the sides with text in fonts the
    documents do not embed, and only there."""
    binary = os.environ["VPRINTER"]
    corpus = tmp_path / "corpus"
    font_corpus.write(corpus)
    warnings = font_corpus.render([binary], corpus, tmp_path / "one")
    assert "font Helvetica is not embedded" in warnings["fonts-not-embedded.pdf"], warnings
    assert "font MS-Mincho is not embedded" in warnings["japanese-not-embedded.pdf"], warnings
    font_corpus.render([binary], corpus, tmp_path / "two")
    assert font_corpus.differences(binary, tmp_path / "one", tmp_path / "two") == []
    dejavu = tmp_path / "dejavu.conf"
    dejavu.write_text('<?xml version="1.0"?>\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir>'
                      '<cachedir prefix="xdg">fontconfig</cachedir></fontconfig>\n')
    monkeypatch.setenv("VPRINTER_FONTCONFIG", str(dejavu))
    font_corpus.render([binary], corpus, tmp_path / "dejavu")
    differing = font_corpus.differences(binary, tmp_path / "dejavu", tmp_path / "one")
    assert {line.split()[0] for line in differing} == {"fonts-not-embedded.pdf", "japanese-not-embedded.pdf"}, \
        differing


def test_the_test_avahi_daemon_is_configured_for_loopback_only(tmp_path):
    avahi_daemon.write_configs(tmp_path)
    conf = configparser.ConfigParser()
    conf.read(tmp_path / "avahi-daemon.conf")
    assert conf["server"]["allow-interfaces"] == "lo" and conf["wide-area"]["enable-wide-area"] == "no"
    assert conf["publish"]["publish-workstation"] == "no" and conf["reflector"]["enable-reflector"] == "no"
    assert int(conf["server"]["objects-per-client-max"]) >= 8192, "a test fleet of thousands is advertised whole"
    assert "<listen>unix:path=%s/system_bus_socket</listen>" % tmp_path in (tmp_path / "bus.conf").read_text()


# The life of the stages' Avahi services through scripts/lib/services.sh, in a network namespace of its own (no bus
# or daemon of this machine's): started, reused by a child script that leaves it running, its daemon stopped and
# started again as the DNS-SD tests do, reachable as lp (CUPS's backends), then stopped. Prints the folder and pids.
AVAHI_LIFE = """
set -u
source scripts/lib/services.sh
services() { PYTHONPATH=scripts/harness /usr/bin/python3 -m vptest.services "$@"; }
services_start_avahi || exit 10
[[ -n "${VP_AVAHI_OWNED:-}" && "$DBUS_SYSTEM_BUS_ADDRESS" == "unix:path=$VP_AVAHI_DIR/system_bus_socket" ]] || exit 11
echo "$VP_AVAHI_DIR $(cat "$VP_AVAHI_DIR/avahi-daemon.pid") $(cat "$VP_AVAHI_DIR/dbus.pid")"
bash -c 'source scripts/lib/services.sh && services_start_avahi && [[ -z "${VP_AVAHI_OWNED:-}" ]] && services_stop_all' ||
    exit 12
services reachable || exit 13
services stop-daemon && ! services reachable || exit 14
services start-daemon && services reachable lp || exit 15
services_stop_all || exit 16
[[ -z "${VP_AVAHI_OWNED:-}" && -z "$VP_AVAHI_DIR" ]] || exit 17
"""


def in_own_network(script, **environment):
    """Runs a bash script in the checkout in a network and mount namespace of its own (scripts/lib/own-network: its
    loopback up, the machine's bus and Avahi files out of sight, none of the run's services in its environment);
    the finished process. Skips the test where no namespace can be made."""
    own_network = os.path.join(REPO, "scripts", "lib", "own-network")
    if subprocess.run([own_network, "--check"], capture_output=True).returncode != 0:
        pytest.skip("a network namespace needs root (unshare --net)")
    command = ["env", *("%s=%s" % item for item in environment.items()), own_network, "bash", "-c", script]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)


def test_a_private_avahi_daemon_is_reused_by_a_child_restarted_and_stopped_whole(tmp_path):
    done = in_own_network(AVAHI_LIFE, VP_ARTIFACTS=str(tmp_path))
    assert done.returncode == 0, "step %d failed: %s" % (done.returncode, done.stderr[-2000:])
    folder, daemon, bus = done.stdout.split()
    assert not os.path.exists(folder) and not alive(int(daemon)) and not alive(int(bus))
    log = (tmp_path / "services" / "avahi-daemon.log").read_text()
    joined = [line for line in log.splitlines() if line.startswith("Joining mDNS multicast group")]
    assert joined and all(" on interface lo." in line for line in joined), log
    assert log.rstrip().endswith("exiting."), "the log is kept once the daemon has stopped: " + log


# A daemon that answers on the bus a process is given, but that is no private one a parent exported with its folder
# (a desktop's daemon on the system bus, as a session gives it): the services start their own and leave it alone,
# whatever the tests then do to theirs. Prints the other daemon's pid.
OTHER_DAEMON = """
set -u
source scripts/lib/services.sh
services() { PYTHONPATH=scripts/harness /usr/bin/python3 -m vptest.services "$@"; }
services_start_avahi || exit 10
other_bus="$DBUS_SYSTEM_BUS_ADDRESS" other_pid="$(cat "$VP_AVAHI_DIR/avahi-daemon.pid")"
echo "$other_pid"
env -u VP_AVAHI_DIR OTHER_BUS="$other_bus" bash -c '
    source scripts/lib/services.sh
    services() { PYTHONPATH=scripts/harness /usr/bin/python3 -m vptest.services "$@"; }
    services_start_avahi || exit 21
    [[ -n "${VP_AVAHI_OWNED:-}" && "$DBUS_SYSTEM_BUS_ADDRESS" != "$OTHER_BUS" ]] || exit 22
    services restart-daemon && services stop-daemon || exit 23
    services_stop_all || exit 24' || exit $?
kill -0 "$other_pid" && [[ "$(cat "$VP_AVAHI_DIR/avahi-daemon.pid")" == "$other_pid" ]] || exit 11
services reachable || exit 12
services_stop_all || exit 13
"""


def test_a_daemon_that_is_not_a_private_one_of_the_tests_is_neither_reused_nor_restarted(tmp_path):
    done = in_own_network(OTHER_DAEMON, VP_ARTIFACTS=str(tmp_path))
    assert done.returncode == 0, "step %d failed: %s" % (done.returncode, done.stderr[-2000:])
    assert "not the tests' own answers on" in done.stderr, done.stderr[-2000:]
    assert not alive(int(done.stdout.split()[0]))


def test_a_private_cupsd_answers_takes_a_queue_is_reused_and_stops_whole(printer, tmp_path, monkeypatch):
    for name in ("CUPS_SERVER", "CUPS_STATEDIR", "VP_CUPSD_DIR", "VP_SERVICES_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VP_ARTIFACTS", str(tmp_path))
    variables, owned = cupsd.start(logs_as="cupsd-harness")
    folder = variables["VP_CUPSD_DIR"]
    pid = int(open(os.path.join(folder, "cupsd.pid")).read())
    try:
        assert owned and cupsd.answers(variables["CUPS_SERVER"])
        assert "Listen 127.0.0.1:" in open(os.path.join(folder, "etc", "cupsd.conf")).read()
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        assert cupsd.start() == (variables, False)
        cups.add_everywhere_queue("harness", printer.uri)
        assert os.path.exists(os.path.join(folder, "cache", "harness.data")), "add_everywhere_queue waits for the PPD"
        assert "harness" in cups.lpstat("-p", "harness")
    finally:
        cupsd.stop(folder, "cupsd-harness")
    assert not alive(pid) and not os.path.exists(folder)
    assert "harness" in (tmp_path / "services" / "cupsd-harness" / "error_log").read_text()
