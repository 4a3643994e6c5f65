"""Clients that hold the printer's connections (docs/security.md "Connections"): one address may hold at most
--max-connections-per-address of them (default 1024 of 2048), so a crowd of trickling connections from one place
leaves every other client served; and a printer that asks for credentials reads only a little of a request that
has none. Before, 1,024 connections from anywhere took every slot (the next client got 503, or no answer), and an
anonymous request's attributes were read up to 1 MiB before the 401."""
import resource
import socket
import struct
import time

from vprinter import ipp

from conftest import ALICE, USERS, ipp_call

# More trickling connections than the whole server served before (1,024), all from 127.0.0.1.
TRICKLERS = 1100
# The other client's address: any 127.0.0.0/8 address reaches the loopback interface.
OTHER_ADDRESS = "127.0.0.2"


def raise_descriptor_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))


def post_head(printer, length):
    return ("POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/ipp\r\nContent-Length: %d\r\n\r\n"
            % (printer.path, printer.port, length)).encode()


def get_printer_attributes(printer, source):
    """A whole Get-Printer-Attributes from the address ``source``: (HTTP status line, IPP status, seconds taken)."""
    body = printer.ipp_request(ipp.GET_PRINTER_ATTRIBUTES, [("requested-attributes", ["printer-state"])])
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", printer.port), timeout=10, source_address=(source, 0)) as client:
        client.sendall(post_head(printer, len(body)) + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = client.recv(65536)
            assert chunk, "closed after %r" % answer
            answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        length = int([line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")][0])
        while len(rest) < length:
            rest += client.recv(65536)
    return head.split(b"\r\n")[0].decode(), struct.unpack(">H", rest[2:4])[0], time.monotonic() - started


def test_a_crowd_of_trickling_connections_from_one_address_leaves_others_served(start_printer):
    printer = start_printer()
    raise_descriptor_limit(TRICKLERS + 256)
    message = printer.ipp_request(ipp.GET_PRINTER_ATTRIBUTES)
    crowd = []
    try:
        for index in range(TRICKLERS):
            connection = socket.create_connection(("127.0.0.1", printer.port), timeout=10)
            crowd.append(connection)
            # The printer may refuse and close it at once (503): what it sends is read below.
            # Half send part of a head, half a whole head and the start of the IPP attributes; none ever finishes.
            if index % 2:
                connection.sendall(b"POST /ipp/print HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            else:
                connection.sendall(post_head(printer, len(message)) + message[:9])
        for index, connection in enumerate(crowd):
            try:
                connection.sendall(b"X" if index % 2 else message[9:10])
            except ConnectionError:
                pass  # one of those the printer refused (503) and closed
        status, ipp_status, seconds = get_printer_attributes(printer, OTHER_ADDRESS)
        print("Get-Printer-Attributes from another address while %d connections trickle: %.3f s" % (TRICKLERS, seconds))
        assert status == "HTTP/1.1 200 OK" and ipp_status == 0
        assert seconds < 1.0
        # The crowd's address got at most its share; the rest of it was told why.
        refused = 0
        for connection in crowd:
            connection.setblocking(False)
            try:
                if connection.recv(200).startswith(b"HTTP/1.1 503 "):
                    refused += 1
            except (BlockingIOError, ConnectionError):
                pass
        assert refused >= TRICKLERS - 1024
        extra = socket.create_connection(("127.0.0.1", printer.port), timeout=10)
        crowd.append(extra)
        assert extra.recv(200).startswith(b"HTTP/1.1 503 Service Unavailable")
    finally:
        for connection in crowd:
            connection.close()


def test_a_printer_asking_for_credentials_reads_little_of_a_request_without_them(start_printer):
    printer = start_printer("--allow-plain-auth", *USERS)
    # A Get-Printer-Attributes (open to anyone) padded past 64 KiB with requested attribute names.
    names = ["x-padding-%05d" % index for index in range(6000)]
    attributes = [("requested-attributes", names)]
    status, headers, _, _ = ipp_call(printer, ipp.GET_PRINTER_ATTRIBUTES, attributes, tls=False)
    assert status == 401 and headers.get("WWW-Authenticate", "").startswith("Basic ")
    # With credentials the same request is read whole and answered; a small one needs none.
    status, _, ipp_status, _ = ipp_call(printer, ipp.GET_PRINTER_ATTRIBUTES, attributes, tls=False, user=ALICE)
    assert status == 200 and ipp_status is not None and ipp_status < 0x0100
    status, _, ipp_status, _ = ipp_call(printer, ipp.GET_PRINTER_ATTRIBUTES, [], tls=False)
    assert status == 200 and ipp_status == 0
