"""Bad input on a --tls printer with credentials: each costs only its own connection, and a bystander is
served throughout. The connections that stall are left to the printer's slow-client limit; the Swift tests
(TLSBadInputTests) check with a short limit that they are closed."""
import asyncio
import base64
import random
import socket
import ssl
import subprocess
import threading

import pytest
from vprinter.ipp import GET_PRINTER_ATTRIBUTES, PRINT_JOB, SUCCESSFUL_OK
from vptest.calls import tls_context
from vptest.documents import SAMPLE_PDF

from conftest import ALICE, BOB, connect, ipp_call, job_folders, print_job

# Connections opened at once by the flood test (the server serves up to 1024).
FLOOD_CONNECTIONS = 1000


def client_hello():
    """A real ClientHello record from Python's TLS client over memory BIOs."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    session = tls_context().wrap_bio(incoming, outgoing)
    with pytest.raises(ssl.SSLWantReadError):
        session.do_handshake()
    hello = outgoing.read()
    assert hello[:2] == b"\x16\x03" and len(hello) > 100
    return hello


class Bystander:
    """Asks for the printer's attributes over TLS again and again in a thread while a test misbehaves; every
    answer must come."""

    def __init__(self, printer):
        self.printer = printer
        self.answers = 0
        self.failures = []
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while self.running:
            try:
                status, _, ipp_status, _ = ipp_call(self.printer, GET_PRINTER_ATTRIBUTES)
                if (status, ipp_status) == (200, SUCCESSFUL_OK):
                    self.answers += 1
                else:
                    self.failures.append((status, ipp_status))
            except Exception as error:  # a refused connection, a cut answer, a malformed one: each a failure
                self.failures.append(repr(error))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.running = False
        self.thread.join(timeout=60)
        assert not self.failures, self.failures[:5]
        assert self.answers > 0
        assert self.printer.alive()


def expect_closed_or_answered(connection):
    """Reads until the server closes (or answers and closes); a reset counts as closed."""
    connection.settimeout(30)
    try:
        while connection.recv(65536):
            pass
    except (ConnectionResetError, ssl.SSLError):
        pass


def test_a_handshake_cut_at_every_byte(secured):
    hello = client_hello()
    with Bystander(secured):
        for length in range(1, len(hello)):
            with connect(secured, tls=False) as connection:
                connection.sendall(hello[:length])
                connection.shutdown(socket.SHUT_WR)
                expect_closed_or_answered(connection)


def test_garbage_instead_of_a_client_hello(secured):
    generator = random.Random(12)
    hello = client_hello()
    with Bystander(secured):
        for prefix in (b"\x16\x03\x01", b"\x16\x03\x03\xff\xff", b"\x16\x02", b"\x16", b"\x80\x2e", b""):
            with connect(secured, tls=False) as connection:
                connection.sendall(prefix + bytes(generator.randrange(256) for _ in range(700)))
                expect_closed_or_answered(connection)
        for _ in range(20):
            corrupted = bytearray(hello)
            for _ in range(5):
                corrupted[generator.randrange(5, len(corrupted))] = generator.randrange(256)
            with connect(secured, tls=False) as connection:
                connection.sendall(bytes(corrupted))
                # A corrupted length may leave the server waiting for more: the end of the stream tells it.
                connection.shutdown(socket.SHUT_WR)
                expect_closed_or_answered(connection)


def test_clients_that_stop_mid_handshake(secured):
    hello = client_hello()
    stalled = []
    with Bystander(secured) as bystander:
        for index in range(50):
            connection = connect(secured, tls=False)
            connection.sendall(hello[:10 + index])
            stalled.append(connection)
        answered = bystander.answers
        for _ in range(20):
            ipp_call(secured, GET_PRINTER_ATTRIBUTES)
        assert bystander.answers >= answered
    for connection in stalled:
        connection.close()


def test_renegotiation_is_refused(secured):
    # openssl s_client's "R" command asks for a TLS 1.2 renegotiation; the printer answers no_renegotiation.
    command = "(printf 'R\\n'; sleep 1) | openssl s_client -connect 127.0.0.1:%d -tls1_2" % secured.port
    with Bystander(secured):
        for _ in range(3):
            result = subprocess.run(["sh", "-c", command], capture_output=True, timeout=60)
            output = result.stdout + result.stderr
            assert b"RENEGOTIATING" in output, output[-500:]
            assert b"no renegotiation" in output, output[-500:]


async def one_tls_exchange(port, context, barrier):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context)
    await barrier.wait()
    writer.write(b"GET /api/v1/printers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    await writer.drain()
    data = await reader.read()
    writer.close()
    return data.split(b" ", 2)[1] if data.startswith(b"HTTP/1.1 ") else b"none"


async def flood(port):
    barrier = asyncio.Barrier(FLOOD_CONNECTIONS)
    # One client context for all: making one loads the system's certificate authorities (tens of milliseconds).
    context = tls_context()
    tasks = [one_tls_exchange(port, context, barrier) for _ in range(FLOOD_CONNECTIONS)]
    return await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=240)


def test_a_thousand_tls_connections_at_once(secured):
    results = asyncio.run(flood(secured.port))
    statuses = [result if isinstance(result, bytes) else repr(result) for result in results]
    assert statuses.count(b"200") == FLOOD_CONNECTIONS, sorted(set(map(str, statuses)))[:5]
    assert ipp_call(secured, GET_PRINTER_ATTRIBUTES)[2] == SUCCESSFUL_OK


def test_wrong_and_malformed_authorization(secured):
    headers = ["Basic " + base64.b64encode(b"alice:" + bytes([value]) * 40).decode() for value in range(1, 256, 17)]
    headers += ["Basic " + "A" * 5000, "Basic ====", "Basic \xff\xfe", "Basic YWxpY2U6d29uZGVyIGxhbmQ= extra",
                "Negotiate " + "x" * 100, "Basic", " ", "Bearer " + "y" * 3000, "Basic " + base64.b64encode(
                    b"\x00:\x01").decode(), "Basic " + base64.b64encode(b"\xc3\x28:pw").decode()]
    with Bystander(secured):
        for header in headers:
            try:
                # The header's bytes as UTF-8, as they are given here.
                status, _, _, _ = ipp_call(secured, PRINT_JOB, document=SAMPLE_PDF,
                                           headers={"Authorization": header.encode()})
            except (ConnectionError, OSError):
                continue
            # 429 once the failures for one account pass LoginThrottle's ten a minute from this address.
            assert status in (400, 401, 429, 431), header[:40]
    assert job_folders(secured) == []
    # Guessing alice's password from here, ten times a minute at the most: then her right one is not even compared.
    statuses = [print_job(secured, user="alice:guess%d" % attempt)[0] for attempt in range(10)]
    assert set(statuses) <= {401, 429} and statuses[-1] == 429, statuses
    status, headers, _, _ = print_job(secured, user=ALICE)
    assert status == 429 and int(headers["retry-after"]) >= 1
    status, _, ipp_status, _ = print_job(secured, user=BOB)
    assert (status, ipp_status) == (200, SUCCESSFUL_OK)
