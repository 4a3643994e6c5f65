"""HTTP calls as tests make them: any method, a JSON or raw body, Basic credentials, http or https (vprinter's
certificate is self-signed, so https is not verified unless a context says so), and the answer whatever its
status. Also raw bytes on a socket, for requests no HTTP library would send."""
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


def call(method, url, body=None, headers=None, auth=None, timeout=CALL_LIMIT, context=None):
    """One HTTP request; returns its Answer for any status.

    ``body``: bytes as they are, anything else as JSON (with ``Content-Type: application/json`` unless
    ``headers`` name one). ``auth``: HTTP Basic credentials (see basic_auth). ``context``: the TLS context of
    an https URL (default: tls_context()).
    """
    parts = urllib.parse.urlsplit(url)
    fields = {"User-Agent": USER_AGENT}
    fields.update(headers or {})
    data = body
    if body is not None and not isinstance(body, (bytes, bytearray)):
        data = json.dumps(body).encode()
        fields.setdefault("Content-Type", JSON)
    if auth:
        fields["Authorization"] = basic_auth(auth)
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=timeout,
                                                 context=context or tls_context())
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
    try:
        connection.request(method, target, body=data, headers=fields)
        response = connection.getresponse()
        return Answer(response.status, response.headers.get("Content-Type", ""), response.read(), response.headers)
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
