"""Many connections at once, as a port scanner or a broken client fleet opens them: each sends Get-Printer-Attributes
and is counted as answered (HTTP 200), refused (503, the connection refused or reset, or closed before an answer) or
hanging (nothing by the time limit). A printer passes when none hang and it answers afterwards."""
import collections
import errno
import resource
import selectors
import socket
import time
import urllib.parse

from vprinter import ipp

Outcome = collections.namedtuple("Outcome", "answered refused hanging seconds")
# Descriptors the bench keeps for itself besides the connections.
SPARE_DESCRIPTORS = 256


def raise_descriptor_limit(wanted):
    """Raises this process's soft limit of open files toward ``wanted`` (at most the hard limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def request_bytes(printer):
    """The HTTP request of a Get-Printer-Attributes to the printer, closing the connection after its answer."""
    parts = urllib.parse.urlsplit(printer.uri)
    body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, printer.uri, {"requested-attributes": ["printer-state"]})
    head = ("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/ipp\r\nContent-Length: %d\r\n"
            "Connection: close\r\n\r\n" % (parts.path, parts.netloc, len(body)))
    return head.encode() + body


def flood(printer, count, limit):
    """Opens ``count`` connections to the printer (fewer when this process may not hold that many descriptors) and
    waits at most ``limit`` seconds for all to end; an Outcome."""
    count = min(count, raise_descriptor_limit(count + SPARE_DESCRIPTORS) - SPARE_DESCRIPTORS)
    parts = urllib.parse.urlsplit(printer.uri)
    address = ("127.0.0.1" if parts.hostname == "localhost" else parts.hostname, parts.port)
    request = request_bytes(printer)
    selector = selectors.DefaultSelector()
    answered = refused = 0
    started = time.monotonic()
    for _ in range(count):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.setblocking(False)
        if connection.connect_ex(address) not in (0, errno.EINPROGRESS):
            refused += 1
            connection.close()
            continue
        selector.register(connection, selectors.EVENT_WRITE, b"")
    while selector.get_map() and time.monotonic() - started < limit:
        for key, events in selector.select(timeout=1):
            connection, received = key.fileobj, key.data
            verdict = None
            if events & selectors.EVENT_WRITE:
                if connection.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    verdict = "refused"
                else:
                    try:
                        connection.send(request)
                        selector.modify(connection, selectors.EVENT_READ, b"")
                    except OSError:
                        verdict = "refused"
            else:
                try:
                    chunk = connection.recv(4096)
                except OSError:
                    chunk = None
                received += chunk or b""
                if b"\r\n" in received:
                    verdict = "answered" if received.startswith(b"HTTP/1.1 200") else "refused"
                elif not chunk:
                    verdict = "refused"
                else:
                    selector.modify(connection, selectors.EVENT_READ, received)
            if verdict:
                answered += verdict == "answered"
                refused += verdict == "refused"
                selector.unregister(connection)
                connection.close()
    hanging = len(selector.get_map())
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    selector.close()
    return Outcome(answered, refused, hanging, time.monotonic() - started)


def answers(printer):
    """Whether the printer answers a Get-Printer-Attributes now."""
    try:
        ipp.send(printer.uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, printer.uri), timeout=10)
        return True
    except (OSError, ipp.IPPError):
        return False
