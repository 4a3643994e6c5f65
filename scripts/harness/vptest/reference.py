"""CUPS's ippeveprinter, the reference IPP Everywhere printer a suite can test its client against instead of
vprinter (it keeps no job record: only the client's side can be checked).

    with reference.start(spool_dir, log_path) as printer:
        cups.add_everywhere_queue("ref", printer.uri)

It listens on a free port of loopback, without DNS-SD registration (``-r off``), but does not start without an
Avahi daemon on the bus (scripts/lib/services.sh starts one).
"""
import http.client
import os
import socket
import subprocess
import time

from vprinter import ipp

from .names import free_port

# The document formats it accepts, as the shipped profiles do.
FORMATS = "application/pdf,image/jpeg,image/pwg-raster,image/urf"
# Seconds it gets to accept a connection, and to exit after SIGTERM.
START_LIMIT = 30
STOP_LIMIT = 10


class Reference:
    """A running ippeveprinter: ``uri``, ``process``, ``log_path``; ``stop()``."""

    def __init__(self, process, uri, log_path):
        self.process = process
        self.uri = uri
        self.log_path = log_path

    def stop(self):
        """SIGTERM, then SIGKILL after STOP_LIMIT seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_LIMIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def _answers(port, tls, timeout):
    """Returns once a connection to ``port`` is accepted; with ``tls``, once an HTTP request over TLS is answered."""
    if not tls:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return
    connection = http.client.HTTPSConnection("localhost", port, timeout=timeout, context=ipp.insecure_context())
    try:
        connection.request("GET", "/")
        connection.getresponse().read()
    finally:
        connection.close()


def start(spool_dir, log_path, name="ippeveprinter-reference", limit=START_LIMIT, keys_dir=None):
    """Starts ippeveprinter spooling into ``spool_dir``, its output in ``log_path``; returns the Reference once it
    accepts a connection. Fails with the end of its log when it exits or is not listening within ``limit``
    seconds. With ``keys_dir`` it serves TLS (``-K``: it makes its self-signed certificate there on the first TLS
    connection): its URI is ipps://, and it is ready once it answers over TLS."""
    os.makedirs(spool_dir, exist_ok=True)
    tls = ["-K", os.fspath(keys_dir)] if keys_dir else []
    if keys_dir:
        os.makedirs(keys_dir, exist_ok=True)
    port = free_port()
    with open(log_path, "wb") as log:
        process = subprocess.Popen(["ippeveprinter", "-p", str(port), "-n", "localhost", "-r", "off", "-2", "-k", *tls,
                                    "-d", os.fspath(spool_dir), "-f", FORMATS, name], stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT)
    printer = Reference(process, "%s://localhost:%d/ipp/print" % ("ipps" if tls else "ipp", port), log_path)
    deadline = time.monotonic() + limit
    while True:
        try:
            _answers(port, tls, max(deadline - time.monotonic(), 1))
            return printer
        except (OSError, http.client.HTTPException):
            pass
        if process.poll() is not None or time.monotonic() >= deadline:
            printer.stop()
            with open(log_path, errors="replace") as log:
                tail = log.read()[-2000:]
            raise AssertionError("ippeveprinter did not start on port %d:\n%s" % (port, tail))
        time.sleep(0.1)
