"""Fixtures of the fleet tests (printers at runtime, power, health, configuration, fleets): vprinter processes
with or without DNS-SD, raw IPP over HTTP, and avahi-browse watching the loopback-only test daemon.

The binary is VPRINTER (set by scripts/fleet-test). Avahi is the daemon scripts/lib/services.sh started
(DBUS_SYSTEM_BUS_ADDRESS); tests that need it are skipped with a reason when none answers. Printer names carry
the process id and a random suffix: other people's daemons share multicast on lo.
"""
import http.client
import json
import os
import pathlib
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples"))
import test_print as ipp  # noqa: E402  (the example's stdlib IPP encoder)

# The longest any wait of these tests lasts, in seconds.
WAIT_LIMIT = 60
# Measured figures (how soon a printer is withdrawn or browsable again, fleet start-up) go here, one JSON
# object a line.
FIGURES = pathlib.Path(os.environ.get("VP_ARTIFACTS", REPO / "artifacts")) / "fleet-test" / "figures.jsonl"

GET_PRINTER_ATTRIBUTES = 0x000B
CREATE_PRINTER = 0x004C
DELETE_PRINTER = 0x004E
GET_PRINTERS = 0x004F
SHUTDOWN_ONE_PRINTER = 0x0050
STARTUP_ONE_PRINTER = 0x0051
PRINTER_ATTRIBUTES = 0x04


def unique(label):
    """A printer name no one else on this machine uses: label, process id and a random suffix."""
    return "%s-%d-%04x" % (label, os.getpid(), random.randrange(0x10000))


def record_figure(name, **values):
    """Keeps a measured figure for the report (artifacts/fleet-test/figures.jsonl) and prints it."""
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    with FIGURES.open("a") as file:
        file.write(json.dumps(dict(figure=name, **values)) + "\n")
    print("figure %s: %s" % (name, values))


class Vprinter:
    """One vprinter process; arguments after the binary; URIs from stdout (`scheme` ipps under --tls); the API
    base; stop (SIGTERM)."""

    def __init__(self, *arguments, env=None, dnssd=False, expect_uris=1, scheme="ipp"):
        self.folder = tempfile.mkdtemp(prefix="vprinter-fleet-")
        self.output = os.path.join(self.folder, "output")
        self.log_path = os.path.join(self.folder, "vprinter.stderr.log")
        command = [os.environ["VPRINTER"], "--port", "0", "--output-dir", self.output, *arguments]
        if not dnssd:
            command.append("--no-dnssd")
        self.stderr = open(self.log_path, "ab")
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.stderr, text=True,
                                        env=dict(os.environ, **(env or {})))
        self.uris = [self.process.stdout.readline().strip() for _ in range(expect_uris)]
        self.startup_seconds = time.monotonic() - started
        assert all(uri.startswith(scheme + "://") for uri in self.uris), "vprinter printed no %s URI: %s" % (
            scheme, self.log())
        self.uri = self.uris[0]
        self.authority = self.uri[len(scheme + "://"):].split("/", 1)[0]
        self.base = ("https://" if scheme == "ipps" else "http://") + self.authority

    def log(self):
        self.stderr.flush()
        return pathlib.Path(self.log_path).read_text(errors="replace")[-3000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=WAIT_LIMIT)
        self.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def call(method, url, body=None, timeout=WAIT_LIMIT):
    """An HTTP call with an optional JSON body; returns (status, headers, body bytes) for any status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, method=method, data=data,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def call_json(method, url, body=None, expect=200, timeout=WAIT_LIMIT):
    status, _, answer = call(method, url, body, timeout=timeout)
    assert status == expect, "%s %s: %d %s" % (method, url, status, answer[:400])
    return json.loads(answer)


def wait_jobs(base, count, printer=None):
    """GET /api/v1/wait for `count` ended jobs (of one printer); returns the records."""
    query = "jobs=%d&timeout=%d" % (count, WAIT_LIMIT) + ("&printer=" + urllib.parse.quote(printer) if printer else "")
    return call_json("GET", base + "/api/v1/wait?" + query)


def attribute(tag, name, values):
    """Encodes one attribute (RFC 8010 section 3.1.4); further values get an empty name."""
    out = b""
    for index, value in enumerate(values if isinstance(values, list) else [values]):
        encoded_name = name.encode() if index == 0 else b""
        encoded = struct.pack(">i", value) if tag in (0x21, 0x23) else value.encode()
        out += struct.pack(">BH", tag, len(encoded_name)) + encoded_name + struct.pack(">H", len(encoded)) + encoded
    return out


def request(operation, target_name, target_uri, extra=b"", groups=b""):
    """An IPP request: charset, language, the target (printer-uri or system-uri) and more operation attributes."""
    body = struct.pack(">BBHI", 2, 0, operation, 1) + bytes([ipp.OPERATION_ATTRIBUTES])
    body += attribute(ipp.CHARSET, "attributes-charset", "utf-8")
    body += attribute(ipp.LANGUAGE, "attributes-natural-language", "en")
    body += attribute(ipp.URI, target_name, target_uri)
    body += attribute(ipp.NAME, "requesting-user-name", "fleet-test") + extra + groups
    return body + bytes([ipp.END_OF_ATTRIBUTES])


def get_printer_attributes(uri, requested=("printer-name", "printer-state")):
    return request(GET_PRINTER_ATTRIBUTES, "printer-uri", uri, attribute(ipp.KEYWORD, "requested-attributes",
                                                                          list(requested)))


def ipp_status(answer):
    return struct.unpack(">H", answer[2:4])[0]


def post_ipp(uri, body, timeout=WAIT_LIMIT):
    """POSTs an IPP request; returns the answer's bytes."""
    url = "http://" + uri[len("ipp://"):]
    http_request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(http_request, timeout=timeout) as response:
        return response.read()


def print_pdf(uri, name="fleet test", copies=1):
    """Print-Job with the example's one-page PDF; asserts success; returns the job id."""
    answer = post_ipp(uri, ipp.print_job_request(uri, name, ipp.sample_pdf(), copies))
    assert ipp_status(answer) < 0x0100, "Print-Job: 0x%04x" % ipp_status(answer)
    return integer_value(answer, "job-id")


def integer_value(answer, name):
    """The first integer value of an attribute in an IPP answer (enough for job-id and printer-id)."""
    key = struct.pack(">H", len(name)) + name.encode() + struct.pack(">H", 4)
    index = answer.find(key)
    assert index > 0, "no %s in the answer" % name
    return struct.unpack(">i", answer[index + len(key):index + len(key) + 4])[0]


def raw_exchange(authority, request_bytes, timeout=5):
    """Sends raw bytes on a new connection; returns what came back before the server closed it (b'' when it
    closed without an answer)."""
    host, port = authority.rsplit(":", 1)
    with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as connection:
        connection.sendall(request_bytes)
        received = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
        return received


def http_ipp_bytes(uri, body):
    """A whole HTTP/1.1 POST of an IPP body, as bytes."""
    authority, _, path = uri[len("ipp://"):].partition("/")
    head = ("POST /%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/ipp\r\nContent-Length: %d\r\n\r\n"
            % (path, authority, len(body)))
    return head.encode() + body


def avahi_reachable():
    try:
        return subprocess.run(["avahi-browse", "-t", "-p", "-k", "_vprinter-none._tcp"], capture_output=True,
                              timeout=WAIT_LIMIT).returncode == 0
    except subprocess.TimeoutExpired:
        return False


class Browser:
    """avahi-browse -p on _ipp._tcp in the background: which instance names are present now, and when each
    appeared or went (per interface and protocol)."""

    def __init__(self, service_type="_ipp._tcp"):
        self.present = {}  # name -> set of (interface, protocol)
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.process = subprocess.Popen(["avahi-browse", "-p", "-k", service_type], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.process.stdout:
            fields = line.rstrip("\n").split(";")
            if len(fields) < 6 or fields[0] not in "+-":
                continue
            name = unescape(fields[3])
            with self.changed:
                entries = self.present.setdefault(name, set())
                if fields[0] == "+":
                    entries.add((fields[1], fields[2]))
                else:
                    entries.discard((fields[1], fields[2]))
                self.changed.notify_all()

    def wait(self, name, present, limit=WAIT_LIMIT):
        """Waits until `name` is (or is no longer) browsable; returns the seconds it took, or None on time-out."""
        started = time.monotonic()
        with self.changed:
            while bool(self.present.get(name)) != present:
                remaining = limit - (time.monotonic() - started)
                if remaining <= 0:
                    return None
                self.changed.wait(remaining)
        return time.monotonic() - started

    def count(self, prefix):
        with self.lock:
            return sum(1 for name, entries in self.present.items() if name.startswith(prefix) and entries)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def unescape(text):
    """avahi-browse -p escapes bytes of names as \\DDD (decimal)."""
    out = bytearray()
    index = 0
    raw = text.encode()
    while index < len(raw):
        if raw[index:index + 1] == b"\\" and raw[index + 1:index + 4].isdigit():
            out.append(int(raw[index + 1:index + 4]))
            index += 4
        else:
            out.append(raw[index])
            index += 1
    return out.decode(errors="replace")


@pytest.fixture
def browser():
    if not os.environ.get("DBUS_SYSTEM_BUS_ADDRESS") or not avahi_reachable():
        pytest.skip("no Avahi daemon answers (run through scripts/fleet-test, which starts one on loopback)")
    watcher = Browser()
    yield watcher
    watcher.stop()


@pytest.fixture
def vprinter():
    """A vprinter without DNS-SD (one default printer)."""
    running = Vprinter()
    yield running
    running.stop()


@pytest.fixture
def advertised(browser):
    """A vprinter with DNS-SD on the test daemon; its first printer has a unique name."""
    name = unique("fleet-main")
    running = Vprinter("--name", name, dnssd=True)
    running.name = name
    assert browser.wait(name, True) is not None, "the first printer was never browsable: %s" % running.log()
    yield running
    running.stop()
