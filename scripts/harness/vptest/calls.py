"""HTTP calls as tests make them: any method, a JSON or raw body, Basic credentials, http or https (vprinter's
certificate is self-signed, so https is not verified unless a context says so), and the answer whatever its
status; many calls over kept-alive connections (Session). Also raw bytes on a socket, for requests no HTTP library
would send (request_bytes makes a plain one to start from)."""
import base64
import http.client
import json
import socket
import ssl
import urllib.parse

from vprinter import ipp

from .waiting import WAIT_LIMIT

# The longest one call may take, in seconds: a wait of the API may take WAIT_LIMIT itself.
CALL_LIMIT = WAIT_LIMIT + 10
JSON = "application/json"
# What the harness's requests name themselves (job records keep a client's User-Agent).
USER_AGENT = "vptest"


class Answer(tuple):
    """An HTTP answer: unpacks as (status, content type, body bytes); ``headers`` (an email.message.Message) and
    ``json()`` besides."""

    def __new__(cls, status, content_type, body, headers=None):
        answer = super().__new__(cls, (status, content_type, body))
        answer.headers = headers
        return answer

    status = property(lambda self: self[0])
    content_type = property(lambda self: self[1])
    body = property(lambda self: self[2])

    def json(self):
        return json.loads(self.body)


def basic_auth(credentials):
    """The Authorization header value of HTTP Basic credentials: ``"name:password"`` or (name, password)."""
    if not isinstance(credentials, str):
        credentials = "%s:%s" % tuple(credentials)
    return "Basic " + base64.b64encode(credentials.encode()).decode()


def tls_context():
    """A TLS client context that accepts vprinter's self-signed certificate."""
    return ipp.insecure_context()


def _target(parts):
    """The request target of split URL parts: its path (``/`` when empty) and query."""
    return (parts.path or "/") + ("?" + parts.query if parts.query else "")


def _prepared(url, body, headers, auth):
    """What call() and Session.call() send: (URL parts, request target, body bytes or None, header fields)."""
    parts = urllib.parse.urlsplit(url)
    fields = {"User-Agent": USER_AGENT}
    fields.update(headers or {})
    data = body
    if body is not None and not isinstance(body, (bytes, bytearray)):
        data = json.dumps(body).encode()
        fields.setdefault("Content-Type", JSON)
    if auth:
        fields["Authorization"] = basic_auth(auth)
    return parts, _target(parts), data, fields


def _connection(parts, timeout, context):
    if parts.scheme in ("https", "ipps"):
        return http.client.HTTPSConnection(parts.hostname, parts.port, timeout=timeout,
                                           context=context or tls_context())
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)


def _exchange(connection, method, target, data, fields):
    connection.request(method, target, body=data, headers=fields)
    response = connection.getresponse()
    return Answer(response.status, response.headers.get("Content-Type", ""), response.read(), response.headers)


def call(method, url, body=None, headers=None, auth=None, timeout=CALL_LIMIT, context=None):
    """One HTTP request; returns its Answer for any status.

    ``body``: bytes as they are, anything else as JSON (with ``Content-Type: application/json`` unless
    ``headers`` name one). ``auth``: HTTP Basic credentials (see basic_auth). ``context``: the TLS context of
    an https URL (default: tls_context()).
    """
    parts, target, data, fields = _prepared(url, body, headers, auth)
    connection = _connection(parts, timeout, context)
    try:
        return _exchange(connection, method, target, data, fields)
    finally:
        connection.close()


def connect(authority, tls=False, timeout=CALL_LIMIT):
    """A socket connected to ``host:port``, TLS from the first byte with ``tls`` (vprinter's certificate
    accepted): for exchanges no HTTP library makes (a handshake cut short, an Upgrade by hand)."""
    host, port = authority.rsplit(":", 1)
    plain = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    if not tls:
        return plain
    try:
        return tls_context().wrap_socket(plain)
    except BaseException:
        plain.close()
        raise


class Session:
    """HTTP/1.1 calls over kept-alive connections, one per scheme, host and port, as a client that sends many
    requests makes them: ``session.call(method, url, body=None, headers=None, auth=None)`` takes call()'s
    arguments and returns its Answer. ``close()`` (or the end of a ``with`` block) closes them all."""

    def __init__(self, timeout=CALL_LIMIT, context=None):
        self.timeout = timeout
        self.context = context
        self.connections = {}

    def call(self, method, url, body=None, headers=None, auth=None):
        parts, target, data, fields = _prepared(url, body, headers, auth)
        key = (parts.scheme, parts.netloc)
        if key not in self.connections:
            self.connections[key] = _connection(parts, self.timeout, self.context)
        return _exchange(self.connections[key], method, target, data, fields)

    def close(self):
        for connection in self.connections.values():
            connection.close()
        self.connections.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def request_bytes(method, url, body=b"", headers=None):
    """A whole HTTP/1.1 request as bytes, for raw_exchange(): the request line with the URL's path and query
    (ipp:// and ipps:// URLs too), ``Host``, the ``headers`` in order, ``Content-Length`` when there is a body."""
    parts = urllib.parse.urlsplit(url)
    lines = ["%s %s HTTP/1.1" % (method, _target(parts)), "Host: " + parts.netloc]
    lines += ["%s: %s" % item for item in (headers or {}).items()]
    if body:
        lines.append("Content-Length: %d" % len(body))
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + bytes(body)


def raw_exchange(authority, data, tls=False, timeout=5):
    """Sends raw bytes on a new connection to ``host:port`` (TLS from the first byte with ``tls``); returns all
    that came back until the server closed the connection (b"" when it closed without a word)."""
    with connect(authority, tls, timeout) as connection:
        connection.sendall(data)
        received = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except (ConnectionResetError, ssl.SSLEOFError):
                break
            if not chunk:
                break
            received += chunk
        return received
