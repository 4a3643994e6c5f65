"""Fixtures of the security tests (docs/security.md): vprinter with TLS and credentials, IPP over TLS and
plain HTTP with Python's ssl module, and a small IPP response reader.

The binary is VPRINTER (set by scripts/security-test).
"""
import base64
import os
import pathlib
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples"))
import test_print as ipp  # noqa: E402  (the example's stdlib IPP encoder)

# The longest any exchange of these tests waits, in seconds.
TIMEOUT = 30
# IPP operations (RFC 8011 section 5.4.15, RFC 3998, PWG 5100.11) and status codes used here.
GET_PRINTER_ATTRIBUTES = 0x000B
GET_JOBS = 0x000A
CANCEL_JOB = 0x0008
PAUSE_PRINTER = 0x0010
PURGE_JOBS = 0x0012
SET_PRINTER_ATTRIBUTES = 0x0013
SUCCESSFUL_OK = 0x0000
NOT_AUTHORIZED = 0x0403


def client_context():
    """A TLS client context that accepts the printer's self-signed certificate."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Printer:
    """One vprinter process started with arguments; knows its port, URIs and stderr."""

    def __init__(self, folder, *arguments, dnssd=False):
        self.folder = folder
        self.output = os.path.join(folder, "output")
        self.stderr_path = os.path.join(folder, "vprinter.stderr.log")
        self.stderr = open(self.stderr_path, "ab")
        command = [os.environ["VPRINTER"], "--port", "0", "--output-dir", self.output, *arguments]
        if not dnssd:
            command.insert(1, "--no-dnssd")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.uri = self.process.stdout.readline().strip()
        assert self.uri.startswith(("ipp://", "ipps://")), "vprinter printed no URI: " + self.log()
        self.port = int(self.uri.split("/")[2].rsplit(":", 1)[1])
        self.path = "/" + self.uri.split("/", 3)[3]

    def log(self):
        self.stderr.flush()
        return pathlib.Path(self.stderr_path).read_text(errors="replace")

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=TIMEOUT)
        self.stderr.close()

    def connect(self, tls=True, timeout=TIMEOUT):
        """A connected socket, TLS from the first byte or plain."""
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        return client_context().wrap_socket(raw) if tls else raw

    def http(self, method, path, body=b"", headers=None, tls=True, user=None):
        """One HTTP/1.1 exchange on a new connection; returns (status, headers dict lower-cased, body)."""
        fields = {"Host": "localhost:%d" % self.port, "Connection": "close", "Content-Length": str(len(body))}
        if user:
            fields["Authorization"] = "Basic " + base64.b64encode(user.encode()).decode()
        fields.update(headers or {})
        head = "%s %s HTTP/1.1\r\n" % (method, path) + "".join("%s: %s\r\n" % item for item in fields.items())
        with self.connect(tls) as connection:
            connection.sendall(head.encode() + b"\r\n" + body)
            return read_response(connection)

    def ipp(self, operation, attributes=b"", document=b"", tls=True, user=None, requesting_user="pytest",
            headers=None, groups=b""):
        """An IPP request to the printer; returns (HTTP status, headers, IPP status or None, attributes)."""
        uri = ("ipps" if tls else "ipp") + "://localhost:%d%s" % (self.port, self.path)
        body = struct.pack(">BBHI", 2, 0, operation, 1) + bytes([ipp.OPERATION_ATTRIBUTES])
        body += ipp.attribute(ipp.CHARSET, "attributes-charset", "utf-8")
        body += ipp.attribute(ipp.LANGUAGE, "attributes-natural-language", "en")
        body += ipp.attribute(ipp.URI, "printer-uri", uri)
        body += ipp.attribute(ipp.NAME, "requesting-user-name", requesting_user) + attributes
        body += groups + bytes([ipp.END_OF_ATTRIBUTES]) + document
        fields = {"Content-Type": "application/ipp"}
        fields.update(headers or {})
        status, response_headers, content = self.http("POST", self.path, body, fields, tls, user)
        if status != 200:
            return status, response_headers, None, {}
        return status, response_headers, struct.unpack(">H", content[2:4])[0], parse_attributes(content)

    def print_job(self, tls=True, user=None, requesting_user="pytest", name="security test"):
        attributes = ipp.attribute(ipp.NAME, "job-name", name)
        attributes += ipp.attribute(ipp.MIME_TYPE, "document-format", "application/pdf")
        return self.ipp(ipp.PRINT_JOB, attributes, ipp.sample_pdf(), tls, user, requesting_user)

    def job_folders(self):
        jobs = pathlib.Path(self.output) / "jobs"
        return sorted(p.name for p in jobs.iterdir()) if jobs.exists() else []


def read_response(connection):
    """Reads one HTTP response framed by Content-Length (or the close)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a response head: %r" % data[:200])
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", -1))
    while length < 0 or len(rest) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length] if length >= 0 else rest


def parse_attributes(message):
    """The attributes of an IPP response by name (values of every group, RFC 8010 section 3.1), raw bytes each;
    "jobs" holds one such dict per job attributes group, for Get-Jobs."""
    attributes = {}
    offset = 8
    name = None
    group = 0
    while offset < len(message):
        tag = message[offset]
        offset += 1
        if tag < 0x10:
            if tag == ipp.END_OF_ATTRIBUTES:
                break
            group = tag
            if tag == ipp.JOB_ATTRIBUTES:
                attributes.setdefault("jobs", []).append({})
            continue
        name_length = struct.unpack(">H", message[offset:offset + 2])[0]
        offset += 2
        if name_length:
            name = message[offset:offset + name_length].decode()
        offset += name_length
        value_length = struct.unpack(">H", message[offset:offset + 2])[0]
        offset += 2
        value = message[offset:offset + value_length]
        offset += value_length
        attributes.setdefault(name, []).append(value)
        if group == ipp.JOB_ATTRIBUTES:
            attributes["jobs"][-1].setdefault(name, []).append(value)
    return attributes


def texts(attributes, name):
    return [value.decode(errors="replace") for value in attributes.get(name, [])]


@pytest.fixture
def folder():
    path = tempfile.mkdtemp(prefix="vprinter-security-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def start(folder):
    """Starts printers with arguments; stops them all at the end."""
    started = []

    def starter(*arguments, dnssd=False, subfolder=None):
        where = os.path.join(folder, subfolder or "p%d" % len(started))
        os.makedirs(where, exist_ok=True)
        printer = Printer(where, *arguments, dnssd=dnssd)
        started.append(printer)
        return printer

    yield starter
    for printer in started:
        printer.stop()


# The accounts of the authenticated printer: alice is the admin.
USERS = ["--user", "alice:wonder land", "--user", "bob:builder", "--user", "carol:c:o:l", "--admin", "alice"]
ALICE = "alice:wonder land"
BOB = "bob:builder"
CAROL = "carol:c:o:l"


@pytest.fixture
def secured(start):
    """A --tls printer with three users, alice the admin."""
    return start("--tls", *USERS)


def wait_until(predicate, limit=TIMEOUT):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()
